import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto } from '../../../src/api/types.ts';
import { type CompatServer, startCompatServer } from './komga-compat-helpers.ts';

/**
 * Requests real Komga clients send (komga-webui, Komelia/komga-client, KMReader, KOReader's Komga
 * plugin), answered as Komga's controllers answer them: the cases a fresh audit found different.
 */
let c: CompatServer;
beforeAll(async () => {
  c = await startCompatServer();
});
afterAll(async () => {
  await c.server.close();
});

const json = (body: unknown) => ({ contentType: 'application/json', body });
const book = (id: string) => c.server.json<BookDto>(`/api/v1/books/${id}`);

describe('PATCH /api/v1/books/metadata (the web client’s edit of several books at once)', () => {
  // BookController.updateBooksMetadata: newMetadatas.mapNotNull { findByIdOrNull(bookId)?.let { … } }.
  it('edits the books that exist and passes over an id that names none (deleted meanwhile), 204', async () => {
    const [first, second] = c.books.filter((b) => b.seriesId === c.books[0]!.seriesId);
    const response = await c.send('PATCH', '/api/v1/books/metadata', json({
      [first!.id]: { title: 'Edited in a batch' },
      D0000000MISSING: { title: 'Nobody' },
      [second!.id]: { summary: 'Also edited' },
    }));
    expect(response.statusCode, response.body).toBe(204);
    expect((await book(first!.id)).metadata.title).toBe('Edited in a batch');
    expect((await book(second!.id)).metadata.summary).toBe('Also edited');
  });
});

describe('PATCH /api/v1/books/{id}/read-progress', () => {
  // ReadProgressUpdateDto: `@get:Positive val page: Int?` is checked whatever `completed` says (KMReader
  // marks a book read with {page: pagesCount, completed: true}, so a book of no pages sends page 0).
  it('a page that is not positive is refused beside completed: true, with the violation naming page; nothing is marked', async () => {
    const target = c.books.find((b) => b.media.status === 'READY')!;
    await c.send('DELETE', `/api/v1/books/${target.id}/read-progress`);
    for (const page of [0, -2]) {
      const response = await c.send('PATCH', `/api/v1/books/${target.id}/read-progress`, json({ page, completed: true }));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().violations).toEqual([{ fieldName: 'page', message: 'must be greater than 0' }]);
    }
    expect((await book(target.id)).readProgress).toBeNull();
    const read = await c.send('PATCH', `/api/v1/books/${target.id}/read-progress`, json({ page: target.media.pagesCount, completed: true }));
    expect(read.statusCode, read.body).toBe(204);
    expect((await book(target.id)).readProgress).toMatchObject({ completed: true, page: target.media.pagesCount });
  });
});

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { opfXml, writeEpub } from '../../fixtures/epub.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * An EPUB whose package document lists files the archive does not hold (lost when the book was
 * made or repackaged). Komga reads what is there and says so: READY with ERR_1033 ("some entries
 * are missing"). Folio read it as a whole book, with no word of what was lost.
 */

let server: TestServer;
const books = new Map<string, BookDto>();

const chapter = (text: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body><p>${text}</p></body></html>\n`;
const item = (id: string, href: string, mediaType = 'application/xhtml+xml') => ({ id, href, mediaType });

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  await writeEpub(join(root, 'Books', 'lost-files.epub'), [
    { name: 'OEBPS/one.xhtml', data: chapter('Chapter one.') },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '    <dc:title>Lost files</dc:title>',
        manifest: [item('one', 'one.xhtml'), item('two', 'two.xhtml'), item('css', 'style/book.css', 'text/css')],
        spine: ['one', 'two'],
      }),
    },
  ]);
  await writeEpub(join(root, 'Books', 'whole.epub'), [
    { name: 'OEBPS/one.xhtml', data: chapter('Chapter one.') },
    { name: 'OEBPS/content.opf', data: opfXml({ metadata: '    <dc:title>Whole</dc:title>', manifest: [item('one', 'one.xhtml')], spine: ['one'] }) },
  ]);
  await addLibrary(server, root);
  for (const book of (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content) books.set(book.name, book);
});
afterAll(async () => {
  await server.close();
});

describe('an EPUB missing files its package document lists', () => {
  it('is READY with ERR_1033, and what is there reads', async () => {
    const book = books.get('lost-files')!;
    expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1033', mediaProfile: 'EPUB', pagesCount: 1 });
    const manifest = await server.json<{ readingOrder: { href: string }[] }>(`/api/v1/books/${book.id}/manifest`);
    expect(manifest.readingOrder.map((link) => link.href)).toEqual([expect.stringMatching(/OEBPS\/one\.xhtml$/)]);
    expect((await server.get(`/api/v1/books/${book.id}/resource/OEBPS/one.xhtml`)).statusCode).toBe(200);
  });

  it('says nothing of a book that holds every file it lists', () => {
    expect(books.get('whole')!.media).toMatchObject({ status: 'READY', comment: '', pagesCount: 1 });
  });
});

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { BLUE, GREEN, MAGENTA, RED, createCbz, renderPage } from '../../fixtures/index.ts';
import { writeGeneration } from '../../../server/db/write-generation.ts';
import { addLibrary, basic, insertUser, multipartFile, rescan, startServer, type TestServer } from './helpers.ts';

/*
 * Page and poster requests read their book, media, page and poster rows from memory
 * (server/db/serving-lookups.ts) until a write may have changed them. Each case below serves a
 * row once (so it is remembered), changes it the way the server does, and expects the very next
 * request to see the change: a cache that missed that write would answer the old row.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const png = (color: [number, number, number]) => ({ width: 40, height: 60, color, format: 'png' as const });

async function setUp() {
  const s = (server = await startServer());
  const file = join(s.dir, 'library', 'S', 'Book.cbz');
  const written = await createCbz(file, [png(RED), png(BLUE)]);
  const library = await addLibrary(s, join(s.dir, 'library'));
  const bookId = (await s.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content[0]!.id;
  return { s, file, written, library, bookId };
}

describe('the remembered serving rows', () => {
  it('a poster uploaded, selected again or deleted is the one served on the very next request', async () => {
    const { s, bookId } = await setUp();
    const poster = () => s.get(`/api/v1/books/${bookId}/thumbnail`);
    const drawn = await poster();
    expect(drawn.headers['content-type']).toBe('image/jpeg');
    const upload = await renderPage({ width: 40, height: 60, color: MAGENTA, format: 'png' });
    const body = multipartFile(upload);
    const uploaded = await s.app.inject({ method: 'POST', url: `/api/v1/books/${bookId}/thumbnails`, payload: body.payload, headers: { ...s.admin, ...body.headers } });
    expect(uploaded.statusCode).toBe(200);
    const now = await poster();
    expect(now.rawPayload.equals(upload)).toBe(true);
    expect(now.headers.etag).not.toBe(drawn.headers.etag);

    const generatedId = s.app.folio.repos.thumbnails.list(bookId).find((t) => t.type === 'GENERATED')!.id;
    const select = await s.app.inject({ method: 'PUT', url: `/api/v1/books/${bookId}/thumbnails/${generatedId}/selected`, headers: s.admin });
    expect(select.statusCode).toBe(202);
    expect((await poster()).rawPayload.equals(drawn.rawPayload)).toBe(true);
    // A client holding the uploaded poster's ETag gets the drawn one, not a 304.
    expect((await s.get(`/api/v1/books/${bookId}/thumbnail`, { ...s.admin, 'if-none-match': String(now.headers.etag) })).statusCode).toBe(200);

    const uploadedId = (uploaded.json() as { id: string }).id;
    const selectUpload = await s.app.inject({ method: 'PUT', url: `/api/v1/books/${bookId}/thumbnails/${uploadedId}/selected`, headers: s.admin });
    expect(selectUpload.statusCode).toBe(202);
    expect((await poster()).rawPayload.equals(upload)).toBe(true);
    const deleted = await s.app.inject({ method: 'DELETE', url: `/api/v1/books/${bookId}/thumbnails/${uploadedId}`, headers: s.admin });
    expect(deleted.statusCode).toBe(202);
    expect((await poster()).rawPayload.equals(upload)).toBe(false);
  });

  it('a book whose file was replaced is served with its new pages, and its old ETag is not answered 304', async () => {
    const { s, file, written, library, bookId } = await setUp();
    const first = await s.get(`/api/v1/books/${bookId}/pages/1`);
    expect(first.rawPayload.equals(written.pages[0]!.bytes)).toBe(true);
    expect((await s.get(`/api/v1/books/${bookId}/pages/3`)).statusCode).toBe(400);
    const poster = await s.get(`/api/v1/books/${bookId}/thumbnail`);

    const replaced = await createCbz(file, [png(GREEN), png(MAGENTA), png(RED)]);
    await rescan(s, library.id);
    const fresh = await s.get(`/api/v1/books/${bookId}/pages/1`, { ...s.admin, 'if-none-match': String(first.headers.etag) });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.rawPayload.equals(replaced.pages[0]!.bytes)).toBe(true);
    expect((await s.get(`/api/v1/books/${bookId}/pages/3`)).rawPayload.equals(replaced.pages[2]!.bytes)).toBe(true);
    // Its poster is drawn again from the new first page.
    expect((await s.get(`/api/v1/books/${bookId}/thumbnail`)).rawPayload.equals(poster.rawPayload)).toBe(false);
  });

  it('a deleted library takes its books with it (a cascade, not a write to the book table)', async () => {
    const { s, library, bookId } = await setUp();
    expect((await s.get(`/api/v1/books/${bookId}/pages/1`)).statusCode).toBe(200);
    expect((await s.get(`/api/v1/books/${bookId}/thumbnail`)).statusCode).toBe(200);
    const deleted = await s.app.inject({ method: 'DELETE', url: `/api/v1/libraries/${library.id}`, headers: s.admin });
    expect(deleted.statusCode).toBe(204);
    await s.app.folio.tasks.idle();
    expect((await s.get(`/api/v1/books/${bookId}/pages/1`)).statusCode).toBe(404);
    expect((await s.get(`/api/v1/books/${bookId}/thumbnail`)).statusCode).toBe(404);
  });

  it("a restricted reader's book is hidden on the very next request once its series' age rating or labels say so", async () => {
    const { s, bookId } = await setUp();
    const userId = await insertUser(s, 'teen@example.org', 'pw', ['PAGE_STREAMING']);
    const users = s.app.folio.repos.users;
    users.update({ ...users.findById(userId)!, ageRestriction: 16, ageRestrictionType: 'EXCLUDE', labelsExclude: ['hidden'] });
    const login = await s.get('/api/v2/users/me', { authorization: basic('teen@example.org', 'pw'), 'X-Requested-With': 'XMLHttpRequest' });
    const reader = { cookie: login.cookies.map((c) => `${c.name}=${c.value}`).join('; '), 'X-Requested-With': 'XMLHttpRequest' };
    const statuses = async () => [(await s.get(`/api/v1/books/${bookId}/pages/1`, reader)).statusCode, (await s.get(`/api/v1/books/${bookId}/thumbnail`, reader)).statusCode];
    const seriesId = s.app.folio.repos.books.findById(bookId)!.seriesId;
    const patch = async (payload: object) => {
      const response = await s.app.inject({ method: 'PATCH', url: `/api/v1/series/${seriesId}/metadata`, headers: s.admin, payload });
      expect(response.statusCode).toBe(204);
    };
    expect(await statuses()).toEqual([200, 200]);
    await patch({ ageRating: 18 });
    expect(await statuses()).toEqual([404, 404]);
    await patch({ ageRating: 12 });
    expect(await statuses()).toEqual([200, 200]);
    await patch({ sharingLabels: ['Hidden'] });
    expect(await statuses()).toEqual([404, 404]);
    await patch({ sharingLabels: [] });
    expect(await statuses()).toEqual([200, 200]);
    // The same book asked by the unrestricted admin is another answer.
    expect((await s.get(`/api/v1/books/${bookId}/thumbnail`)).statusCode).toBe(200);
  });

  it('moves on every write to a served table, a rolled-back one included, and not on other tables', async () => {
    const { s, bookId } = await setUp();
    const { db } = s.app.folio;
    const generation = writeGeneration(db)!;
    let seen = generation.value;
    const moved = () => {
      const now = generation.value;
      const changed = now !== seen;
      seen = now;
      return changed;
    };
    db.prepare('UPDATE book SET name = name WHERE id = ?').run(bookId);
    expect(moved()).toBe(true);
    db.prepare('SELECT * FROM book WHERE id = ?').get(bookId);
    db.prepare("UPDATE server_setting SET value = value WHERE key = 'none'").run();
    expect(moved()).toBe(false);
    db.exec('UPDATE media SET comment = comment');
    expect(moved()).toBe(true);
    // Read inside a transaction that is then rolled back: the value read must not be kept.
    expect(() =>
      s.app.folio.repos.inTransaction(() => {
        db.prepare('UPDATE book SET name = ? WHERE id = ?').run('Renamed', bookId);
        const inside = generation.value;
        s.app.folio.repos.served.bookWithMedia(bookId);
        expect(generation.value).toBe(inside);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(moved()).toBe(true);
    expect(s.app.folio.repos.served.bookWithMedia(bookId)!.book.name).toBe('Book');
  });
});

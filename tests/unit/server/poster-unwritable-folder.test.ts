import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Book posters drawn while the thumbnails folder cannot be written (a full disk, a quota, a
 * read-only mount): here, deterministically, a file stands where the folder should be, so every
 * write there fails (EEXIST/ENOTDIR, handled with ENOSPC, EDQUOT, EROFS, EACCES). The poster was
 * drawn: it must be served from memory, not a 500, and no record may name a file that is not there.
 */

let server: TestServer;
let books: BookDto[];
const folder = () => join(server.dataDir, 'thumbnails', 'books');
const logLines = async (text = 'drawn poster not stored') => (await readFile(join(server.dataDir, 'logs', 'folio.log'), 'utf8')).split('\n').filter((l) => l.includes(text));

beforeAll(async () => {
  server = await startServer({ logLevel: 'warn' });
  await rm(folder(), { recursive: true, force: true });
  await mkdir(join(server.dataDir, 'thumbnails'), { recursive: true });
  await writeFile(folder(), 'in the way');
  await mkdir(join(server.dataDir, 'cache'), { recursive: true });
  await writeFile(join(server.dataDir, 'cache', 'page-thumbnails'), 'in the way');
  await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
  books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true&sort=name')).content.filter((b) => b.media.status === 'READY');
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('posters while the thumbnails folder cannot be written', () => {
  it('serves the drawn poster from memory, records nothing, logs once, and stores it once it can', async () => {
    const book = books[0]!;
    for (let i = 0; i < 2; i++) {
      const response = await server.get(`/api/v1/books/${book.id}/thumbnail`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
      expect((await sharp(response.rawPayload).metadata()).format).toBe('jpeg');
    }
    expect(server.app.folio.repos.thumbnails.findSelectedForBook(book.id)).toBeUndefined();
    // The background drawing of every book and these requests failed alike: one line said so.
    await pollUntil('the failure to be logged', async () => (await logLines()).length > 0);
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/"bookId":"/);
    expect(lines[0]).toMatch(/EEXIST|ENOTDIR/);

    // Posters made of book posters: the series', a read list's mosaic.
    expect((await server.get(`/api/v1/series/${book.seriesId}/thumbnail`)).statusCode).toBe(200);
    const list = await server.app.inject({ method: 'POST', url: '/api/v1/readlists', headers: server.admin, payload: { name: 'Unstored', ordered: true, bookIds: books.map((b) => b.id) } });
    expect(list.statusCode, list.body).toBe(200);
    const mosaic = await server.get(`/api/v1/readlists/${list.json().id}/thumbnail`);
    expect(mosaic.statusCode).toBe(200);
    expect((await sharp(mosaic.rawPayload).metadata()).width).toBe(300);

    // Page thumbnails (their own cache) are served too, and the failure said once, not per page.
    for (const n of [1, 2]) {
      const page = await server.get(`/api/v1/books/${book.id}/pages/${n}/thumbnail`);
      expect(page.statusCode, page.body).toBe(200);
    }
    await pollUntil('the page cache failure to be logged', async () => (await logLines('drawn image not cached')).length > 0);
    expect(await logLines('drawn image not cached')).toHaveLength(1);

    // Room again: the next request stores it, and the record names that very file.
    await rm(folder());
    const stored = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(stored.statusCode).toBe(200);
    const row = server.app.folio.repos.thumbnails.findSelectedForBook(book.id);
    expect(row?.type).toBe('GENERATED');
    expect((await readFile(join(server.dataDir, row!.filePath))).equals(stored.rawPayload)).toBe(true);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/*
 * Komga's own OPDS addresses of a book's file, poster and pages (its OPDS 1.2 feeds give them, and
 * readers keep them): served as the /api ones are, with the same login, roles and content rules.
 */

let server: TestServer;
let book: BookDto;
let file: Buffer;

beforeAll(async () => {
  server = await startServer();
  const sample = await createSampleLibrary(join(server.dir, 'library'));
  await addLibrary(server, sample.root);
  book = (await server.json<Page<BookDto>>('/api/v1/books?sort=name&unpaged=true')).content.find((b) => b.name === 'Alpha 01')!;
  file = await readFile(book.url);
});
afterAll(async () => {
  await server.close();
});

const urls = () => ({
  file: [`/opds/v1.2/books/${book.id}/file/Alpha%2001.cbz`, `/opds/v2/books/${book.id}/file`, `/opds/v2/books/${book.id}/file/Alpha%2001.cbz`],
  poster: [`/opds/v1.2/books/${book.id}/thumbnail`, `/opds/v1.2/books/${book.id}/thumbnail/small`, `/opds/v2/books/${book.id}/thumbnail`],
  page: [`/opds/v1.2/books/${book.id}/pages/0`],
});

/** Each book link of an OPDS 1.2 acquisition feed, by rel: [href, type]. */
function bookLinks(xml: string, bookId: string): Record<string, [string, string]> {
  const links: Record<string, [string, string]> = {};
  for (const [, rel, href, type] of xml.matchAll(/<link rel="([^"]+)" href="([^"]+)" type="([^"]+)"/g)) {
    if (href!.includes(`/books/${bookId}/`)) links[rel!] = [href!.replaceAll('&amp;', '&'), type!];
  }
  return links;
}

describe("Komga's OPDS book addresses", () => {
  it("are the ones OPDS 1.2 entries link to, as Komga's OpdsController writes them", async () => {
    const feed = await server.get(`/opds/v1.2/series/${book.seriesId}`);
    expect(feed.statusCode).toBe(200);
    const at = (rest: string) => `http://localhost:80/opds/v1.2/books/${book.id}/${rest}`;
    expect(bookLinks(feed.body, book.id)).toEqual({
      'http://opds-spec.org/image': [at('thumbnail'), 'image/jpeg'],
      'http://opds-spec.org/image/thumbnail': [at('thumbnail/small'), 'image/jpeg'],
      'http://opds-spec.org/acquisition': [at('file/Alpha%2001.cbz'), 'application/zip'],
      // Pages there count from 0, as OPDS-PSE readers fill {pageNumber} in.
      'http://vaemendis.net/opds-pse/stream': [at('pages/{pageNumber}'), 'image/png'],
    });
    const first = (await server.get(`/api/v1/books/${book.id}/pages/1`)).rawPayload;
    expect((await server.get(`/opds/v1.2/books/${book.id}/pages/0`)).rawPayload.equals(first)).toBe(true);
  });

  it('serve the file, the poster and the pages (counted from 0) as the /api addresses do', async () => {
    for (const url of urls().file) {
      const response = await server.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.rawPayload.equals(file), url).toBe(true);
      expect(response.headers['content-disposition'], url).toContain('Alpha 01.cbz');
    }
    const poster = (await server.get(`/api/v1/books/${book.id}/thumbnail`)).rawPayload;
    for (const url of urls().poster) {
      const response = await server.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe('image/jpeg');
      expect(response.rawPayload.equals(poster), url).toBe(true);
    }
    // Page 0 is the first page, whatever zero_based says; page 3 is past the last of three.
    const first = (await server.get(`/api/v1/books/${book.id}/pages/1`)).rawPayload;
    expect((await server.get(`/opds/v1.2/books/${book.id}/pages/0`)).rawPayload.equals(first)).toBe(true);
    expect((await server.get(`/opds/v1.2/books/${book.id}/pages/0?zero_based=false`)).rawPayload.equals(first)).toBe(true);
    expect((await server.get(`/opds/v1.2/books/${book.id}/pages/3`)).statusCode).toBe(400);
    const converted = await server.get(`/opds/v1.2/books/${book.id}/pages/1?convert=jpeg`);
    expect(converted.statusCode).toBe(200);
    expect(converted.headers['content-type']).toBe('image/jpeg');
  });

  it('need a login, and the roles the /api addresses need', async () => {
    for (const url of Object.values(urls()).flat()) {
      expect((await server.get(url, {})).statusCode, url).toBe(401);
    }
    await insertUser(server, 'reader@example.org', 'pw', []);
    const reader = { authorization: basic('reader@example.org', 'pw') };
    for (const url of urls().file) expect((await server.get(url, reader)).statusCode, url).toBe(403);
    for (const url of urls().page) expect((await server.get(url, reader)).statusCode, url).toBe(403);
    // A poster needs no role.
    for (const url of urls().poster) expect((await server.get(url, reader)).statusCode, url).toBe(200);
  });

  it('answer 404 for a book the caller may not see, as for an unknown one', async () => {
    const id = await insertUser(server, 'kids@example.org', 'pw', ['FILE_DOWNLOAD', 'PAGE_STREAMING']);
    // Only books rated 12 or less: the sample's series have no rating, so none is visible.
    const user = server.app.folio.repos.users.findById(id)!;
    server.app.folio.repos.users.update({ ...user, ageRestriction: 12, ageRestrictionType: 'ALLOW_ONLY' });
    const kids = { authorization: basic('kids@example.org', 'pw') };
    expect((await server.get(`/api/v1/books/${book.id}`, kids)).statusCode).toBe(404);
    for (const url of Object.values(urls()).flat()) expect((await server.get(url, kids)).statusCode, url).toBe(404);
  });
});

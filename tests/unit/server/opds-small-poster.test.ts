import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREEN, MAGENTA, createCbz, renderPage } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer, multipartFile } from './helpers.ts';

/*
 * Komga's small OPDS poster (/opds/v1.2/books/{id}/thumbnail/small): a drawn poster as it is, a
 * chosen one (here an uploaded PNG) redrawn as a JPEG at most thumbnailSize (300 px by default) on
 * its longest side. The other poster addresses keep serving the upload exactly as stored.
 */

let server: TestServer;
let bookId: string;
let upload: Buffer;

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  await createCbz(join(root, 'Series', 'A.cbz'), [{ width: 200, height: 300, color: GREEN, format: 'png' }]);
  const library = await addLibrary(server, root);
  bookId = server.app.folio.repos.books.findByLibrary(library.id)[0]!.id;
  upload = await renderPage({ width: 800, height: 1200, color: MAGENTA, format: 'png' });
});
afterAll(async () => {
  await server.close();
});


const small = () => `/opds/v1.2/books/${bookId}/thumbnail/small`;

describe("Komga's small OPDS poster", () => {
  it('is the drawn poster as it is', async () => {
    const drawn = await server.get(`/api/v1/books/${bookId}/thumbnail`);
    expect(drawn.statusCode).toBe(200);
    const response = await server.get(small());
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.rawPayload.equals(drawn.rawPayload)).toBe(true);
  });

  it('is an uploaded PNG poster redrawn as a small JPEG; the other addresses keep the upload', async () => {
    const body = multipartFile(upload);
    const uploaded = await server.app.inject({ method: 'POST', url: `/api/v1/books/${bookId}/thumbnails`, payload: body.payload, headers: { ...server.admin, ...body.headers } });
    expect(uploaded.statusCode).toBe(200);

    const response = await server.get(small());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    const info = await sharp(response.rawPayload).metadata();
    expect(info.format).toBe('jpeg');
    expect([info.width, info.height]).toEqual([200, 300]);

    for (const url of [`/api/v1/books/${bookId}/thumbnail`, `/opds/v1.2/books/${bookId}/thumbnail`, `/opds/v2/books/${bookId}/thumbnail`]) {
      const stored = await server.get(url);
      expect(stored.headers['content-type'], url).toBe('image/png');
      expect(stored.rawPayload.equals(upload), url).toBe(true);
    }
  });
});

import { rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * Local artwork is the library's own files, checked when a scan finds it. Replaced afterwards by a
 * link leading out of the library (`cover.jpg -> /anything`), it was served as it stood: any user
 * who could see the series read whatever file the server could, its own database included.
 */
let server: TestServer;
let reader: Record<string, string>;
let seriesId = '';
let bookId = '';
const SECRET = 'SECRET-OUTSIDE-THE-LIBRARY';

type Poster = { id: string; type: string; selected: boolean };

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  const art = await sharp({ create: { width: 20, height: 30, channels: 3, background: 'blue' } }).jpeg().toBuffer();
  await createCbz(join(root, 'Series', 'Book 01.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
  await writeFile(join(root, 'Series', 'cover.jpg'), art);
  await writeFile(join(root, 'Series', 'Book 01.jpg'), art);
  await addLibrary(server, root);
  await insertUser(server, 'reader@example.org', 'pw', []);
  reader = { authorization: basic('reader@example.org', 'pw') };
  const book = (await server.json<{ content: { id: string; seriesId: string }[] }>('/api/v1/books')).content[0]!;
  bookId = book.id;
  seriesId = book.seriesId;

  const secret = join(server.dir, 'secret.txt');
  await writeFile(secret, SECRET);
  for (const name of ['cover.jpg', 'Book 01.jpg']) {
    await rm(join(root, 'Series', name));
    await symlink(secret, join(root, 'Series', name));
  }
}, 60_000);

afterAll(async () => {
  await server.close();
});

describe('local artwork swapped for a link out of the library after its scan', () => {
  it('is never served, by any poster route', async () => {
    for (const [kind, id] of [['series', seriesId], ['books', bookId]] as const) {
      const posters = await server.json<Poster[]>(`/api/v1/${kind}/${id}/thumbnails`, reader);
      const sidecar = posters.find((p) => p.type === 'SIDECAR');
      expect(sidecar?.selected, kind).toBe(true);

      const own = await server.get(`/api/v1/${kind}/${id}/thumbnails/${sidecar!.id}`, reader);
      expect(own.statusCode, kind).toBe(404);
      expect(own.body, kind).not.toContain(SECRET);

      // The poster falls back to one drawn from the book, as for a missing file.
      const poster = await server.get(`/api/v1/${kind}/${id}/thumbnail`, reader);
      expect(poster.body, kind).not.toContain(SECRET);
      expect(poster.statusCode, kind).toBe(200);
      expect(poster.headers['content-type'], kind).toBe('image/jpeg');
    }
  });
});

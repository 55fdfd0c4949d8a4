import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { logFilePath } from '../../../server/logging.ts';
import { GREEN, RED, createCbz } from '../../fixtures/index.ts';
import { writePdf } from '../../fixtures/pdf.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Page thumbnails and drawn PDF pages are kept under <data dir>/cache once drawn. A cache that
 * cannot be written (a full disk, a read-only data folder; here a file where a book's cache folder
 * should be) must not cost the reader the image already drawn: it is served, and the failure logged.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a cache folder that cannot be written', () => {
  it('still serves page thumbnails and drawn PDF pages, and says why they were not kept', async () => {
    server = await startServer({ logLevel: 'warn', logStdout: false });
    const root = join(server.dir, 'library');
    await createCbz(join(root, 'Comics', 'Comic.cbz'), [{ width: 60, height: 90, color: RED, format: 'png' }]);
    await writePdf(join(root, 'Pdfs', 'Paper.pdf'), [{ width: 200, height: 300, color: GREEN }]);
    await addLibrary(server, root);
    const books = new Map((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b]));
    const comic = books.get('Comic')!;
    const paper = books.get('Paper')!;
    for (const [kind, book] of [['page-thumbnails', comic], ['rendered-pages', paper]] as const) {
      // Drawn during the scan already (the poster): what was kept goes, a file takes its place.
      await rm(join(server.dataDir, 'cache', kind, book.id), { recursive: true, force: true });
      await mkdir(join(server.dataDir, 'cache', kind), { recursive: true });
      await writeFile(join(server.dataDir, 'cache', kind, book.id), 'not a folder');
    }

    const thumbnail = await server.get(`/api/v1/books/${comic.id}/pages/1/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    const drawn = await server.get(`/api/v1/books/${paper.id}/pages/1?width=100`);
    expect(drawn.statusCode).toBe(200);
    expect(Number(drawn.headers['content-length'])).toBe(drawn.rawPayload.length);

    await server.app.close();
    const log = await readFile(logFilePath(server.dataDir), 'utf8');
    expect(log.match(/drawn image not cached/g)?.length).toBeGreaterThanOrEqual(2);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { pdfWorker } from '../../../server/media/pdf-renderer.ts';
import { GREEN, renderPage } from '../../fixtures/index.ts';
import { nestedFormsPdfBytes, pdfBytes } from '../../fixtures/pdf.ts';
import { pollUntil } from '../../support/poll.ts';
import { rawZip } from '../../fixtures/raw-zip.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A book file written over in place (same path and inode, new bytes) while one of its pages is
 * being sent. The page is read through the descriptor opened on the file, which now reads the new
 * bytes: the response had the old page's first megabytes and the new page's rest, a 200 that looked
 * complete. Now it either completes with the old bytes or is cut, and the next request gets the
 * new page whole.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Larger than the 32 MiB read whole and than loopback socket buffers: streamed, still being read when the file changes. */
const PAGE_BYTES = 40 * 1024 * 1024;

/** A stored zip whose one page is a PNG followed by `noise`: same layout, same size for the same noise length. */
function book(png: Buffer, noise: Buffer): Buffer {
  return rawZip([{ name: Buffer.from('01.png'), data: Buffer.concat([png, noise]) }]);
}

interface Outcome {
  status: number;
  /** The body ended as announced (not cut). */
  complete: boolean;
  body: Buffer;
}

/** GET `path`: after the first body bytes the client stops reading, `meanwhile` runs, then it reads on. */
function getWhile(port: number, path: string, authorization: string, meanwhile?: () => Promise<void>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { authorization } }, (res) => {
      const chunks: Buffer[] = [];
      let paused = false;
      const finish = (complete: boolean) => resolve({ status: res.statusCode ?? 0, complete, body: Buffer.concat(chunks) });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (meanwhile && !paused) {
          paused = true;
          res.pause();
          meanwhile().then(() => res.resume(), reject);
        }
      });
      res.on('end', () => finish(res.complete));
      res.on('error', () => finish(false));
      res.on('aborted', () => finish(false));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a book written over in place while a page is sent', () => {
  it('sends the old page whole or cuts the response, never a mix; the next request gets the new page', async () => {
    server = await startServer();
    const root = join(server.dir, 'library');
    const path = join(root, 'S', 'big.cbz');
    const png = await renderPage({ width: 30, height: 40, color: [9, 9, 9], format: 'png' });
    const oldPage = Buffer.concat([png, randomBytes(PAGE_BYTES)]);
    const newNoise = randomBytes(PAGE_BYTES);
    const newPage = Buffer.concat([png, newNoise]);
    await mkdir(join(root, 'S'), { recursive: true });
    await writeFile(path, book(png, oldPage.subarray(png.length)));
    await addLibrary(server, root);
    const id = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content[0]!.id;
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const url = `/api/v1/books/${id}/pages/1`;

    // Written over without truncating (r+): the file never looks short, its page bytes just change.
    const overwrite = async () => {
      const file = await open(path, 'r+');
      try {
        await file.write(book(png, newNoise), 0, undefined, 0);
      } finally {
        await file.close();
      }
    };
    const during = await getWhile(port, url, server.admin.authorization!, overwrite);
    expect(during.status).toBe(200);
    // Before: complete, 40 MiB, neither page (the old one's start, the new one's rest).
    if (during.complete) expect(during.body.equals(oldPage)).toBe(true);
    else expect(oldPage.subarray(0, during.body.length).equals(during.body)).toBe(true);

    const after = await getWhile(port, url, server.admin.authorization!);
    expect(after).toMatchObject({ status: 200, complete: true });
    expect(after.body.equals(newPage)).toBe(true);
  }, 120_000);

  it('drops a PDF page drawn while the file changed (503, not sent nor cached); the next request draws the new file', async () => {
    server = await startServer();
    const root = join(server.dir, 'library');
    const path = join(root, 'P', 'book.pdf');
    await mkdir(join(root, 'P'), { recursive: true });
    // Page 4 takes mupdf a second or two (2^15 fills); the analysis draws only the pages around it.
    await writeFile(path, nestedFormsPdfBytes(15, { blankPagesAround: 3 }));
    await addLibrary(server, root);
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    expect(book!.media).toMatchObject({ status: 'READY', pagesCount: 7 });

    const during = server.get(`/api/v1/books/${book!.id}/pages/4`);
    await pollUntil('page 4 being drawn', () => pdfWorker.inFlight());
    // cp over it: truncated and written again, same inode.
    await writeFile(path, pdfBytes(Array.from({ length: 7 }, () => ({ width: 100, height: 100, color: GREEN }))));
    const response = await during;
    // Before: 200, drawn from whatever mupdf read of the old and the new bytes, and cached.
    expect(response.statusCode).toBe(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    const next = await server.get(`/api/v1/books/${book!.id}/pages/4`);
    expect(next.statusCode).toBe(200);
    expect(next.headers['content-type']).toBe('image/jpeg');
  }, 120_000);
});

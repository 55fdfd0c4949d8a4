import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import type { ArchivePoolOptions } from '../../../server/media/archive-pool.ts';
import { logFilePath } from '../../../server/logging.ts';
import { renderPage } from '../../fixtures/index.ts';
import { createTextEpub } from '../../fixtures/epub.ts';
import { type RawZipEntry, rawZip } from '../../fixtures/raw-zip.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A zip entry's header declares its uncompressed size, and analysis records it as the page's size;
 * a hostile or broken archive can declare anything. What goes out must never carry a length that
 * is not the one sent: a damaged entry is answered 422 before any byte when that can be told in
 * time, and otherwise goes out chunked and is cut (the client sees it incomplete), logged with
 * the entry's name.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Received {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
  /** The response ended before it was complete (cut by the server). */
  cut: boolean;
}

function fetchRaw(port: number, path: string, headers: Record<string, string>): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path, headers: { ...headers, connection: 'close' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks), cut: !res.complete }));
      // A cut response also reports an error; `cut` says it.
      res.on('error', () => undefined);
    });
    req.once('error', reject);
    req.end();
  });
}

/** A PNG followed by `extra` random bytes (image readers ignore what follows its end). */
async function pageOf(extra: number): Promise<Buffer> {
  const png = await renderPage({ width: 30, height: 40, color: [200, 20, 20], format: 'png' });
  return Buffer.concat([png, randomBytes(extra)]);
}

async function serveBook(entries: RawZipEntry[], archivePool?: ArchivePoolOptions) {
  server = await startServer({ logLevel: 'warn', logStdout: false, archivePool });
  const root = join(server.dir, 'library');
  await mkdir(join(root, 'S'), { recursive: true });
  // A healthy last page keeps the book READY when analysis finds the lying one unreadable.
  const healthy = await renderPage({ width: 30, height: 40, color: [20, 20, 200], format: 'png' });
  await writeFile(join(root, 'S', 'lies.cbz'), rawZip([...entries, { name: Buffer.from('99.png'), data: healthy }]));
  await addLibrary(server, root);
  const book = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content[0]!;
  expect(book.media.status).toBe('READY');
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  return { id: book.id, get: (path: string) => fetchRaw(port, path, server!.admin) };
}

/** No Content-Length that differs from what came, and a failure is either an error status or a cut. */
function expectHonest(received: Received): void {
  const declared = received.headers['content-length'];
  if (declared !== undefined && !received.cut) expect(received.bytes.length).toBe(Number(declared));
  if (declared !== undefined && received.cut) expect.fail(`cut after ${received.bytes.length} of a declared ${declared} bytes`);
}

/** Every page request streams its entry (no bytes budget for whole reads). */
const STREAMED: ArchivePoolOptions = { wholeReadBytes: 0 };

describe('zip entries whose header lies about their size', () => {
  it('a small deflated page declaring more than it holds is a 422 before any byte, streamed or read whole', async () => {
    const data = await pageOf(2_000);
    for (const pool of [STREAMED, undefined]) {
      const { id, get } = await serveBook([{ name: Buffer.from('01.png'), data, deflate: true, declaredSize: data.length + 500 }], pool);
      for (const path of [`/api/v1/books/${id}/pages/1`, `/api/v1/books/${id}/pages/1/raw`]) {
        const received = await get(path);
        expect(received.status, path).toBe(422);
        expect(received.bytes.toString()).toContain('ERR_1007');
      }
      await server!.close();
      server = undefined;
    }
  });

  it('a small deflated page declaring less than it holds is a 422 before any byte', async () => {
    const data = await pageOf(2_000);
    const { id, get } = await serveBook([{ name: Buffer.from('01.png'), data, deflate: true, declaredSize: data.length - 500 }], STREAMED);
    const received = await get(`/api/v1/books/${id}/pages/1`);
    expect(received.status).toBe(422);
  });

  it('a large deflated page that lies goes out without a length and is cut, and the cut is logged with its entry', async () => {
    const data = await pageOf(400_000);
    for (const declaredSize of [data.length + 5_000, data.length - 5_000]) {
      const { id, get } = await serveBook([{ name: Buffer.from('01.png'), data, deflate: true, declaredSize }], STREAMED);
      const received = await get(`/api/v1/books/${id}/pages/1`);
      expectHonest(received);
      expect(received.status).toBe(200);
      expect(received.cut).toBe(true);
      await server!.app.close();
      const log = await readFile(logFilePath(server!.dataDir), 'utf8');
      expect(log).toContain('01.png');
      await server!.close();
      server = undefined;
    }
  });

  it('a page whose header tells the truth still goes out with its length', async () => {
    const data = await pageOf(400_000);
    const { id, get } = await serveBook([{ name: Buffer.from('01.png'), data, deflate: true }], STREAMED);
    const received = await get(`/api/v1/books/${id}/pages/1`);
    expect(received.status).toBe(200);
    expect(received.cut).toBe(false);
    expect(received.bytes.equals(data)).toBe(true);
    const small = await pageOf(100);
    const second = await serveBook([{ name: Buffer.from('01.png'), data: small, deflate: true }], STREAMED);
    const smallReceived = await second.get(`/api/v1/books/${second.id}/pages/1`);
    expect(smallReceived.headers['content-length']).toBe(String(small.length));
    expect(smallReceived.bytes.equals(small)).toBe(true);
  });

  it('an EPUB resource that lies about its size is a 422 before any byte', async () => {
    server = await startServer({ logLevel: 'warn', logStdout: false });
    const root = join(server.dir, 'library');
    const { path } = await createTextEpub(join(root, 'S', 'novel.epub'), [3_000, 3_000]);
    // Chapter 2 declares 300 bytes more than it inflates to, in both of its headers.
    const bytes = await readFile(path);
    const name = Buffer.from('OEBPS/text/ch2.xhtml');
    for (let at = bytes.indexOf(name); at >= 0; at = bytes.indexOf(name, at + 1)) {
      const central = bytes.readUInt32LE(at - 46) === 0x02014b50;
      const sizeAt = central ? at - 46 + 24 : at - 30 + 22;
      bytes.writeUInt32LE(bytes.readUInt32LE(sizeAt) + 300, sizeAt);
    }
    await writeFile(path, bytes);
    await addLibrary(server, root);
    const book = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content[0]!;
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const received = await fetchRaw(port, `/api/v1/books/${book.id}/resource/OEBPS/text/ch2.xhtml`, server.admin);
    expectHonest(received);
    expect(received.status).toBe(422);
    const healthy = await fetchRaw(port, `/api/v1/books/${book.id}/resource/OEBPS/text/ch1.xhtml`, server.admin);
    expect(healthy.status).toBe(200);
    expect(healthy.headers['content-length']).toBe(String(healthy.bytes.length));
  });
});

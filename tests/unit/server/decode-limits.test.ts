import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DECODE_INPUT_BYTES } from '../../../server/media/image-decode.ts';
import { renderPage } from '../../fixtures/index.ts';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from './support/spawned-server.ts';

/*
 * A 1 MB archive whose first page is a real JPEG followed by 1 GiB of zeros (deflated: the file on
 * disk stays small). Drawing its poster, its page thumbnail and four parallel PNG conversions must
 * neither decode it whole nor read it into memory: the server refuses them with a clear error and
 * its resident memory stays within the documented bound (server/media/image-decode.ts).
 */

const GIB = 1024 ** 3;
/** Resident memory the server may reach in this test: its baseline plus far less than the page. */
const RSS_BOUND = 400 * 1024 * 1024;

let dir: string;
let server: SpawnedServer;
let cookie: string;
let bookId: string;

function zeros(total: number): Readable {
  const block = Buffer.alloc(1024 * 1024);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const size = Math.min(block.length, total - sent);
      sent += size;
      this.push(size === block.length ? block : block.subarray(0, size));
    },
  });
}

async function writeBomb(file: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  const jpeg = await renderPage({ width: 2000, height: 3000, color: [10, 200, 10], format: 'jpeg' });
  const zip = new yazl.ZipFile();
  const page1 = Readable.from((async function* () {
    yield jpeg;
    yield* zeros(GIB);
  })());
  zip.addReadStream(page1, '001.jpg', { compressionLevel: 1 });
  zip.addBuffer(await renderPage({ width: 30, height: 40, color: [200, 10, 10], format: 'jpeg' }), '002.jpg', { compress: false });
  zip.end();
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file);
    out.on('close', () => resolve());
    out.on('error', reject);
    zip.outputStream.pipe(out);
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-bomb-'));
  const file = join(dir, 'library', 'Bomb', 'Bomb 01.cbz');
  await writeBomb(file);
  expect((await stat(file)).size).toBeLessThan(16 * 1024 * 1024);
  server = await spawnServer(join(dir, 'data'));
  cookie = await claimSession(server.url);
  await addLibraryAndWait(server.url, cookie, join(dir, 'library'), 1);
  const books = await apiCall<{ content: { id: string; media: { status: string; pagesCount: number } }[] }>(server.url, cookie, '/api/v1/books');
  expect(books.content[0]!.media).toMatchObject({ status: 'READY', pagesCount: 2 });
  bookId = books.content[0]!.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('decode limits', () => {
  it('refuses to decode a page over the limits (poster, thumbnail, conversions) within bounded memory', async () => {
    const get = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie } });
    // The poster: not drawn from that page (no poster rather than gigabytes).
    const poster = await get(`/api/v1/books/${bookId}/thumbnail`);
    expect([404, 200]).toContain(poster.status);
    await poster.arrayBuffer();
    // The page thumbnail (no streaming role needed): a clear refusal with the error code.
    const thumbnail = await get(`/api/v1/books/${bookId}/pages/1/thumbnail`);
    expect(thumbnail.status).toBe(422);
    expect((await thumbnail.json()).message).toMatch(/ERR_1007.*decode limit/);
    // Four conversions at once: all refused the same way.
    const conversions = await Promise.all(Array.from({ length: 4 }, () => get(`/api/v1/books/${bookId}/pages/1?convert=png`)));
    for (const response of conversions) {
      expect(response.status).toBe(422);
      expect((await response.json()).message).toContain(String(MAX_DECODE_INPUT_BYTES));
    }
    // A page within the limits still converts.
    const small = await get(`/api/v1/books/${bookId}/pages/2?convert=png`);
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toBe('image/png');
    await small.arrayBuffer();
    expect(server.exited()).toBeNull();
    expect((await server.memory()).peak).toBeLessThan(RSS_BOUND);
  }, 60_000);
});

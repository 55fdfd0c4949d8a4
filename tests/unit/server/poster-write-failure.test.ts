import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { writeStoredCbz } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from './support/spawned-server.ts';

/*
 * A book poster redrawn when the disk cannot take it (full, or a file size limit): the write fails
 * part way. The poster served until then must still be served whole, not a file cut where the
 * write stopped (kept in memory, the cut file would show after a restart). Here the server process gets a file size limit (RLIMIT_FSIZE, set with prlimit on
 * the running process) that the redrawn poster is over and the database is under.
 */

let dir: string;
let server: SpawnedServer | undefined;
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A page of noise, 1,200 px square: its poster at 1,200 px (about 950 KB) has little to compress. */
async function noisyPage(): Promise<Buffer> {
  const side = 1200;
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
}

describe('a book poster redrawn on a disk that cannot take it', () => {
  it('keeps serving the previous poster whole', { timeout: 120_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-poster-write-'));
    await mkdir(join(dir, 'library', 'S'), { recursive: true });
    await writeStoredCbz(join(dir, 'library', 'S', 'Noise.cbz'), [await noisyPage()]);
    server = await spawnServer(join(dir, 'data'));
    const cookie = await claimSession(server.url);
    await addLibraryAndWait(server.url, cookie, join(dir, 'library'), 1);
    const [book] = (await apiCall<{ content: { id: string }[] }>(server.url, cookie, '/api/v1/books')).content;
    const poster = async () => {
      const response = await fetch(`${server!.url}/api/v1/books/${book!.id}/thumbnail`, { headers: { cookie } });
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const before = await poster();
    expect((await sharp(before).metadata()).width).toBe(300);

    // The poster redrawn at 1,200 px is over the limit; the database and the log stay under it.
    const limit = 800 * 1024;
    const dataFiles = ['folio.sqlite', 'folio.sqlite-wal', join('logs', 'folio.log')];
    for (const file of dataFiles) {
      const size = await stat(join(dir, 'data', file)).then((s) => s.size, () => 0);
      expect(size, file).toBeGreaterThan(0);
      expect(size, file).toBeLessThan(limit - 64 * 1024);
    }
    await apiCall(server.url, cookie, '/api/v1/settings', { method: 'PATCH', body: JSON.stringify({ thumbnailSize: 'XLARGE' }) });
    execFileSync('prlimit', ['--pid', String(server.pid), `--fsize=${limit}:${limit}`]);
    await apiCall(server.url, cookie, '/api/v1/books/thumbnails', { method: 'PUT' });
    await pollUntil('the redraw to fail', async () => /EFBIG/.test(await readFile(join(dir, 'data', 'logs', 'folio.log'), 'utf8')), { timeoutMs: 60_000 });

    // What the server keeps in memory and what a restart would read from the disk.
    expect((await poster()).equals(before)).toBe(true);
    expect((await readFile(join(dir, 'data', 'thumbnails', 'books', `${book!.id}.jpg`))).equals(before)).toBe(true);
  });
});

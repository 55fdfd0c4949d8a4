import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page, SeriesDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic } from './helpers.ts';
import { hasPrlimit } from './support/process-files.ts';


const FILE_SIZE_LIMIT = 4 * 1024 * 1024;

let dir: string;
let child: ChildProcess | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('a write that fails half-way', () => {
  // Node ignores SIGXFSZ: past the limit a write fails with EFBIG after writing what fitted, as
  // on a disk that fills up during the write.
  it.runIf(hasPrlimit)('leaves no partial poster in the data directory and answers an error', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-disk-'));
    const dataDir = join(dir, 'data');
    const sample = await createSampleLibrary(join(dir, 'library'));
    child = spawn('prlimit', [`--fsize=${FILE_SIZE_LIMIT}`, '--', process.execPath, resolve('server/main.ts'), '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--client-dir', dir, '--log-level', 'warn'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = child;
    const url = await new Promise<string>((resolveUrl, reject) => {
      let output = '';
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Folio listening on (http:\/\/\S+)/.exec(output);
        if (match) resolveUrl(match[1]!);
      });
      started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      started.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    const auth = { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD) };
    expect((await fetch(`${url}/api/v1/claim`, { method: 'POST', headers: { 'x-komga-email': ADMIN_EMAIL, 'x-komga-password': ADMIN_PASSWORD } })).status).toBe(200);
    const created = await fetch(`${url}/api/v1/libraries`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Comics', root: sample.root }) });
    expect(created.status).toBe(200);
    let series: SeriesDto | undefined;
    for (const deadline = Date.now() + 30_000; !series; ) {
      expect(Date.now()).toBeLessThan(deadline);
      series = ((await (await fetch(`${url}/api/v1/series`, { headers: auth })).json()) as Page<SeriesDto>).content.find((s) => s.name === 'Alpha');
    }

    // Noise does not compress: a PNG over the limit, under the upload limit.
    const poster = await sharp(randomBytes(1400 * 1400 * 3), { raw: { width: 1400, height: 1400, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(poster.length).toBeGreaterThan(FILE_SIZE_LIMIT);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(poster)], { type: 'image/png' }), 'poster.png');
    const upload = await fetch(`${url}/api/v1/series/${series.id}/thumbnails`, { method: 'POST', headers: { ...auth, 'x-requested-with': 'XMLHttpRequest' }, body: form });
    expect(upload.status).toBeGreaterThanOrEqual(500);
    const thumbnails = ((await fetch(`${url}/api/v1/series/${series.id}/thumbnails`, { headers: auth }).then((r) => r.json())) as { type: string }[]).filter((t) => t.type === 'USER_UPLOADED');
    expect(thumbnails).toEqual([]);
    const files = await readdir(join(dataDir, 'thumbnails', 'series')).catch(() => [] as string[]);
    expect(files).toEqual([]);
  }, 120_000);
});

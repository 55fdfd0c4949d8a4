/**
 * Peak memory of a burst of page-thumbnail requests of large pages (the decode queue's input bytes,
 * image-decode.ts): a server per checkout (this one, and BENCH_BASELINE_REPO if set) on the same
 * generated library, each burst of BENCH_CLIENTS requests at once, every one for a different page.
 * Prints each server's VmHWM (peak RSS) before and after the burst and the answers' statuses.
 * Usage: node bench/decode-queue-rss.ts <port> [baseline port]; BENCH_BOOKS (4), BENCH_PAGES (48).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { writeStoredCbz } from '../tests/fixtures/comics.ts';
import { claimWithLibrary } from './support/claimed-server.ts';

const BOOKS = Number(process.env.BENCH_BOOKS ?? 4);
const PAGES = Number(process.env.BENCH_PAGES ?? 48);
const here = process.cwd();
const checkouts = [here, process.env.BENCH_BASELINE_REPO].filter((repo): repo is string => !!repo);
const ports = process.argv.slice(2).map(Number);

async function vm(pid: number): Promise<{ hwm: number; rss: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) / 1024;
  return { hwm: Math.round(kb('VmHWM')), rss: Math.round(kb('VmRSS')) };
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 600_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

const dir = await mkdtemp(join(tmpdir(), 'decode-queue-rss-'));
// Eight distinct scans of 2,480 × 3,508 (A4 at 300 dpi) with grain: ~4-5 MB each as JPEG q92.
const scans: Buffer[] = [];
for (let i = 0; i < 8; i++) {
  scans.push(await sharp({ create: { width: 2480, height: 3508, channels: 3, background: { r: 200, g: 190, b: 170 }, noise: { type: 'gaussian', mean: 180, sigma: 50 + i } } }).jpeg({ quality: 92 }).toBuffer());
}
console.log(`page sizes: ${scans.map((scan) => (scan.length / 1e6).toFixed(1)).join(', ')} MB`);
const root = join(dir, 'library');
for (let b = 0; b < BOOKS; b++) await writeStoredCbz(join(root, `Series ${b}`, `book ${b}.cbz`), Array.from({ length: PAGES }, (_, p) => scans[(p + b) % scans.length]!));

for (const [i, repo] of checkouts.entries()) {
  const port = ports[i]!;
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['server/main.ts', '--port', String(port), '--host', '127.0.0.1', '--data-dir', join(dir, `data-${i}`), '--log-level', 'warn'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await until('server up', async () => (await fetch(`${url}/api/v1/claim`).catch(() => null)) !== null);
    const { call } = await claimWithLibrary(url, root);
    await until('books analysed', async () => {
      const books = (await (await call('/api/v1/books?size=1000')).json()) as { content: { id: string; media: { status: string } }[] };
      return books.content.length === BOOKS && books.content.every((book) => book.media.status === 'READY');
    });
    await until('background work done', async () => {
      const tasks = (await (await call('/api/v1/tasks').catch(() => null))?.json().catch(() => null)) as { count?: number } | null;
      return !tasks || !tasks.count;
    });
    const books = ((await (await call('/api/v1/books?size=1000')).json()) as { content: { id: string }[] }).content;
    const before = await vm(server.pid!);
    const started = Date.now();
    const statuses = await Promise.all(
      books.flatMap((book) => Array.from({ length: PAGES }, (_, p) => fetch(`${url}/api/v1/books/${book.id}/pages/${p + 1}/thumbnail`, { headers: { Authorization: `Basic ${Buffer.from('bench@example.org:bench-password').toString('base64')}` } }).then(async (response) => (await response.arrayBuffer(), response.status)))),
    );
    const after = await vm(server.pid!);
    const counts: Record<number, number> = {};
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
    console.log(`${repo}: ${statuses.length} thumbnails at once in ${((Date.now() - started) / 1000).toFixed(1)} s, statuses ${JSON.stringify(counts)}; VmHWM before ${before.hwm} MiB, after ${after.hwm} MiB (RSS after ${after.rss} MiB); loadavg ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  } finally {
    server.kill('SIGTERM');
  }
}

/**
 * How long the slowest cheap request (GET /api/v1/libraries, from another process) waits while the
 * server hashes a 1 GB file (BookDto.fileHash, MD5), with the hash on the main thread as it was
 * (1 MiB reads, hash.update between them: `main`) and in the hash worker (`worker`,
 * server/media/file-hasher.ts), alternating in one run; plus windows with no hashing (`idle`) of
 * the same length. Usage: node bench/file-hash-blocking.ts [rounds=3] [megabytes=1024]
 */
import { createHash } from 'node:crypto';
import { fork } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/http/app.ts';
import { hashFile } from '../server/domain/hashing/file-hash.ts';
import { percentile, round } from './lib/stats.ts';

const rounds = Number(process.argv[2] ?? 3);
const megabytes = Number(process.argv[3] ?? 1024);
const EMAIL = 'bench@example.org';
const PASSWORD = 'bench password 1';

/** The former hashing, exactly as it ran on the main thread. */
async function hashOnMainThread(path: string): Promise<string> {
  const file = await open(path, 'r');
  const hash = createHash('md5');
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  try {
    for (let read = await file.read(buffer, 0, buffer.length, null); read.bytesRead > 0; read = await file.read(buffer, 0, buffer.length, null)) {
      hash.update(buffer.subarray(0, read.bytesRead));
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

const dir = await mkdtemp(join(tmpdir(), 'folio-hash-bench-'));
const app = await buildApp({ dataDir: join(dir, 'data'), clientDir: join(dir, 'no-client'), logLevel: 'error' });
try {
  const claim = await app.inject({ method: 'POST', url: '/api/v1/claim', headers: { 'x-komga-email': EMAIL, 'x-komga-password': PASSWORD } });
  if (claim.statusCode !== 200) throw new Error(`claim failed: ${claim.body}`);
  await app.listen({ port: Number(process.env.FOLIO_PORT ?? 0), host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  const path = join(dir, 'big.bin');
  const file = await open(path, 'w');
  const chunk = Buffer.alloc(16 * 1024 * 1024, 0x5a);
  for (let written = 0; written < megabytes * 1024 * 1024; written += chunk.length) await file.write(chunk);
  await file.close();

  const authorization = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;
  const probe = fork(new URL('./lib/cheap-request-probe.ts', import.meta.url), [`http://127.0.0.1:${port}/api/v1/libraries`, authorization]);
  const figures = (): Promise<{ latencies: number[]; statuses: number[] }> =>
    new Promise((resolve) => {
      probe.once('message', (m) => resolve(m as { latencies: number[]; statuses: number[] }));
      probe.send('stop');
    });
  /** Runs `work` with the probe counting; what the requests waited meanwhile. */
  const during = async (work: () => Promise<unknown>) => {
    probe.send('start');
    const started = performance.now();
    await work();
    const ms = performance.now() - started;
    const { latencies, statuses } = await figures();
    return { ms: round(ms, 0), requests: latencies.length, p50: round(percentile(latencies, 50), 2), p99: round(percentile(latencies, 99), 2), slowest: round(Math.max(...latencies), 2), statuses };
  };

  // Warm: the file in the page cache, the hash worker started, the probe's connection open.
  const expected = await hashOnMainThread(path);
  if ((await hashFile(path)) !== expected) throw new Error('the worker hash differs from the main-thread hash');
  await during(() => hashFile(path));

  console.log(`load before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; file ${megabytes} MiB`);
  for (let round_ = 1; round_ <= rounds; round_++) {
    // Alternating which goes first, so a drift in the machine's load falls on both alike.
    const order: Array<'main' | 'worker'> = round_ % 2 === 1 ? ['main', 'worker'] : ['worker', 'main'];
    for (const variant of order) {
      const result = await during(() => (variant === 'main' ? hashOnMainThread(path) : hashFile(path)));
      console.log(JSON.stringify({ round: round_, variant, ...result }));
      const idleMs = result.ms;
      const idle = await during(() => new Promise((resolve) => setTimeout(resolve, idleMs)));
      console.log(JSON.stringify({ round: round_, variant: 'idle', ...idle }));
    }
  }
  console.log(`load after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const exited = new Promise((resolve) => probe.once('exit', resolve));
  probe.send('exit');
  await exited;
} finally {
  await app.close();
  await rm(dir, { recursive: true, force: true });
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SerialWorker } from '../../../server/media/serial-worker.ts';

/**
 * callEach's calls (the PDF pool's closes, one per book closed and per worker) are housekeeping
 * pinned to a worker: while that worker ran a long page, they piled up behind it and counted
 * against maxWaiting, so the pool refused the next page or analysis as busy (ServerBusy, a 503)
 * with nothing else waiting. The archive fuzz met it on a loaded machine (FUZZ_SEED 1003 and 1009:
 * a PDF's analysis failed with "too many PDF pages are being drawn at once").
 */
type Request = { id: number; op: string };

let dir: string;
let pool: SerialWorker<Request, string>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-serial-worker-'));
  const script = join(dir, 'echo-worker.mjs');
  // Answers each call with its op, in a later turn of the worker's loop.
  await writeFile(script, `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (m) => setImmediate(() => parentPort.postMessage({ id: m.id, result: m.op })));\n`);
  pool = new SerialWorker<Request, string>({
    script: pathToFileURL(script),
    name: 'echo',
    timeLimitMs: 30_000,
    maxWaiting: 2,
    busy: 'too many echoes at once',
    describe: (request) => `echo ${request.op}`,
  });
});
afterAll(async () => {
  await pool.stop();
  await rm(dir, { recursive: true, force: true });
});

it('pinned housekeeping waiting behind a call does not make the pool busy for the next call', async () => {
  // Starts the worker: callEach goes only to workers that exist.
  await expect(pool.call({ op: 'start' })).resolves.toBe('start');
  const running = pool.call({ op: 'long page' });
  expect(pool.inFlight()).toBe(true);
  // Five books closed while the worker draws: five closes wait behind the page, over maxWaiting.
  const closes = Array.from({ length: 5 }, () => pool.callEach({ op: 'close' }));
  const next = pool.call({ op: 'next page' });
  await expect(next).resolves.toBe('next page');
  await expect(running).resolves.toBe('long page');
  expect(await Promise.all(closes)).toEqual(Array.from({ length: 5 }, () => ['close']));
  // Calls themselves are still bounded: two wait, the third is refused.
  const first = pool.call({ op: 'a' });
  const waiting = [pool.call({ op: 'b' }), pool.call({ op: 'c' })];
  await expect(pool.call({ op: 'd' })).rejects.toMatchObject({ name: 'ServerBusy' });
  await expect(Promise.all([first, ...waiting])).resolves.toEqual(['a', 'b', 'c']);
});

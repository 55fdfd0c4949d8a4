/**
 * Measures what unrar costs in its worker (wasm), the constants of rar-reader.ts
 * walksAreCheaper: its time per header step when a read walks the headers before its member, the
 * wall time of one call, the time per byte unpacked, and what reading a 64 KiB prefix of a 64 MiB
 * member unpacks. Stored members only: we have no tool to write compressed RARs here
 * (tests/fixtures/rar.ts stores), and compressed data costs more per byte.
 * Usage: node bench/rar-costs.ts
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeChecked } from '../server/media/checked-file.ts';
import { RarClient } from '../server/media/rar-client.ts';
import { writeRar5 } from '../tests/fixtures/rar.ts';

const RUNS = 7;
const MEMBERS = 1_500;
const BIG = 64 * 1024 * 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dir = await mkdtemp(join(tmpdir(), 'folio-rar-costs-'));
const client = new RarClient({ timeLimitMs: 600_000 });
try {
  const many = await writeRar5(
    join(dir, 'many.cbr'),
    Array.from({ length: MEMBERS }, (_, i) => ({ name: `${String(i).padStart(4, '0')}.png`, data: Buffer.alloc(65 * 1024, i) })),
  );
  const big = await writeRar5(join(dir, 'big.cbr'), [{ name: 'big.png', data: Buffer.alloc(BIG, 7) }]);
  const manyFile = (await describeChecked(await open(many, 'r'), many)).checked;
  const bigFile = (await describeChecked(await open(big, 'r'), big)).checked;
  const work = async (request: Parameters<RarClient['call']>[0]) => {
    const started = performance.now();
    const result = await client.call(request);
    return { wallMs: performance.now() - started, workMs: 'workMs' in result ? result.workMs : 0, unpacked: 'unpacked' in result ? result.unpacked : 0 };
  };
  const first: number[] = [];
  const firstWall: number[] = [];
  const last: number[] = [];
  const whole: number[] = [];
  const prefix: number[] = [];
  let prefixUnpacked = 0;
  await work({ op: 'extract', file: manyFile, name: '0000.png', limit: 1, expected: 1 }); // warm the worker
  for (let run = 0; run < RUNS; run++) {
    const a = await work({ op: 'extract', file: manyFile, name: '0000.png', limit: 1, expected: 1 });
    first.push(a.workMs);
    firstWall.push(a.wallMs);
    last.push((await work({ op: 'extract', file: manyFile, name: `${MEMBERS - 1}.png`.padStart(8, '0'), limit: 1, expected: 1 })).workMs);
    whole.push((await work({ op: 'prefixes', file: bigFile, names: ['big.png'], prefixBytes: 64 * 1024, maxBytes: 64 * 1024, maxMs: 600_000 })).workMs);
    const p = await work({ op: 'extract', file: bigFile, name: 'big.png', limit: 64 * 1024, expected: 64 * 1024 });
    prefix.push(p.workMs);
    prefixUnpacked = p.unpacked;
  }
  const stepUs = ((median(last) - median(first)) / (MEMBERS - 1)) * 1000;
  console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; medians of ${RUNS}`);
  console.log(`header step: ${stepUs.toFixed(2)} µs (first member ${median(first).toFixed(2)} ms, member ${MEMBERS} ${median(last).toFixed(1)} ms of unrar's time)`);
  console.log(`one call: ${median(firstWall).toFixed(2)} ms wall for the first member's first byte`);
  console.log(`unpacking stored data: ${((median(whole) * 1e6) / BIG).toFixed(2)} ns/byte (${BIG / 1024 / 1024} MiB member whole in ${median(whole).toFixed(1)} ms)`);
  console.log(`64 KiB prefix of that member: ${median(prefix).toFixed(2)} ms, ${prefixUnpacked} bytes unpacked`);
} finally {
  await client.stop();
  await rm(dir, { recursive: true, force: true });
}

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';

/**
 * Mutation fuzzing helpers: a seed file the tests generate is damaged by a list of edits that
 * fast-check draws (and shrinks on failure): byte overwrites, truncation, inserted and removed runs,
 * 32-bit fields set to extreme values (sizes and offsets are where readers go wrong), and the
 * fields of headers found by their signatures set so (see MARKERS).
 */
export type Mutation =
  | { kind: 'set'; at: number; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'remove'; at: number; length: number }
  | { kind: 'u32'; at: number; value: number }
  | { kind: 'field'; marker: number; offset: number; width: 2 | 4 | 8; value: bigint };

/** How many cases each fuzz target runs: a few seconds' worth in `npm test`, more under `npm run fuzz`. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 25);

/**
 * The seed of every fuzz target in this run: a new one each run unless FUZZ_SEED is set, so CI
 * keeps exploring. A failure prints it (fast-check's `{ seed, path }`), and FUZZ_SEED=<seed>
 * replays the run; the path given as well goes straight to the shrunk case.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

/**
 * A fuzz test's time-out: a base, plus `perCaseMs` for each of its cases, so that `npm run fuzz`
 * (FUZZ_RUNS=2000) or a loaded machine does not hit vitest's 30 s default mid-run (the parsers'
 * 2,400 cases at FUZZ_RUNS=600 took 38 s at load 20 and failed as a time-out, not a finding).
 */
export function fuzzTimeoutMs(share = 1, perCaseMs = 100): number {
  return 60_000 + fuzzOptions(share).numRuns * perCaseMs;
}

/** fast-check's options for a target given `share` of FUZZ_RUNS (at least one case). */
export function fuzzOptions(share = 1): { numRuns: number; seed: number; path?: string } {
  const path = process.env.FUZZ_PATH;
  return { numRuns: Math.max(1, Math.round(FUZZ_RUNS * share)), seed: FUZZ_SEED, ...(path ? { path } : {}) };
}

const position = fc.double({ min: 0, max: 1, noNaN: true });

/**
 * Where a format's headers start, found by their signatures: zip's local, central, end, zip64 end
 * and locator records and data descriptors, RAR's and 7z's signatures. A 'field' mutation writes
 * an extreme value at a header-relative offset of one of them, the sizes, counts, offsets and
 * lengths a random position seldom lands on (one byte in thousands of a page's).
 */
const MARKERS = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x01, 0x02],
  [0x50, 0x4b, 0x05, 0x06],
  [0x50, 0x4b, 0x06, 0x06],
  [0x50, 0x4b, 0x06, 0x07],
  [0x50, 0x4b, 0x07, 0x08],
  [0x52, 0x61, 0x72, 0x21],
  [0x37, 0x7a, 0xbc, 0xaf],
].map((bytes) => Buffer.from(bytes));

function markerOffsets(bytes: Buffer): number[] {
  const found: number[] = [];
  for (const marker of MARKERS) for (let at = bytes.indexOf(marker); at >= 0; at = bytes.indexOf(marker, at + 1)) found.push(at);
  return found.sort((a, b) => a - b);
}

const FIELD_VALUES = [0n, 1n, 0xffffn, 0x7fffffffn, 0xffffffffn, 0x7fffffffffffffffn, 0xffffffffffffffffn];

export const mutationsArbitrary: fc.Arbitrary<Mutation[]> = fc.array(
  fc.oneof(
    fc.record({
      kind: fc.constant('field' as const),
      marker: position,
      offset: fc.integer({ min: 4, max: 63 }),
      width: fc.constantFrom(2 as const, 4 as const, 8 as const),
      value: fc.constantFrom(...FIELD_VALUES),
    }),
    fc.record({ kind: fc.constant('set' as const), at: position, value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: position }),
    fc.record({ kind: fc.constant('insert' as const), at: position, bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
    fc.record({ kind: fc.constant('remove' as const), at: position, length: fc.integer({ min: 1, max: 256 }) }),
    fc.record({
      kind: fc.constant('u32' as const),
      at: position,
      value: fc.constantFrom(0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff),
    }),
  ),
  { minLength: 1, maxLength: 8 },
) as fc.Arbitrary<Mutation[]>;

export function mutate(seed: Buffer, mutations: Mutation[]): Buffer {
  let bytes = Buffer.from(seed);
  for (const m of mutations) {
    const at = Math.floor(('at' in m ? m.at : 0) * bytes.length);
    switch (m.kind) {
      case 'set':
        if (at < bytes.length) bytes[at] = m.value;
        break;
      case 'truncate':
        bytes = bytes.subarray(0, at);
        break;
      case 'insert':
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at)]);
        break;
      case 'remove':
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
        break;
      case 'u32':
        if (at + 4 <= bytes.length) bytes.writeUInt32LE(m.value, at);
        break;
      case 'field': {
        const markers = markerOffsets(bytes);
        if (markers.length === 0) break;
        const where = markers[Math.min(markers.length - 1, Math.floor(m.marker * markers.length))]! + m.offset;
        if (where + m.width > bytes.length) break;
        const mask = (1n << BigInt(8 * m.width)) - 1n;
        const value = m.value & mask;
        if (m.width === 2) bytes.writeUInt16LE(Number(value), where);
        else if (m.width === 4) bytes.writeUInt32LE(Number(value), where);
        else bytes.writeBigUInt64LE(value, where);
        break;
      }
    }
  }
  return bytes;
}

/** Runs `work`, failing when it takes longer than `ms` (a hang is a finding too). */
export async function withinTime<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Largest growth of resident memory one fuzz case may cause (analysis + reading its pages). */
export const CASE_MEMORY_BOUND = 256 * 1024 * 1024;

const statusField = (name: string): number => {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
};

/**
 * Runs one case and fails when the process's resident memory peaked more than `bound` above where
 * it stood when the case began. The peak is the kernel's high-water mark (VmHWM), reset before the
 * case through /proc/self/clear_refs, so memory held only while synchronous wasm runs (unrar,
 * 7-Zip, mupdf) is seen too, which sampling from a timer would miss. Linux only: elsewhere the case
 * simply runs.
 */
export async function withinMemory<T>(bound: number, what: string, work: () => Promise<T> | T): Promise<T> {
  if (!existsSync('/proc/self/clear_refs')) return work();
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch (error) {
    // A sandbox that forbids resetting the mark: the case still runs, bounded by the whole-run check.
    if (['EACCES', 'EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '')) return work();
    throw error;
  }
  const start = statusField('VmRSS');
  const result = await work();
  const growth = statusField('VmHWM') - start;
  if (growth > bound) throw new Error(`${what} took ${Math.round(growth / 2 ** 20)} MiB at its peak, over the ${Math.round(bound / 2 ** 20)} MiB bound`);
  return result;
}

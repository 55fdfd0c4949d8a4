import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';

/**
 * Mutation fuzzing helpers: a seed file the tests generate is damaged by a list of edits that
 * fast-check draws (and shrinks on failure): byte overwrites, truncation, inserted and removed runs,
 * and 32-bit fields set to extreme values (sizes and offsets are where readers go wrong).
 */
export type Mutation =
  | { kind: 'set'; at: number; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'remove'; at: number; length: number }
  | { kind: 'u32'; at: number; value: number };

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

export const mutationsArbitrary: fc.Arbitrary<Mutation[]> = fc.array(
  fc.oneof(
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
    const at = Math.floor(m.at * bytes.length);
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

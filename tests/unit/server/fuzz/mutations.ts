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

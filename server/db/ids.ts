import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32

/** The last id given out by this process, as a number. */
let last = 0n;

/**
 * Time-ordered 13-character ids (like Komga's TSIDs): 42 bits of milliseconds then 23 random bits,
 * so ids sort by creation time and stay short in URLs. Many ids share one millisecond — a scan
 * stamps every book it finds with the scan's time — and 23 random bits alone collide often there
 * (about one 2,000-book scan in four, almost every 20,000-book one, failing the whole scan on the
 * table's unique key), so an id never repeats or goes below the process's last one: when it would,
 * it is the last one plus one.
 */
export function newId(now = Date.now()): string {
  const random = randomBytes(3).readUIntBE(0, 3) & 0x7fffff;
  let value = (BigInt(now) << 23n) | BigInt(random);
  if (value <= last) value = last + 1n;
  last = value;
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

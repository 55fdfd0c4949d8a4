import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/db/ids.ts';

describe('newId', () => {
  it('never repeats, even for 100,000 ids stamped with one millisecond (a large scan)', () => {
    const now = Date.now();
    const ids = Array.from({ length: 100_000 }, () => newId(now));
    expect(new Set(ids).size).toBe(ids.length);
    // Still 13 characters of Crockford base32, in the order they were made.
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{13}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it('sorts by the time it is stamped with', () => {
    const earlier = newId(Date.now() + 1_000);
    const later = newId(Date.now() + 60_000);
    expect(later > earlier).toBe(true);
  });
});

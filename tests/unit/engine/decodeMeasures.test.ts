import { afterEach, describe, expect, it } from 'vitest';
import { DECODE_MEASURE, recordDecodeMeasure } from '../../../src/workers/decodeMeasures.ts';

/*
 * Every page decode leaves a User Timing measure; the browser keeps them until cleared, so a long
 * reading session grew one entry per decode for the tab's life. They are now bounded.
 */
afterEach(() => performance.clearMeasures(DECODE_MEASURE));

const detail = (n: number) => ({ url: `/api/v1/books/b/pages/${n}`, size: null, prefetched: false, fetchedAhead: false });

describe('decode measures', () => {
  it('keeps at most the limit, the newest ones, in order', () => {
    for (let n = 1; n <= 25; n++) recordDecodeMeasure(detail(n), performance.now(), 10);
    const kept = performance.getEntriesByName(DECODE_MEASURE, 'measure') as PerformanceMeasure[];
    expect(kept.length).toBeLessThanOrEqual(10);
    expect(kept.length).toBeGreaterThanOrEqual(5);
    const urls = kept.map((entry) => (entry.detail as { url: string }).url);
    expect(urls.at(-1)).toBe('/api/v1/books/b/pages/25');
    const numbers = urls.map((url) => Number(url.split('/').at(-1)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('keeps each measure while under the limit', () => {
    for (let n = 1; n <= 8; n++) recordDecodeMeasure(detail(n), performance.now(), 10);
    expect(performance.getEntriesByName(DECODE_MEASURE, 'measure')).toHaveLength(8);
  });
});

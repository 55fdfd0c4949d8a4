import { expect, it } from 'vitest';
import { ApiError } from '../../../src/api/http.ts';
import { saveRetryDelayMs } from '../../../src/api/save-retry.ts';

it('retries saves the server could not take now, with growing waits, and never a refused one', () => {
  const busy = new ApiError('update_read_progress', 503, 'Not saved: the database is busy');
  expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => saveRetryDelayMs(busy, attempt))).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000]);
  expect(saveRetryDelayMs(busy, 9)).toBeNull();
  expect(saveRetryDelayMs(new ApiError('update_read_progress', undefined, 'Failed to fetch'), 1)).toBe(2000);
  expect(saveRetryDelayMs(new ApiError('update_read_progress', 429, undefined), 1)).toBe(2000);
  for (const status of [400, 401, 403, 404]) expect(saveRetryDelayMs(new ApiError('update_read_progress', status, undefined), 1)).toBeNull();
  expect(saveRetryDelayMs(new Error('not an API error'), 1)).toBeNull();
});

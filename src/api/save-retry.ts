import { ApiError } from './http.ts';

/** Tries, and the longest wait between two, for a save the server could not take now. */
const MAX_ATTEMPTS = 8;
const FIRST_DELAY_MS = 2_000;
const MAX_DELAY_MS = 30_000;

/**
 * When a background save (reading progress) that failed with `error` is worth sending again: when
 * it never reached the server or the server could not take it now (408, 429, 5xx: a 503 from a
 * busy or locked server says so with Retry-After), after 2, 4, 8… up to 30 s, eight times at most.
 * A refusal of the request itself (400, 403, 404) would get the same answer again: null.
 */
export function saveRetryDelayMs(error: unknown, attempt: number): number | null {
  if (!(error instanceof ApiError) || attempt > MAX_ATTEMPTS) return null;
  const status = error.status;
  const retryable = status === undefined || status === 408 || status === 429 || status >= 500;
  return retryable ? Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempt - 1)) : null;
}

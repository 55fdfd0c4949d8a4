import { DecodePool } from '../../workers/DecodePool.ts';
import { PrefetchedBytes } from '../../workers/PrefetchedBytes.ts';

/** The XHR marker keeps an expired session from popping up the browser's Basic-auth dialog. */
const PAGE_REQUEST_HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };

let shared: DecodePool | null = null;

/**
 * One pool for the whole app: starting workers costs more than keeping two or four idle. The page a
 * book opens at is downloaded ahead by one of its workers (fetchAhead), so its bytes go straight to
 * that worker's decoder; on the main thread only while no worker is up yet (a cold load).
 */
export function sharedDecodePool(): DecodePool {
  shared ??= new DecodePool({ headers: PAGE_REQUEST_HEADERS, prefetched: new PrefetchedBytes() });
  return shared;
}

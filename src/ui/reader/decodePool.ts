import { DecodePool } from '../../workers/DecodePool.ts';
import { PAGE_REQUEST_HEADERS, prefetchedPages } from './pagePrefetch.ts';

let shared: DecodePool | null = null;

/** One pool for the whole app: starting workers costs more than keeping two or four idle. */
export function sharedDecodePool(): DecodePool {
  shared ??= new DecodePool({ headers: PAGE_REQUEST_HEADERS, prefetched: prefetchedPages });
  return shared;
}

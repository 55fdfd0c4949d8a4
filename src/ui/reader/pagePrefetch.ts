import { PrefetchedBytes } from '../../workers/PrefetchedBytes.ts';

/**
 * The app's one store of page bytes fetched ahead (see PrefetchedBytes). Kept apart from the decode
 * pool so that opening a book can start the first page's download from the main bundle, before the
 * reader's code and its workers have loaded.
 */
export const prefetchedPages = new PrefetchedBytes();

/** The XHR marker keeps an expired session from popping up the browser's Basic-auth dialog. */
export const PAGE_REQUEST_HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };

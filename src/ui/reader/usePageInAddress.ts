import { useEffect } from 'react';
import { readerSearch, type ReaderQuery } from './readerQuery.ts';

/**
 * Keeps ?page= in the address in step with reading (debounced, replacing the entry), as Komga does.
 * Only while the address is still the reader's own: a reader left for its book page stays mounted
 * until that page's chunk has loaded, and its pending write put ?page=&incognito= on the book page's
 * address.
 */
export function usePageInAddress(query: ReaderQuery, page: number): void {
  useEffect(() => {
    const readerPath = window.location.pathname;
    const timer = setTimeout(() => {
      if (window.location.pathname !== readerPath) return;
      const search = readerSearch(query, page);
      if (window.location.search !== search) {
        window.history.replaceState(window.history.state, '', `${readerPath}${search}`);
      }
    }, 400);
    return () => clearTimeout(timer);
  }, [page, query]);
}

import { useCallback } from 'react';
import { useSearchParams } from 'wouter';

/** The current page of a paged list, kept 1-based in the URL (`?page=2`) and 0-based in code. */
export function usePageParam(): [number, (page: number, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number.parseInt(params.get('page') ?? '1', 10);
  const page = Number.isFinite(raw) && raw > 1 ? raw - 1 : 0;
  const setPage = useCallback(
    (next: number, options?: { replace?: boolean }) => {
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        if (next <= 0) updated.delete('page');
        else updated.set('page', String(next + 1));
        return updated;
      }, options);
    },
    [setParams],
  );
  return [page, setPage];
}

import { useEffect, useRef } from 'react';

/**
 * SPEC §3 keeps a list's filter and sort per library, and per collection or read list: arriving
 * with a bare URL restores the last query used under `key`, and every change is remembered in
 * `store` (a record of the persisted preferences; the page number is not kept).
 */
export function useRememberedQuery(
  store: Record<string, string>,
  key: string,
  params: URLSearchParams,
  setParams: (next: URLSearchParams, options?: { replace?: boolean }) => void,
) {
  // Per key: the same screen may stay mounted while it moves to another library or group.
  const restoredFor = useRef<string | undefined>(undefined);
  const remembered = useRef<string | undefined>(undefined);
  const withoutPage = new URLSearchParams(params);
  withoutPage.delete('page');
  const current = withoutPage.toString();

  useEffect(() => {
    if (restoredFor.current !== key) {
      restoredFor.current = key;
      remembered.current = undefined;
      const saved = store[key];
      if (params.size === 0 && saved) {
        setParams(new URLSearchParams(saved), { replace: true });
        return;
      }
    }
    if (remembered.current === current) return;
    remembered.current = current;
    if (current) store[key] = current;
    else delete store[key];
  }, [store, key, current, setParams, params.size]);
}

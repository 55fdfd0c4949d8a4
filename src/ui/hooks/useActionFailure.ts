import { useCallback, useMemo, useState } from 'react';

/**
 * The one failure a page shows for the actions the user runs on it: a new action's failure
 * replaces the last one (they never pile up), an action that starts or succeeds clears it, and the
 * user can dismiss it. Handed to the components whose actions share the page's slot.
 */
export interface ActionFailure {
  failure: unknown;
  report: (error: unknown) => void;
  clear: () => void;
}

export function useActionFailure(): ActionFailure {
  const [failure, setFailure] = useState<unknown>(undefined);
  const clear = useCallback(() => setFailure(undefined), []);
  return useMemo(() => ({ failure, report: setFailure, clear }), [failure, clear]);
}

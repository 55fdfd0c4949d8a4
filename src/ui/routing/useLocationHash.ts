import { useLocationProperty } from 'wouter/use-browser-location';

/**
 * The address's #hash ("" when there is none). Wouter's location is the path and its query only, so
 * the guards read the hash from the browser to carry it through the login with the rest.
 */
export function useLocationHash(): string {
  return useLocationProperty(
    () => location.hash,
    () => '',
  );
}

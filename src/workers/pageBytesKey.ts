/**
 * The key of a page's bytes fetched ahead: its absolute URL without the `v` (version) parameter. A
 * download may start before the book's version is known (the address names the page); the bytes are
 * the same.
 */
export function pageBytesKey(url: string, base: string | undefined = globalThis.location?.href): string {
  const parsed = new URL(url, base);
  parsed.searchParams.delete('v');
  return parsed.href;
}

/**
 * The path the web client is served under: '' at the site's root, `/folio` under a sub-path
 * (--base-path, or a proxy's X-Forwarded-Prefix). The server names it in the page it sends
 * (server/http/client-page.ts), in a meta element since the CSP allows no inline script. Read once:
 * it cannot change while the page lives. The development server and the tests' pages have none: ''.
 */
export const BASE_PATH_META = 'folio-base-path';

let basePath: string | undefined;

export function pageBasePath(): string {
  if (basePath === undefined) {
    const content = globalThis.document?.querySelector<HTMLMetaElement>(`meta[name="${BASE_PATH_META}"]`)?.content ?? '';
    // Only a path of this origin ('/a/b', no trailing slash) is taken: anything else is not the server's.
    basePath = /^(\/[^/?#\\]+)*$/.test(content) ? content : '';
  }
  return basePath;
}

/** The meta element the web client reads its base path from (src/api/basePath.ts). */
export const BASE_PATH_META = 'folio-base-path';

/**
 * The built index.html (Vite's relative base: `./assets/…`) as served under `prefix` ('' or
 * `/folio`): its relative file URLs made root-relative under the prefix — a client route such as
 * `/folio/series/1` would otherwise resolve them against `/folio/series/` — and the prefix named in
 * a meta element for the client's router and API calls. No inline script: the CSP forbids it. The
 * prefix is one of base-path.ts's, which need no escaping.
 */
export function clientPage(html: string, prefix: string): string {
  const meta = `<meta name="${BASE_PATH_META}" content="${prefix}">`;
  const rooted = html.replace(/(\s(?:src|href)=["'])\.\//g, `$1${prefix}/`);
  const head = /<head(\s[^>]*)?>/i.exec(rooted);
  if (head) return `${rooted.slice(0, head.index + head[0].length)}${meta}${rooted.slice(head.index + head[0].length)}`;
  // A page without a head element (hand-written): the parser puts a leading meta into the head.
  const doctype = /^\s*<!doctype[^>]*>/i.exec(rooted);
  const at = doctype ? doctype[0].length : 0;
  return `${rooted.slice(0, at)}${meta}${rooted.slice(at)}`;
}

/**
 * `page` (from clientPage under `prefix`) with `tags` right after the base path's meta element,
 * first in the head: parsed before the page's scripts run (the reader's start page, reader-hints.ts).
 */
export function withHeadTags(page: string, prefix: string, tags: string): string {
  if (!tags) return page;
  const meta = `<meta name="${BASE_PATH_META}" content="${prefix}">`;
  const at = page.indexOf(meta);
  return at < 0 ? page : `${page.slice(0, at + meta.length)}${tags}${page.slice(at + meta.length)}`;
}

/**
 * `page` with `tags` right after the body's start tag, before the app's root: an element the browser
 * acts on while it parses the document (the reader's opening image, reader-hints.ts). A page without
 * a body start tag gets nothing.
 */
export function withBodyTags(page: string, tags: string): string {
  if (!tags) return page;
  const body = /<body(\s[^>]*)?>/i.exec(page);
  return body ? `${page.slice(0, body.index + body[0].length)}${tags}${page.slice(body.index + body[0].length)}` : page;
}

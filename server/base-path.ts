/**
 * A path prefix Folio is served under (`--base-path`, or a trusted proxy's X-Forwarded-Prefix): ''
 * for the root, else `/a/b` (a leading slash, no trailing one). Segments are restricted to
 * characters that need no escaping in a URL, an HTML attribute or a cookie's Path, so the prefix can
 * be written into all three as it is.
 */
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** The prefix `text` names, normalised; undefined when it cannot be one (the reason is `basePathProblem`'s). */
export function normaliseBasePath(text: string): string | undefined {
  return basePathProblem(text) === undefined ? normalised(text) : undefined;
}

/** Why `text` cannot be a base path, or undefined when it can. */
export function basePathProblem(text: string): string | undefined {
  const path = normalised(text);
  if (path === '') return undefined;
  for (const segment of path.slice(1).split('/')) {
    if (segment === '') return 'it has an empty segment (//)';
    if (segment === '.' || segment === '..') return `it has a "${segment}" segment`;
    if (!SEGMENT.test(segment)) return `"${segment}" has characters other than letters, digits and - . _ ~`;
  }
  return undefined;
}

/** A leading slash added, trailing ones removed ('' and '/' are the root). */
function normalised(text: string): string {
  const trimmed = text.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

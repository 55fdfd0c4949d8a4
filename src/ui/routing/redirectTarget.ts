/** Any origin will do: targets are read against it only to see whether they would leave it. */
const HERE = 'http://folio.invalid';

/** Screens that would send the user straight back to the login: a redirect there would loop. */
const LOOPING = ['/startup', '/login'];

/** The origin `path` would reach when read as a URL from this app, or null when it cannot be read. */
function originOf(path: string): string | null {
  try {
    return new URL(path, HERE).origin;
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}

/** `text` with its percent escapes undone, or null when they do not decode. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch (error) {
    if (error instanceof URIError) return null;
    throw error;
  }
}

/**
 * The `redirect` query value, accepted only when it is a path of this app, kept with its query and
 * its #hash. Anything the URL parser would read as another origin or scheme would turn the login
 * page into an open redirect: `https://…`, `javascript:…`, `//host`, `/\host` (read as `//`), and the
 * same with tabs or newlines inside (the parser drops them). A path whose percent escapes decode to
 * such a form (`/%2F%2Fhost`, `/%5Chost`) is refused as well, in case anything decodes it later.
 */
export function safeRedirectTarget(raw: string | null | undefined, fallback = '/dashboard'): string {
  if (!raw || !raw.startsWith('/') || originOf(raw) !== HERE) return fallback;
  const target = new URL(raw, HERE);
  const path = decoded(target.pathname);
  if (path === null || originOf(path) !== HERE) return fallback;
  if (LOOPING.some((screen) => target.pathname === screen || target.pathname.startsWith(`${screen}/`))) return fallback;
  return `${target.pathname}${target.search}${target.hash}`;
}

/** `/startup?redirect=…` or `/login?redirect=…` carrying a full path (with its query and #hash). */
export function withRedirect(route: '/startup' | '/login', target: string): string {
  return `${route}?${new URLSearchParams({ redirect: target }).toString()}`;
}

/** The address the user is at, as the guards carry it through the login: path, query and #hash. */
export function fullPath(location: string, search: string, hash: string): string {
  return `${location}${search ? `?${search}` : ''}${hash}`;
}

import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normaliseBasePath } from '../base-path.ts';
import { errorBody } from './errors.ts';
import { isFromTrustedProxy, publicOrigin } from './public-origin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The --base-path setting: '' or `/folio`. Routes see paths with it removed. */
    basePath: string;
  }
}

/** True when `url` (a request target: path and query) lies under `basePath`. */
function isUnder(url: string, basePath: string): boolean {
  if (!url.startsWith(basePath)) return false;
  const next = url.charAt(basePath.length);
  return next === '' || next === '/' || next === '?';
}

/**
 * Fastify's `rewriteUrl` for a base path: a request under it is routed without it (`/folio/api/v1/x`
 * runs the route `/api/v1/x`, `/folio` and `/folio/` the root), so every route, hook and path check
 * works as at the root. Anything else keeps its URL and is refused by `registerBasePath`'s hook
 * before any route runs. Undefined for the root (no rewriting at all).
 */
export function basePathRewriter(basePath: string): ((request: IncomingMessage) => string) | undefined {
  if (basePath === '') return undefined;
  return (request) => {
    const url = request.url ?? '/';
    if (!isUnder(url, basePath)) return url;
    const rest = url.slice(basePath.length);
    return rest.startsWith('/') ? rest : `/${rest}`;
  };
}

/** Addresses the server answers itself: outside the base path they stay 404, never a second API. */
const SERVER_ROOTS = ['/api', '/opds', '/sse', '/actuator', '/oauth2', '/login/oauth2'];
const isServerPath = (path: string) => SERVER_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));

/**
 * The path of a request target written only with characters a URL path and query may hold as they
 * are (RFC 3986 pchar, `/`, `?`, whole percent escapes), so it can go into a Location header
 * unchanged, decoded; undefined when it is not one, or when a browser or proxy could read it as
 * another host or as leaving the base path: a leading `//`, a backslash, an encoded slash,
 * backslash or NUL, a `.` or `..` segment.
 */
const PLAIN_TARGET = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*)?$/;
function plainPath(url: string): string | undefined {
  if (!PLAIN_TARGET.test(url) || /%(?![0-9a-f]{2})/i.test(url)) return undefined;
  const path = url.split('?')[0] ?? '';
  if (/%(?:2f|5c|00)/i.test(path)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch (error) {
    if (error instanceof URIError) return undefined; // escapes that are no UTF-8
    throw error;
  }
  return decoded.split('/').some((segment) => segment === '.' || segment === '..') ? undefined : decoded;
}

/**
 * Under a base path, nothing outside it is served. A GET or HEAD for an address of the web client
 * (anything but the server's own paths) — the bare host name, a bookmark kept from before the base
 * path was set — is sent to the same address under it (302: the base path is a setting, not a move
 * a browser should remember), when its target is plain (plainPath) and the request did not come
 * through a trusted proxy that strips a prefix (X-Forwarded-Prefix: there the redirect would come
 * back without it, round and round). Everything else is a 404 that says where Folio is.
 * Registered before the authentication and the routes' hooks, after the security headers.
 */
export function registerBasePath(app: FastifyInstance, basePath: string): void {
  app.decorate('basePath', basePath);
  if (basePath === '') return;
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.originalUrl;
    if (isUnder(url, basePath)) return done();
    const path = plainPath(url);
    const stripped = request.headers['x-forwarded-prefix'] !== undefined && isFromTrustedProxy(request);
    if ((request.method === 'GET' || request.method === 'HEAD') && path !== undefined && !isServerPath(path) && !stripped) {
      void reply.redirect(`${basePath}${url}`, 302);
      return;
    }
    void reply
      .code(404)
      .type('application/json')
      .send(errorBody(404, `Not Found: Folio is served under ${basePath}/`, url));
  });
}

/**
 * The path prefix the client sees in front of Folio's paths, for every URL Folio writes (links,
 * redirects, cookies, the web client's page): a trusted proxy's X-Forwarded-Prefix when it sends a
 * usable one (a proxy that strips the prefix before forwarding; several values are joined, as Spring
 * does), else the --base-path. From any other peer the header is ignored.
 */
export function publicPrefix(request: FastifyRequest): string {
  const header = request.headers['x-forwarded-prefix'];
  if (header === undefined || !isFromTrustedProxy(request)) return request.server.basePath;
  const joined = (Array.isArray(header) ? header : [header])
    .flatMap((value) => value.split(','))
    .map((part) => part.trim().replace(/\/+$/, ''))
    .join('');
  const prefix = normaliseBasePath(joined);
  if (prefix === undefined) {
    request.log.warn({ forwardedPrefix: header }, 'X-Forwarded-Prefix ignored: not a usable path (letters, digits and - . _ ~ between slashes)');
    return request.server.basePath;
  }
  return prefix;
}

/**
 * Scheme, host, port and prefix the client used to reach Folio (`https://example.org/folio`), for
 * the absolute URLs Folio writes: OPDS feeds, WebPub manifests, OAuth2 redirect URIs. Folio's
 * root-relative paths are appended to it as they are.
 */
export function publicBaseUrl(request: FastifyRequest): string {
  return `${publicOrigin(request)}${publicPrefix(request)}`;
}

/** A root-relative path of Folio's (`/login`) as the client must ask for it (`/folio/login`). */
export function publicPath(request: FastifyRequest, path: string): string {
  return `${publicPrefix(request)}${path}`;
}

/** The Path attribute of Folio's cookies: the prefix, so they go to Folio alone on a shared host. */
export function cookiePath(request: FastifyRequest): string {
  return publicPrefix(request) || '/';
}

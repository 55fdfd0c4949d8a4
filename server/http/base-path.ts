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

/**
 * Under a base path, nothing outside it is served: the site root sends a browser to the base path
 * (someone who typed the bare host name), every other address is a 404 that says where Folio is.
 * Registered before the authentication and the routes' hooks, after the security headers.
 */
export function registerBasePath(app: FastifyInstance, basePath: string): void {
  app.decorate('basePath', basePath);
  if (basePath === '') return;
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.originalUrl;
    if (isUnder(url, basePath)) return done();
    const path = url.split('?')[0];
    if (path === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      void reply.redirect(`${basePath}/${url.slice(1)}`, 302);
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

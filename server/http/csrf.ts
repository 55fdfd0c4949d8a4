import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/**
 * Cross-site request forgery guard (README "Security"). SameSite=Lax alone let a page on another
 * port of the same host (same site) scan, empty the trash or shut the server down with text/plain
 * POSTs. A state-changing request (anything but GET/HEAD/OPTIONS) whose credentials a browser sends
 * by itself — the session or remember-me cookie, or Basic credentials it cached from its login
 * dialog — must prove it comes from Folio's own pages or an allowed CORS origin, by one of:
 * - `X-Requested-With` (any value): a custom header, which another origin can only send after a
 *   CORS preflight that only the configured origins pass. Folio's and Komga's web clients send it;
 * - `Sec-Fetch-Site: same-origin`;
 * - an `Origin` naming this server (its Host) or a configured CORS origin.
 * Credentials a browser never sends on its own (X-API-Key, X-Auth-Token) are not checked; neither are
 * Basic credentials without any sign of a browser (no Origin, no Sec-Fetch-Site), nor a cookie with
 * no sign of a browser at all (neither header, and not a browser's User-Agent): native clients.
 *
 * Bodies a cross-site form can send without a preflight (text/plain, form-urlencoded) never reach a
 * JSON route: the request-body policy (content-types.ts) refuses them on routes that read a body and
 * ignores them on routes that read none, where this guard decides by origin.
 */
export type AuthenticatedBy = 'cookie' | 'basic' | 'header' | 'apiKey';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A GET that changes state anyway (`GET /api/logout`, kept for Komga's clients): refused when the
     * browser says it comes from another site or origin, so a link or an image elsewhere cannot run it.
     */
    getChangesState?: boolean;
  }
  interface FastifyRequest {
    /** How the auth hook identified the caller (null: anonymous). */
    authenticatedBy: AuthenticatedBy | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Whether the request shows it was sent by a page of this server (or an allowed CORS origin). */
function fromOwnOrigin(request: FastifyRequest, corsOrigins: Set<string>): boolean {
  if (request.headers['x-requested-with'] !== undefined) return true;
  if (headerText(request.headers['sec-fetch-site']) === 'same-origin') return true;
  const origin = headerText(request.headers.origin);
  if (!origin || origin === 'null') return false;
  if (corsOrigins.has(origin)) return true;
  try {
    // Through URL on both sides, so a default port written or left out compares equal.
    return new URL(origin).host === new URL(`${request.protocol}://${request.host}`).host;
  } catch (error) {
    if (error instanceof TypeError) return false; // not a URL: not this server
    throw error;
  }
}

/** A browser request from another origin or site (native clients send neither header). */
function fromElsewhere(request: FastifyRequest): boolean {
  const site = headerText(request.headers['sec-fetch-site']);
  return site === 'cross-site' || site === 'same-site' || request.headers.origin !== undefined;
}

export function registerCsrfGuard(app: FastifyInstance, corsOrigins: string[]): void {
  const allowed = new Set(corsOrigins);
  app.decorateRequest('authenticatedBy', null);
  app.addHook('onRequest', (request, _reply, done) => {
    if (crossSiteWrite(request, allowed)) throw new HttpError(403, 'Cross-site request refused: send X-Requested-With or a matching Origin');
    done();
  });
}

/**
 * Whether a browser may have sent the request: every browser's User-Agent starts with "Mozilla/",
 * and no page can make a browser send another one with a request that carries no Origin (a form,
 * or a browser too old to send Origin or fetch metadata).
 */
function mayBeBrowser(request: FastifyRequest): boolean {
  return (headerText(request.headers['user-agent']) ?? '').startsWith('Mozilla/');
}

/**
 * A write authenticated by credentials the browser sends by itself, coming from another site.
 * Native clients send no Origin and no fetch metadata: with Basic that is enough; with a cookie
 * the User-Agent must not be a browser's either (Mihon's Komga tracker writes read progress with
 * nothing but the KOMGA-SESSION cookie its Komga extension received).
 */
function crossSiteWrite(request: FastifyRequest, allowed: Set<string>): boolean {
  if (SAFE_METHODS.has(request.method)) {
    // Whatever the credentials (logging out revokes the remember-me cookie of a caller whose session
    // is gone). Typed in the address bar (Sec-Fetch-Site: none) or sent by a native client: allowed.
    return request.routeOptions.config.getChangesState === true && fromElsewhere(request) && !fromOwnOrigin(request, allowed);
  }
  const by = request.authenticatedBy;
  if (by !== 'cookie' && by !== 'basic') return false;
  if (fromOwnOrigin(request, allowed)) return false;
  if (fromElsewhere(request)) return true;
  return by === 'cookie' && mayBeBrowser(request);
}

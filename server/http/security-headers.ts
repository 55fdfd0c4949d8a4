import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.ts';
import helmet, { type HelmetOptions } from 'helmet';
import { requestPath } from './request-path.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether responses are for this origin only (Cross-Origin-Resource-Policy): no --cors-origins. */
    sameOriginResources: boolean;
  }
}

/**
 * Security headers of every response, in one place (README "Security").
 *
 * - The web client (every path outside the API) gets a CSP without inline script: its own scripts,
 *   plus `blob:` for workers and the blob documents an EPUB reader builds; `frame-ancestors 'self'`
 *   so no other site can frame Folio and click for the user.
 * - Every API response (JSON, pages, thumbnails, downloads, EPUB resources, OPDS, SSE) carries bytes
 *   that may come from a book or a user, so it gets the user-content policy below, whatever route
 *   produced it: opened as a top-level document it is sandboxed (no script, opaque origin, no cookies
 *   usable); loaded in a frame by a reader it may show images, styles and fonts but run no script.
 * - `nosniff` everywhere, so the browser never turns a "page" or resource into HTML or script.
 *
 * Readers keep working: Readium's web navigator (Folio's EPUB reader) fetches resources and shows
 * them from blob: documents, which inherit the client's CSP (no inline or book script, its own blob:
 * scripts allowed); Komga's web reader loads resources in same-origin frames (Sec-Fetch-Dest:
 * iframe), where the document keeps its origin so the reader can style and paginate it, but its
 * scripts are refused.
 */

const CLIENT_CSP = {
  'default-src': ["'self'"],
  'script-src': ["'self'", 'blob:'],
  'style-src': ["'self'", "'unsafe-inline'", 'blob:'],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'frame-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
};

/** Paths whose responses carry book or user bytes (everything but the built web client). */
const API_PREFIXES = ['/api/', '/opds/', '/sse/', '/actuator/'];
export const isApiPath = (path: string) => API_PREFIXES.some((p) => path.startsWith(p));

/** Destinations that render a response as a document of its own (or may, when the browser does not say). */
const TOP_LEVEL_DESTINATIONS = new Set(['document', 'embed', 'object', '']);

/** Book content shown inside a reader's frame: it may display, but run nothing. */
const FRAMED_CONTENT_CSP = [
  "default-src 'self' data: blob:",
  "script-src 'none'",
  "object-src 'none'",
  "style-src 'self' 'unsafe-inline' data: blob:",
  "base-uri 'self'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** Book content opened on its own (a tab, a shared link): sandboxed, so it has no origin at all. */
const TOP_LEVEL_CONTENT_CSP = `sandbox; ${FRAMED_CONTENT_CSP}`;

/**
 * The CSP for a response carrying book or user bytes, by how the browser is going to use it
 * (Sec-Fetch-Dest; absent from old browsers and non-browser clients: treated as top-level). PDFs
 * are exempt from the sandbox: Chromium refuses to show a PDF in a sandboxed document, and its PDF
 * viewer never runs a PDF's script with the page's origin.
 */
export function userContentCsp(request: FastifyRequest, mediaType: string | undefined): string {
  const destination = String(request.headers['sec-fetch-dest'] ?? '').toLowerCase();
  if (mediaType?.startsWith('application/pdf')) return FRAMED_CONTENT_CSP;
  return TOP_LEVEL_DESTINATIONS.has(destination) ? TOP_LEVEL_CONTENT_CSP : FRAMED_CONTENT_CSP;
}

/**
 * Media types an EPUB may declare for its resources that Folio serves as declared. Anything else
 * (scripts above all: `application/javascript`, `text/javascript`, module types, wasm…) is sent as
 * application/octet-stream, which with nosniff a browser never executes as a script or worker, and
 * downloads rather than renders when opened.
 */
const SERVABLE_RESOURCE_TYPES = new Set([
  'application/xhtml+xml',
  'text/html',
  'image/svg+xml',
  'text/css',
  'application/xml',
  'text/xml',
  'text/plain',
  'application/x-dtbncx+xml',
  'application/oebps-package+xml',
  'application/smil+xml',
  'application/pls+xml',
  'application/vnd.ms-opentype',
  'application/font-woff',
  'application/x-font-ttf',
  'application/x-font-truetype',
  'application/x-font-opentype',
  'application/pdf',
]);
const SERVABLE_PREFIXES = ['image/', 'font/', 'audio/', 'video/'];

/** The content type to serve an EPUB resource with, from what its package declared. */
export function servableResourceType(declared: string | null | undefined): string {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (SERVABLE_RESOURCE_TYPES.has(type) || SERVABLE_PREFIXES.some((p) => type.startsWith(p))) return type;
  return 'application/octet-stream';
}

export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CLIENT_CSP },
  // Transport security is the reverse proxy's decision (Folio also runs over plain HTTP on a LAN).
  strictTransportSecurity: false,
  // Set below by Folio itself, by the --cors-origins setting (see SAME_ORIGIN_RESOURCES).
  crossOriginResourcePolicy: false,
  crossOriginEmbedderPolicy: false,
  // The OAuth2 login popup goes through the provider and back, then talks to its opener.
  crossOriginOpenerPolicy: false,
  referrerPolicy: { policy: 'same-origin' },
  frameguard: { action: 'sameorigin' },
};

/**
 * The headers helmet sets for these options, worked out once: none of them depends on the request
 * (no nonces, no directive computed per request). The Fastify plugin built a new helmet middleware
 * for every request, a measurable share of serving a poster or a page.
 */
export function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): readonly [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.push([name, String(value)]),
    // X-Powered-By: Fastify never sets it.
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

let defaultHeaders: readonly [string, string][] | undefined;

/**
 * Without --cors-origins nothing but Folio's own pages may use its responses, and they are
 * same-origin: every response says so, and the browser then refuses a no-cors load of it (<img>,
 * <video>, <audio>, <script>) by a page of any other origin. Without it, a page of another site, or
 * of the same site (another port of the host, a sibling subdomain, where SameSite=Lax still sends the
 * session cookie, as browsers send Basic credentials they cached), showed a reader's pages and
 * posters and read their sizes, and shared a process with their bytes (Spectre). With
 * --cors-origins, a web client of those origins (Komga's) shows covers and pages in plain <img>
 * elements, so the header is left out there, as before.
 */
const SAME_ORIGIN_RESOURCES: [string, string] = ['Cross-Origin-Resource-Policy', 'same-origin'];

/**
 * Every security header of the response to this request, its CSP chosen as above: the one list
 * that the hooks, a hijacked reply (the event stream, which writes its own head and never reaches
 * onSend) and a framework error all send. `mediaType` is what the response turned out to be, once
 * known (a PDF is not sandboxed); `sandboxed` forces the top-level user-content policy.
 */
export function securityHeadersFor(request: FastifyRequest, options: { mediaType?: string; sandboxed?: boolean } = {}): readonly [string, string][] {
  const csp = options.sandboxed
    ? TOP_LEVEL_CONTENT_CSP
    : isApiPath(requestPath(request)) ? userContentCsp(request, options.mediaType) : undefined;
  const sameOrigin = request.server.sameOriginResources;
  const key = `${sameOrigin ? 'same-origin' : ''}|${csp ?? ''}`;
  let headers = headersByCsp.get(key);
  if (!headers) {
    headers = (defaultHeaders ??= helmetHeaders()).map(([name, value]) => [name, csp !== undefined && name.toLowerCase() === 'content-security-policy' ? csp : value]);
    if (sameOrigin) headers = [...headers, SAME_ORIGIN_RESOURCES];
    headersByCsp.set(key, headers);
  }
  return headers;
}

/** The lists above, one per policy (four CSPs, with or without the resource policy), so serving a page builds none. */
const headersByCsp = new Map<string, readonly [string, string][]>();

export async function registerSecurityHeaders(app: FastifyInstance, corsOrigins: readonly string[]): Promise<void> {
  app.decorate('sameOriginResources', corsOrigins.length === 0);
  // On the raw response, so they also go out on a reply that is hijacked and written by hand.
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of securityHeadersFor(request)) reply.raw.setHeader(name, value);
    done();
  });
  // The media type is known now: a PDF's policy differs (see userContentCsp).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiPath(requestPath(request))) {
      const type = reply.getHeader('content-type');
      reply.header('Content-Security-Policy', userContentCsp(request, typeof type === 'string' ? type : undefined));
    }
    done(null, payload);
  });
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot read (bad percent-encoding, an over-long
 * parameter) is refused before any hook runs, so this sets what the hooks would have: every
 * security header, and the sandboxing user-content CSP (the message quotes the URL, which the sender chose).
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  for (const [name, value] of securityHeadersFor(request, { sandboxed: true })) reply.header(name, value);
  const status = error.statusCode ?? 400;
  void reply.code(status).type('application/json').send(errorBody(status, 'The request URL could not be read', request.originalUrl));
}

import type { FastifyRequest } from 'fastify';

/**
 * The path of a request as the router sees it: without the query, percent-decoded. Every decision
 * made by path (which paths need a caller, which responses get the user-content CSP, the API cache
 * policy) must use this and not `request.url`: the router decodes `/%61pi/v1/...` to `/api/v1/...`
 * and runs the API route, so a check on the raw text would treat an API response as something else.
 * Decoding can only make a path look more like an API path than the router takes it to be (it keeps
 * `%2F` inside a segment), which errs on the strict side. Text that is not valid percent-encoding is
 * returned as it is (the router answers it with 400).
 */
export function requestPath(request: FastifyRequest): string {
  const raw = request.url.split('?')[0] ?? '';
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    return raw;
  }
}

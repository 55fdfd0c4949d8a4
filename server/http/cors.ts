import type { FastifyInstance } from 'fastify';

/**
 * CORS as Komga does it when `komga.cors.allowed-origins` is set (REFERENCE §1.11): for the listed
 * origins only, every method and header, credentials allowed, Content-Disposition and
 * X-Auth-Token exposed, preflight cached for 30 minutes. Off when no origin is configured.
 */
export function registerCors(app: FastifyInstance, origins: string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || !allowed.has(origin)) return;
    reply
      .header('Access-Control-Allow-Origin', origin)
      .header('Access-Control-Allow-Credentials', 'true')
      .header('Access-Control-Expose-Headers', 'Content-Disposition, X-Auth-Token, Folio-Navigation-Unavailable')
      .header('Vary', 'Origin');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      return reply
        .code(200)
        .header('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS')
        .header('Access-Control-Allow-Headers', request.headers['access-control-request-headers'] ?? '*')
        .header('Access-Control-Max-Age', '1800')
        .send();
    }
  });
}

import type { Socket } from 'node:net';
import type { Server } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory, type RouteOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Logger } from '../logging.ts';
import { isLoopback, limitConnectionsPerAddress } from './connection-limit.ts';
import { basePathRewriter, registerBasePath } from './base-path.ts';
import { registerCors } from './cors.ts';
import { registerBodyParsers } from './content-types.ts';
import { boundRequestSchema } from './input-limits.ts';
import { AJV_OPTIONS, formatValidationErrors, normaliseRequest } from './schemas.ts';
import { registerSecurityHeaders, sendFrameworkError } from './security-headers.ts';
import { requestPath } from './request-path.ts';
import { RequestLog } from './request-log.ts';
import { shallowEtag } from './etag.ts';
import { checkRouteRole } from './guards.ts';
import type { TrustProxy } from '../config.ts';

/**
 * How long a connection may go without a byte moving either way. Longer than anything a request
 * waits for on the server (an archive handle 15 s, a decode 30 s, a 7-Zip call 60 s) and than the
 * SSE heartbeat, so only a client that stopped reading or sending is cut off.
 */
const STALLED_CONNECTION_MS = 120_000;

/**
 * How long a request may take to arrive, headers and body: Node's own default. The largest bodies
 * (a 10 MB poster or reading list) arrive well within it on a slow phone connection.
 */
const REQUEST_ARRIVAL_MS = 300_000;

/** The settings of AppOptions (app.ts) the HTTP policy reads; documented there. */
export interface HttpOptions {
  basePath?: string;
  requestTimeoutMs?: number;
  stalledConnectionMs?: number;
  trustProxy?: TrustProxy;
  servingProcesses?: boolean;
  connectionsPerAddress?: { max?: number; exemptLoopback?: boolean };
  corsOrigins?: string[];
}

export interface HttpAppParts {
  /** Who may set X-Forwarded-* headers (public-origin.ts), given to Fastify when any peer may. */
  trustsProxy: (address: string, hop: number) => boolean;
  errorHandler: (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => unknown;
  /** A serving process's own server (serving-app.ts), which hands most requests on before Fastify. */
  serverFactory?: FastifyServerFactory<Server>;
}

/**
 * The HTTP policy every Folio process answers with, whatever routes it then has (app.ts for the
 * primary, serving/serving-app.ts for a serving process): time and connection limits, the base
 * path, security and cache headers, ETags, body parsing, role checks and CORS. One function, so a
 * page is answered alike by every process.
 */
export async function createHttpApp(options: HttpOptions, logger: Logger, { trustsProxy, errorHandler, serverFactory }: HttpAppParts): Promise<FastifyInstance> {
  const basePath = options.basePath ?? '';
  const requestArrivalMs = options.requestTimeoutMs ?? REQUEST_ARRIVAL_MS;
  const app = Fastify({
    ...(serverFactory ? { serverFactory } : {}),
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: options.trustProxy || options.servingProcesses ? trustsProxy : false,
    ajv: AJV_OPTIONS,
    schemaErrorFormatter: formatValidationErrors,
    frameworkErrors: sendFrameworkError,
    connectionTimeout: options.stalledConnectionMs ?? STALLED_CONNECTION_MS,
    // Fastify turns off Node's limit on the time a request takes to arrive whole: a body trickling
    // in faster than the stall limit held its connection for ever, an anonymous one included (the
    // answer goes out at once, the body is still read). Checked every second, not Node's 30 s.
    requestTimeout: requestArrivalMs,
    // Node checks the request limit only with a headers limit no longer than it (its own defaults).
    http: { connectionsCheckingInterval: Math.min(1_000, requestArrivalMs), requestTimeout: requestArrivalMs, headersTimeout: Math.min(60_000, requestArrivalMs) },
    // One line per request, without secret query values (request-log.ts).
    logController: new RequestLog(),
    // Routes are written for the root; under a base path requests are routed with it removed.
    rewriteUrl: basePathRewriter(basePath),
  });
  // A client that stopped reading (a phone gone off the network, a paused download) would
  // otherwise keep its connection, and the file its response streams from, for ever.
  app.server.on('timeout', (socket: Socket) => {
    logger.warn({ remoteAddress: socket.remoteAddress, remotePort: socket.remotePort }, 'connection closed: no byte moved on it in time');
    socket.destroy();
  });
  app.decorate('trustsProxy', trustsProxy);
  const exemptLoopback = options.connectionsPerAddress?.exemptLoopback ?? true;
  limitConnectionsPerAddress(app.server, {
    max: options.connectionsPerAddress?.max,
    exempt: (address) => (exemptLoopback && isLoopback(address)) || (options.trustProxy || options.servingProcesses ? trustsProxy(address, 0) : false),
    logger: logger as FastifyBaseLogger,
  });
  // Every route as registered, for the check that each declares the request parts it reads.
  const routeTable: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    // What a body may carry is bounded by one policy, whatever the route (input-limits.ts).
    if (route.schema?.body) route.schema = { ...route.schema, body: boundRequestSchema(route.schema.body) };
    routeTable.push(route as RouteOptions);
  });
  app.decorate('routeTable', routeTable);
  await app.register(fastifyCookie);
  await registerSecurityHeaders(app, options.corsOrigins ?? []);
  registerBasePath(app, basePath);
  app.setErrorHandler(errorHandler);
  registerBodyParsers(app);
  // Hooks that never wait are written with `done`: every request runs them, and an async hook
  // costs a promise and a turn of the microtask queue each time (a measurable share of a poster).
  app.addHook('preValidation', (request, _reply, done) => {
    checkRouteRole(request);
    normaliseRequest(request);
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    // Komga's default for API responses; handlers that need another policy set their own.
    const path = requestPath(request);
    if ((path.startsWith('/api/') || path.startsWith('/opds/')) && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'max-age=0, must-revalidate, private');
    }
    done(null, shallowEtag(request, reply, payload));
  });

  // Preflight requests are answered before authentication, as Spring's CORS filter does.
  registerCors(app, options.corsOrigins ?? []);
  return app;
}

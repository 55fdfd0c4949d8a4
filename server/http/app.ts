import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastifyCookie from '@fastify/cookie';
import type { FolioContext } from '../domain/context.ts';
import { closeFolioContext, createFolioContext } from '../domain/create-context.ts';
import { startScanScheduler } from '../domain/tasks/scan-scheduler.ts';
import { enableTaskPersistence } from '../domain/tasks/task-persistence.ts';
import { sweepPartialFiles } from '../domain/partial-file-sweep.ts';
import type { ArchivePoolOptions } from '../media/archive-pool.ts';
import type { LogLevel, TrustProxy } from '../config.ts';
import { createAppLogger } from '../logging.ts';
import { trustProxyFunction } from './public-origin.ts';
import { isLoopback, limitConnectionsPerAddress } from './connection-limit.ts';
import { basePathRewriter, registerBasePath } from './base-path.ts';
import { SESSION_INACTIVITY_MS } from './auth/sessions.ts';
import { createAuthHook } from './auth/authenticate.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import { registerClient } from './client-routes.ts';
import { registerCors } from './cors.ts';
import { registerCsrfGuard } from './csrf.ts';
import { registerContentGuard } from './content-guard.ts';
import { registerBodyParsers } from './content-types.ts';
import { boundRequestSchema } from './input-limits.ts';
import { AJV_OPTIONS, formatValidationErrors, normaliseRequest } from './schemas.ts';
import { handleError } from './errors.ts';
import { registerSecurityHeaders, sendFrameworkError } from './security-headers.ts';
import { requestPath } from './request-path.ts';
import { RequestLog } from './request-log.ts';
import { shallowEtag } from './etag.ts';
import { checkRouteRole } from './guards.ts';
import { registerAccountRoutes } from './routes/account-routes.ts';
import { registerActionRoutes } from './routes/action-routes.ts';
import { registerActuatorRoutes } from './routes/actuator-routes.ts';
import { registerAuthRoutes } from './routes/auth-routes.ts';
import { registerBookRoutes } from './routes/book-routes.ts';
import { registerClientSettingRoutes } from './routes/client-setting-routes.ts';
import { registerCollectionRoutes } from './routes/collection-routes.ts';
import { registerDownloadRoutes } from './routes/download-routes.ts';
import { registerDuplicateRoutes } from './routes/duplicate-routes.ts';
import { registerHistoryRoutes } from './routes/history-routes.ts';
import { registerLibraryRoutes } from './routes/library-routes.ts';
import { registerListRoutes } from './routes/list-routes.ts';
import { registerMetadataRoutes } from './routes/metadata-routes.ts';
import { registerOfflineRoutes } from './routes/offline-routes.ts';
import { registerPageRoutes } from './routes/page-routes.ts';
import { registerPosterRegenerationRoutes } from './routes/poster-regeneration-routes.ts';
import { registerReadListImportRoutes } from './routes/readlist-import-routes.ts';
import { registerReadListRoutes } from './routes/readlist-routes.ts';
import { registerReadiumRoutes } from './routes/readium-routes.ts';
import { registerReferentialRoutes } from './routes/referential-routes.ts';
import { registerSeriesRoutes } from './routes/series-routes.ts';
import { registerSettingsRoutes } from './routes/settings-routes.ts';
import { registerFilesystemRoutes } from './routes/filesystem-routes.ts';
import { registerImportRoutes } from './routes/import-routes.ts';
import { registerOpdsRoutes } from './routes/opds-routes.ts';
import { registerOpds2Routes } from './routes/opds2-routes.ts';
import { registerSseRoutes } from './routes/sse-routes.ts';
import { registerTachiyomiRoutes } from './routes/tachiyomi-routes.ts';
import { registerThumbnailRoutes } from './routes/thumbnail-routes.ts';

export interface AppOptions {
  /** Folder for the database and generated thumbnails (created if missing). */
  dataDir: string;
  /** Built web client (vite `dist/`); defaults to ./dist. */
  clientDir?: string;
  /** Background task workers (scan/analysis). Default 2. */
  taskWorkers?: number;
  /** Open-archive pool sizing (default: from the process's descriptor limit). */
  archivePool?: ArchivePoolOptions;
  /** Log level (request, error and task logs to stdout and <data-dir>/logs/folio.log). Default info. */
  logLevel?: LogLevel;
  /** Also log to stdout (default true; the log file is always written unless the level is silent). */
  logStdout?: boolean;
  /** Which peers may set X-Forwarded-* headers (see config.ts). Default: nobody. */
  trustProxy?: TrustProxy;
  /** The path everything is served under: '' (the root, the default) or `/folio` (normalised; see base-path.ts). */
  basePath?: string;
  /** SSE heartbeat comment interval in ms (default 15000, Komga's). */
  sseHeartbeatMs?: number;
  /** Bytes all event streams together may keep unsent for slow clients (default 64 MiB; tests lower it). */
  sseMaxUnsentBytesInAll?: number;
  /** A connection on which no byte moved either way for this long is closed (default 120000). */
  stalledConnectionMs?: number;
  /** Time a request may take to arrive whole, headers and body (default 300000, Node's own). */
  requestTimeoutMs?: number;
  /**
   * How long closing waits for running tasks before leaving them unfinished (default 5000; stored
   * tasks run again at the next start). Counted from the call to close, alongside open requests.
   */
  taskShutdownGraceMs?: number;
  /** What POST /actuator/shutdown does once it has answered (main.ts exits the process). */
  onShutdown?: () => void;
  /** Origins allowed to call from other sites (CORS); none by default. */
  corsOrigins?: string[];
  /** Authentication activity kept (default 90 days, 100,000 rows): see README "Security". */
  authActivityRetention?: { days: number; maxRows: number };
  /**
   * Connections one client address may hold at once (default: a quarter of the server's
   * maxConnections, at least 256); loopback addresses are not
   * counted unless `exemptLoopback` is false, trusted proxies never (connection-limit.ts).
   */
  connectionsPerAddress?: { max?: number; exemptLoopback?: boolean };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Folio's services, for tests and the entry point (e.g. `app.folio.tasks.idle()`). */
    folio: FolioContext;
    /** Every registered route with its options (schemas included). */
    routeTable: readonly RouteOptions[];
    /** The login throttle, for tests that check its stores stay bounded (trackedSize). */
    loginThrottle: LoginThrottle;
  }
}

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

/** Process managers stop a server within 10 s (Docker) before killing it: stop well before. */
const TASK_SHUTDOWN_GRACE_MS = 5_000;

/** Builds the Folio HTTP server (not listening yet). Closing the app closes the database. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const dataDir = resolve(options.dataDir);
  const clientDir = resolve(options.clientDir ?? 'dist');
  const { logger, close: closeLog } = createAppLogger(dataDir, options.logLevel ?? 'info', { stdout: options.logStdout });
  const trustsProxy = trustProxyFunction(options.trustProxy);
  const basePath = options.basePath ?? '';
  const requestArrivalMs = options.requestTimeoutMs ?? REQUEST_ARRIVAL_MS;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: options.trustProxy ? trustsProxy : false,
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
    exempt: (address) => (exemptLoopback && isLoopback(address)) || (options.trustProxy ? trustsProxy(address, 0) : false),
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
  // Route modules converted to request schemas take the typed instance (same app).
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = createFolioContext({ dataDir, logger, taskWorkers: options.taskWorkers, archivePool: options.archivePool });
  app.decorate('folio', ctx);
  // Write-aside files a server killed mid-write left behind, swept meanwhile (not waited for).
  const partialSweep = sweepPartialFiles(ctx).then(
    (removed) => logger.info({ removed }, 'removed the partial files an interrupted write left in the data directory'),
    (error: unknown) => logger.error({ err: error }, 'could not sweep the partial files an interrupted write may have left in the data directory'),
  );
  ctx.repos.sessions.deleteInactiveSince(Date.now() - SESSION_INACTIVITY_MS);
  const pruneActivity = activityPruner(ctx, options.authActivityRetention ?? { days: 90, maxRows: 100_000 });
  pruneActivity();

  await app.register(fastifyCookie);
  await registerSecurityHeaders(app);
  registerBasePath(app, basePath);
  app.setErrorHandler(handleError);
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
  const auth = createAuthHook(ctx);
  app.addHook('onRequest', auth.hook);
  app.decorate('loginThrottle', auth.throttle);
  registerCsrfGuard(app, options.corsOrigins ?? []);

  registerAuthRoutes(typed, ctx);
  registerAccountRoutes(typed, ctx, auth.throttle);
  registerContentGuard(typed, ctx);
  registerLibraryRoutes(typed, ctx);
  registerListRoutes(typed, ctx);
  registerSeriesRoutes(typed, ctx);
  registerBookRoutes(typed, ctx);
  registerPageRoutes(typed, ctx);
  registerMetadataRoutes(typed, ctx);
  registerCollectionRoutes(typed, ctx);
  registerActionRoutes(typed, ctx);
  registerReferentialRoutes(typed, ctx);
  registerDownloadRoutes(typed, ctx);
  registerHistoryRoutes(typed, ctx);
  registerDuplicateRoutes(typed, ctx);
  registerReadListRoutes(typed, ctx);
  registerSseRoutes(typed, ctx, { heartbeatMs: options.sseHeartbeatMs ?? 15_000, maxUnsentBytesInAll: options.sseMaxUnsentBytesInAll });
  await registerThumbnailRoutes(typed, ctx);
  registerFilesystemRoutes(typed);
  registerImportRoutes(typed, ctx);
  registerTachiyomiRoutes(typed, ctx);
  registerOpdsRoutes(typed, ctx);
  registerOpds2Routes(typed, ctx);
  registerClientSettingRoutes(typed, ctx);
  registerSettingsRoutes(typed, ctx, basePath);
  registerPosterRegenerationRoutes(typed, ctx);
  registerOfflineRoutes(typed);
  registerReadiumRoutes(typed, ctx);
  await registerReadListImportRoutes(typed, ctx);
  registerActuatorRoutes(typed, ctx, options.onShutdown ?? (() => void app.close()));
  await registerClient(app, clientDir, ctx);

  const sweep = setInterval(() => {
    // A throw from a timer ends the server; a sweep that cannot write now (the database locked by
    // another process, a full disk) is done at the next one.
    try {
      ctx.repos.sessions.deleteInactiveSince(Date.now() - SESSION_INACTIVITY_MS);
    } catch (error) {
      ctx.logger.error({ err: error }, 'could not remove expired sessions');
    }
  }, 3600_000);
  sweep.unref();
  // Failed logins and API keys write rows: a flood from many addresses is bounded within a minute.
  const activitySweep = setInterval(pruneActivity, 60_000);
  activitySweep.unref();

  // Tasks queued before a restart come back first; scheduled scans dedupe against them.
  enableTaskPersistence(ctx);
  const stopScheduler = startScanScheduler(ctx);

  // Running tasks get their grace from the moment close is called, while requests finish, so a
  // stop takes the longer of the two rather than their sum.
  const taskGraceMs = options.taskShutdownGraceMs ?? TASK_SHUTDOWN_GRACE_MS;
  app.addHook('preClose', async () => {
    void ctx.tasks.close(taskGraceMs);
  });
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    clearInterval(activitySweep);
    stopScheduler();
    await partialSweep;
    await closeFolioContext(ctx, taskGraceMs);
    await closeLog();
  });
  return app;
}

/** Keeps authentication activity within its retention (age and row count). */
function activityPruner(ctx: FolioContext, retention: { days: number; maxRows: number }): () => void {
  const activity = ctx.repos.authActivity;
  return () => {
    try {
      activity.prune(Date.now() - retention.days * 24 * 3600 * 1000, retention.maxRows);
    } catch (error) {
      ctx.logger.error({ err: error }, 'could not prune authentication activity');
    }
  };
}

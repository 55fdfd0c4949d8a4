import { resolve } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FolioContext } from '../domain/context.ts';
import { closeFolioContext, createFolioContext } from '../domain/create-context.ts';
import { startScanScheduler } from '../domain/tasks/scan-scheduler.ts';
import { enableTaskPersistence } from '../domain/tasks/task-persistence.ts';
import { sweepPartialFiles } from '../domain/partial-file-sweep.ts';
import type { ArchivePoolOptions } from '../media/archive-pool.ts';
import type { LogLevel, TrustProxy } from '../config.ts';
import { createAppLogger } from '../logging.ts';
import { trustProxyFunction } from './public-origin.ts';
import { createHttpApp } from './http-app.ts';
import { trustingServingPeer } from './serving/internal-socket.ts';
import { SESSION_INACTIVITY_MS } from './auth/sessions.ts';
import { createAuthHook } from './auth/authenticate.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import { registerClient } from './client-routes.ts';
import { registerCsrfGuard } from './csrf.ts';
import { registerContentGuard } from './content-guard.ts';
import { handleError } from './errors.ts';
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
  /**
   * Serving processes hand requests to this one through its internal socket (README "Serving
   * processes"): their peer is trusted to name the client. Off by default (one process).
   */
  servingProcesses?: boolean;
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

/** Process managers stop a server within 10 s (Docker) before killing it: stop well before. */
const TASK_SHUTDOWN_GRACE_MS = 5_000;

/** Builds the Folio HTTP server (not listening yet). Closing the app closes the database. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const dataDir = resolve(options.dataDir);
  const clientDir = resolve(options.clientDir ?? 'dist');
  const { logger, close: closeLog } = createAppLogger(dataDir, options.logLevel ?? 'info', { stdout: options.logStdout });
  const app = await createHttpApp(options, logger, {
    // With serving processes, their requests come through the internal socket, whose peer is
    // trusted to name the client (internal-socket.ts); alone, exactly the --trust-proxy setting.
    trustsProxy: options.servingProcesses ? trustingServingPeer(trustProxyFunction(options.trustProxy)) : trustProxyFunction(options.trustProxy),
    errorHandler: handleError,
  });
  const basePath = options.basePath ?? '';
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

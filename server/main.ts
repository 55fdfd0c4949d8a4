import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, USAGE, readConfig, wantsHelp } from './config.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { SchemaTooNewError } from './db/migrate.ts';
import type { FastifyListenOptions } from 'fastify';
import { buildApp } from './http/app.ts';
import { connectionCap, relieveConnectionPressure } from './http/connection-pressure.ts';
import { connectionBudget } from './media/descriptor-budget.ts';
import { listenInternally } from './http/serving/internal-socket.ts';
import { buildServingApp } from './http/serving/serving-app.ts';
import { PRIMARY_SOCKET_ENV, READY_MESSAGE, SERVING_PORT_ENV, SERVING_PROCESS_ENV, startServingProcesses } from './serving-processes.ts';

const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Entry point: `node server/main.ts [--port N] [--host H] [--data-dir DIR] [--client-dir DIR]
 * [--cors-origins A,B] [--trust-proxy false|true|loopback,10.0.0.0/8] [--base-path /folio] [--log-level info]
 * [--auth-activity-days 90] [--auth-activity-max-rows 100000]` (or FOLIO_PORT, FOLIO_HOST, FOLIO_DATA_DIR,
 * FOLIO_CLIENT_DIR, FOLIO_CORS_ORIGINS, FOLIO_TRUST_PROXY, FOLIO_BASE_PATH, FOLIO_LOG_LEVEL, FOLIO_AUTH_ACTIVITY_DAYS,
 * FOLIO_AUTH_ACTIVITY_MAX_ROWS). Port 0 picks a free port.
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) {
    process.stdout.write(USAGE);
    return;
  }
  const config = readConfig(argv, process.env);
  if (process.env[SERVING_PROCESS_ENV]) return serve(config);
  usableDataDir(config.dataDir);
  const several = config.servingProcesses > 1;
  // Serving processes share the port through SO_REUSEPORT, which Node offers on Linux and FreeBSD only.
  if (several && process.platform !== 'linux' && process.platform !== 'freebsd') {
    throw new ConfigError(`--serving-processes above 1 needs Linux or FreeBSD (SO_REUSEPORT); this is ${process.platform}: leave it at 1`);
  }
  const app = await buildApp({
    servingProcesses: several,
    dataDir: config.dataDir,
    clientDir: config.clientDir,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    basePath: config.basePath,
    logLevel: config.logLevel,
    authActivityRetention: config.authActivityRetention,
    onShutdown: () => shutdown(),
  }).catch((error: unknown) => {
    throw unusableDatabase(config.dataDir, error) ?? error;
  });
  // Connections beyond what the descriptor limit leaves after archives and files are refused at
  // once (503, a few places of the budget kept for writing it), so a crowd of clients cannot
  // starve page reads of descriptors.
  const { cap, refusals } = connectionCap(connectionBudget());
  relieveConnectionPressure(app.server, cap, {
    refusals,
    onRefusing: (details) => app.log.warn(details, 'connections answered 503 (refused: how many since the last warning): the server holds as many as its descriptors allow'),
    onRefusalError: (error) => app.log.debug({ err: error }, 'a refused connection failed before its 503 was read'),
  });
  try {
    // With serving processes, each binds the port too (SO_REUSEPORT) and the kernel shares connections out.
    await app.listen(listenOptions(config.port, config.host, several));
  } catch (error) {
    await app.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ConfigError(`port ${config.port} on ${config.host} is already in use; choose another with --port or FOLIO_PORT`);
    if (code === 'EADDRNOTAVAIL') throw new ConfigError(`this machine has no address ${config.host}; choose another with --host or FOLIO_HOST`);
    if (code === 'EACCES') throw new ConfigError(`not allowed to listen on port ${config.port}; ports below 1024 need privileges, choose another with --port`);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // A wildcard bind is reachable on loopback; print an address a client can actually open.
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const urlHost = shownHost.includes(':') ? `[${shownHost}]` : shownHost;
  console.log(`Folio data directory: ${resolve(config.dataDir)}`);
  console.log(`Folio web client directory: ${resolve(config.clientDir)}`);
  console.log(`Folio bound to ${config.host} port ${port}`);
  const internal = several ? await listenInternally(app.server) : undefined;
  const serving = internal && startServingProcesses(config.servingProcesses - 1, port, internal.path, app.folio.logger);
  if (serving) {
    // "Listening" means every process answers: a client's first pages are already shared out.
    await serving.ready;
    app.log.info({ servingProcesses: config.servingProcesses - 1, pids: serving.pids() }, 'serving processes started: they answer pages and book posters, this one everything');
  }
  console.log(`Folio listening on http://${urlHost}:${port}${config.basePath}`);

  function shutdown(signal?: NodeJS.Signals) {
    app.log.info({ signal }, 'Folio stopping');
    // Requests in flight get a grace period; connections that never send a request (or clients
    // that stopped reading) must not keep the process alive past it. Running tasks get the same
    // (buildApp's taskShutdownGraceMs).
    setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    // Serving processes first: they hand requests to this one until they end.
    const servingStopped = serving ? serving.stop(SHUTDOWN_GRACE_MS) : Promise.resolve();
    servingStopped
      .then(() => internal?.close())
      .then(() => app.close())
      .then(
      () => process.exit(0),
      (error: unknown) => {
        // The log file may be closed already: stderr.
        console.error('Folio did not stop cleanly:', error);
        process.exit(1);
      },
    );
  }
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

/**
 * A serving process (README "Serving processes"), started by the primary with the port it bound
 * and its internal socket. It ends with the primary: when the primary's channel to it closes
 * (the primary ended, however), and on SIGTERM from the primary's own stop.
 */
async function serve(config: ReturnType<typeof readConfig>): Promise<void> {
  const index = Number(process.env[SERVING_PROCESS_ENV]);
  const app = await buildServingApp({
    index,
    primarySocket: process.env[PRIMARY_SOCKET_ENV] ?? '',
    dataDir: config.dataDir,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    basePath: config.basePath,
    logLevel: config.logLevel,
    logStdout: false,
  });
  // Its own descriptor limit, its own share: connections beyond what its archives and files leave are refused.
  const { cap, refusals } = connectionCap(connectionBudget());
  relieveConnectionPressure(app.server, cap, {
    refusals,
    onRefusing: (details) => app.log.warn(details, 'connections answered 503 (refused: how many since the last warning): the server holds as many as its descriptors allow'),
    onRefusalError: (error) => app.log.debug({ err: error }, 'a refused connection failed before its 503 was read'),
  });
  await app.listen(listenOptions(Number(process.env[SERVING_PORT_ENV]), config.host, true));
  app.log.info({ servingProcess: index, pid: process.pid }, 'serving process listening');
  process.send?.(READY_MESSAGE);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Folio serving process ${index} did not stop cleanly:`, error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  // Ctrl+C in a terminal signals the whole process group: the primary stops its serving processes
  // itself (SIGTERM), so one ending first is not taken for a crash and started again.
  process.on('SIGINT', () => app.log.debug('SIGINT left to the primary, which stops this process'));
}

/**
 * Fastify hands its listen options to node:net as they are; its types do not name `reusePort`
 * (Node 22.12+, Linux), which lets every Folio process bind the one port.
 */
function listenOptions(port: number, host: string, reusePort: boolean): FastifyListenOptions {
  return (reusePort ? { port, host, reusePort } : { port, host }) as FastifyListenOptions;
}

/** The data directory made if missing; one line naming it when it cannot be made or written. */
function usableDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigError(`the data directory ${resolve(dataDir)} cannot be created or written (${reason}); choose another with --data-dir or FOLIO_DATA_DIR`);
  }
}

/**
 * A database this Folio must not or cannot open, as one line naming the data directory: one
 * written by a newer Folio (opening it would damage it), one another Folio is serving, or a file
 * that is not a database.
 */
function unusableDatabase(dataDir: string, error: unknown): ConfigError | undefined {
  const where = `the data directory ${resolve(dataDir)}`;
  if (error instanceof SchemaTooNewError) return new ConfigError(`${where}: ${error.message}`);
  if (error instanceof DataDirInUseError) return new ConfigError(error.message);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new ConfigError(`${where} holds a folio.sqlite that is not a usable database (${code}); restore it from a backup or choose another with --data-dir`);
  }
  return undefined;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    // A setting to change, not a bug: one line, and where to look.
    console.error(`Folio failed to start: ${error.message}\nRun node server/main.ts --help for the options.`);
    process.exit(2);
  }
  console.error('Folio failed to start:', error);
  process.exit(1);
});

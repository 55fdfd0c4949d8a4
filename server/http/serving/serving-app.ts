import { createServer } from 'node:http';
import { resolve } from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { noticeForeignWrites } from '../../db/foreign-writes.ts';
import { createServingContext } from '../../domain/create-context.ts';
import { NeedsPrimary } from '../../domain/needs-primary.ts';
import { createAppLogger } from '../../logging.ts';
import type { AppOptions } from '../app.ts';
import { createServingAuthHook } from '../auth/serving-auth.ts';
import { registerContentGuard } from '../content-guard.ts';
import { registerCsrfGuard } from '../csrf.ts';
import { handleError } from '../errors.ts';
import { createHttpApp } from '../http-app.ts';
import { trustProxyFunction } from '../public-origin.ts';
import { BOOK_POSTER_URLS, registerBookPosterRoutes } from '../routes/book-poster-routes.ts';
import { registerPageBytesRoutes } from '../routes/page-routes.ts';
import { createForwarder } from './forward.ts';
import { servedHere } from './served-here.ts';

export interface ServingAppOptions extends AppOptions {
  /** 1, 2, … : names the process in its log file and in the `Folio-Process` header. */
  index: number;
  /** The primary's internal socket (internal-socket.ts). */
  primarySocket: string;
}

/** SQLite refusing a write on a read-only connection: work nobody marked as the primary's. */
const isReadOnlyRefusal = (error: unknown) => (error as { code?: unknown } | null)?.code === 'SQLITE_READONLY';

/**
 * A serving process (README "Serving processes"): the same HTTP policy as the primary
 * (http-app.ts), the same authentication policy where it only reads (serving-auth.ts), the same
 * content guard and the same page and poster routes, over the primary's database opened read-only.
 * Every other request is handed to the primary whole (forward.ts), and so is one of these that
 * turns out to need it (NeedsPrimary: a poster to draw, a RAR book, a session to refresh).
 */
export async function buildServingApp(options: ServingAppOptions): Promise<FastifyInstance> {
  const dataDir = resolve(options.dataDir);
  const { logger, close: closeLog } = createAppLogger(dataDir, options.logLevel ?? 'info', { stdout: options.logStdout, fileName: `folio-serving-${options.index}.log` });
  const trustsProxy = trustProxyFunction(options.trustProxy);
  const processName = `serving-${options.index}`;
  const forwarder = createForwarder(options.primarySocket, trustsProxy, logger, processName);
  const isServedHere = servedHere(options.basePath ?? '');

  function toPrimary(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
    if (!(error instanceof NeedsPrimary) && !isReadOnlyRefusal(error)) return handleError(error, request, reply);
    // A write nobody marked as the primary's is a gap to close (needs-primary.ts), but the client
    // still gets its answer.
    if (error instanceof NeedsPrimary) request.log.debug({ reason: error.message }, 'handed to the primary');
    else request.log.warn({ err: error, url: request.url }, 'a serving process met a write it cannot make: the primary answers the request');
    reply.hijack();
    forwarder.forward(request.raw, reply.raw);
  }

  const app = await createHttpApp(options, logger, {
    trustsProxy,
    errorHandler: toPrimary,
    // Requests this process does not answer go to the primary before Fastify parses anything.
    serverFactory: (handler, fastifyOptions: FastifyServerOptions & { http?: object; keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number }) => {
      const server = createServer(fastifyOptions.http ?? {}, (request, response) => {
        if (isServedHere(request)) {
          response.setHeader('Folio-Process', processName);
          handler(request, response);
        } else {
          forwarder.forward(request, response);
        }
      });
      if (fastifyOptions.keepAliveTimeout !== undefined) server.keepAliveTimeout = fastifyOptions.keepAliveTimeout;
      if (fastifyOptions.requestTimeout !== undefined) server.requestTimeout = fastifyOptions.requestTimeout;
      server.setTimeout(fastifyOptions.connectionTimeout ?? 0);
      return server;
    },
  });
  const ctx = createServingContext({ dataDir, logger, archivePool: options.archivePool });
  app.decorate('folio', ctx);
  // Before anything is looked up: the primary's commits since the last request (foreign-writes.ts).
  app.addHook('onRequest', (_request, _reply, done) => {
    noticeForeignWrites(ctx.db);
    done();
  });
  app.addHook('onRequest', createServingAuthHook(ctx));
  registerCsrfGuard(app, options.corsOrigins ?? []);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  registerContentGuard(typed, ctx);
  registerPageBytesRoutes(typed, ctx);
  // The small OPDS poster is redrawn from a chosen one: the primary's decoding.
  registerBookPosterRoutes(typed, ctx, BOOK_POSTER_URLS.filter((url) => !url.endsWith('/small')));
  app.setNotFoundHandler((request, reply) => {
    reply.hijack();
    forwarder.forward(request.raw, reply.raw);
  });
  app.addHook('onClose', async () => {
    forwarder.close();
    ctx.archives.closeAll();
    ctx.db.close();
    await closeLog();
  });
  return app;
}

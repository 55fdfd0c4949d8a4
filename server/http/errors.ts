import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { SearchConditionError } from '../db/search/conditions.ts';
import type { DatabaseUnavailable } from '../db/database-unavailable.ts';
import { noteDatabaseFailure } from '../db/lock-refusal.ts';
import { MediaError } from '../media/book-reader.ts';
import { OperationTimeout, RecentlyTimedOut, ServerBusy, isTransientFailure } from '../media/transient-errors.ts';
import { PosterUnreadable } from '../domain/posters/chosen-poster.ts';
import { StorageUnwritable } from '../fs-errors.ts';
import { formatDateTime } from './format.ts';
import { loggableUrl } from './request-log.ts';

/** An error that maps to a Spring-style JSON error response. */
export class HttpError extends Error {
  readonly status: number;
  /** Seconds the client is asked to wait before trying again (the Retry-After header), if any. */
  readonly retryAfterSeconds: number | undefined;
  constructor(status: number, message: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message = 'Not Found') => new HttpError(404, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);

/** The first values of a list an error names ("a, b, c and 99,997 more"): a batch may hold 100,000. */
export function namedFew(values: readonly string[], few = 20): string {
  const named = values.slice(0, few).join(', ');
  return values.length > few ? `${named} and ${(values.length - few).toLocaleString('en')} more` : named;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Seconds a client is asked to wait when the disk is full (as SQLite's SQLITE_FULL, db/database-unavailable.ts). */
const STORAGE_RETRY_AFTER_SECONDS = 60;

/** Spring Boot's error body: {timestamp, status, error, message, path}; `path` as the client asked for it (the base path included, as Spring's context path is). */
export function errorBody(status: number, message: string, path: string) {
  return {
    timestamp: formatDateTime(Date.now()),
    status,
    error: REASONS[status] ?? 'Error',
    message,
    path: path.split('?')[0] ?? path,
  };
}

export function sendError(reply: FastifyReply, request: FastifyRequest, status: number, message: string) {
  return reply.code(status).type('application/json').send(errorBody(status, message, request.originalUrl));
}

/** Seconds a client is asked to wait when the server is short of descriptors or memory. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * Failures of reading a book, wherever a route meets them: the server being busy (no free archive
 * handle, out of descriptors, a time limit) is 503 with Retry-After, never a 404 for a page that
 * exists; a file gone is 404; a damaged file or entry is 422 with its Komga error code.
 */
function sendMediaFailure(error: Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof RecentlyTimedOut) {
    // Said plainly: the reader shows why this page is missing, and asking again soon changes nothing.
    request.log.warn({ err: error, retryAfterSeconds: error.retryAfterSeconds }, 'book read refused for a while: it ran out of time');
    reply.header('Retry-After', String(error.retryAfterSeconds));
    return sendError(reply, request, 503, `This content took longer than the ${error.limitMs} ms allowed to read and is refused for a while; try again later`);
  }
  if (error instanceof OperationTimeout) {
    request.log.warn({ err: error }, 'book read ran out of time');
    reply.header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
    return sendError(reply, request, 503, `Reading this content took longer than the ${error.limitMs} ms allowed; try again later`);
  }
  if (isTransientFailure(error)) {
    const seconds = error instanceof ServerBusy ? error.retryAfterSeconds : BUSY_RETRY_AFTER_SECONDS;
    request.log.warn({ err: error }, 'book read deferred: server busy');
    reply.header('Retry-After', String(seconds));
    return sendError(reply, request, 503, 'Server busy, try again shortly');
  }
  const media = error as MediaError;
  if (media.code === 'ERR_1000' || media.code === 'ERR_1018') return sendError(reply, request, 404, `File not found (${media.code})`);
  request.log.warn({ err: error }, 'book content cannot be read');
  return sendError(reply, request, 422, `Book content cannot be read (${media.code}): ${media.message}`);
}

/** A chosen poster that cannot be read now (chosen-poster.ts): nothing was changed for it. */
function sendPosterFailure(error: PosterUnreadable, request: FastifyRequest, reply: FastifyReply) {
  request.log.warn({ err: error }, 'selected poster not served: it cannot be read now');
  if (!error.retryable) return sendError(reply, request, 500, error.message);
  const cause = error.cause;
  reply.header('Retry-After', String(cause instanceof ServerBusy ? cause.retryAfterSeconds : BUSY_RETRY_AFTER_SECONDS));
  return sendError(reply, request, 503, error.message);
}

/**
 * The database could not take the request's write now (another process's lock, a full disk):
 * nothing of it was stored, and the same request can succeed later, so 503 with Retry-After rather
 * than a 500 the client would give up on. A full disk is an error for the administrator to see.
 */
function sendDatabaseUnavailable(unavailable: DatabaseUnavailable, error: Error, request: FastifyRequest, reply: FastifyReply) {
  const req = { method: request.method, url: loggableUrl(request.originalUrl) };
  if (unavailable.reason === 'full') request.log.error({ err: error, req }, 'request not saved: the disk holding the database is full');
  else request.log.warn({ err: error, req }, 'request not saved: another process holds the database locked');
  reply.header('Retry-After', String(unavailable.retryAfterSeconds));
  const why = unavailable.reason === 'full' ? 'the server is out of disk space' : 'the database is busy';
  return sendError(reply, request, 503, `Not saved: ${why}; try again later`);
}

/**
 * A file the request asked to store that the data folder cannot take (fs-errors.ts): answered as a
 * full database is, 503 with Retry-After, saying which: out of room, or a folder the server cannot
 * write (read-only, permissions, a file in the way). Nothing of the request was kept.
 */
function sendStorageUnwritable(error: StorageUnwritable, request: FastifyRequest, reply: FastifyReply) {
  request.log.error({ err: error, req: { method: request.method, url: loggableUrl(request.originalUrl) } }, 'request not saved: the data folder cannot be written');
  reply.header('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
  const why = error.full ? 'the server is out of disk space' : 'the server cannot write its data folder';
  return sendError(reply, request, 503, `Not saved: ${why}; try again later`);
}

/** Fastify error handler: every failure leaves as a Spring-shaped JSON error. */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
    return sendError(reply, request, error.status, error.message);
  }
  // A search written wrongly is the caller's mistake wherever it was searched from (lists, OPDS, lists of lists).
  if (error instanceof SearchConditionError) return sendError(reply, request, 400, error.message);
  if (error instanceof PosterUnreadable) return sendPosterFailure(error, request, reply);
  if (error instanceof StorageUnwritable) return sendStorageUnwritable(error, request, reply);
  if (error instanceof MediaError || isTransientFailure(error)) return sendMediaFailure(error, request, reply);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    // Request schemas (schemas.ts): Spring's error body with Komga's violations list.
    const violations = (error as { violations?: unknown[] }).violations ?? [];
    return reply
      .code(400)
      .type('application/json')
      .send({ ...errorBody(400, `Validation failed: ${fastifyError.message}`, request.originalUrl), violations });
  }
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) return sendError(reply, request, status, fastifyError.message);
  // A lock held by another process also makes the next writes refuse at once (lock-refusal.ts).
  const unavailable = noteDatabaseFailure(request.server.folio.db, error);
  if (unavailable) return sendDatabaseUnavailable(unavailable, error, request, reply);
  request.log.error({ err: error, req: { method: request.method, url: loggableUrl(request.originalUrl) } }, 'request failed');
  return sendError(reply, request, 500, 'Internal Server Error');
}

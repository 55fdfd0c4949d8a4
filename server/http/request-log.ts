import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from '../logging.ts';

/**
 * Query parameters whose values are secrets or one-time credentials (an OAuth2 callback's `code`
 * and `state`, tokens, keys, passwords): their values never reach the log.
 */
const SECRET_PARAM = /(^|[-_])(code|state|key|auth|session|sessionid|signature|sig)$|^apikey$|token|secret|passw/i;

/** The request URL as logged: path and parameter names kept, secret values replaced. */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      return eq >= 0 && SECRET_PARAM.test(decodeName(name)) ? `${name}=[redacted]` : part;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch (error) {
    // A malformed escape: judge the name as written.
    if (error instanceof URIError) return name;
    throw error;
  }
}

/**
 * What a log line says of a request: method, URL without secret values, host and client. Shaped
 * for Fastify's `req` serializer, which logs `ip` as remoteAddress (with --trust-proxy, the client
 * behind the proxy).
 */
const requestFields = (request: FastifyRequest) => ({ method: request.method, url: loggableUrl(request.originalUrl), host: request.host, ip: request.ip });

/**
 * Fastify's request logging, reshaped for operators: one info line per answered request (Fastify
 * writes an "incoming" line too), and every line that names a request names it without the
 * secret values its query may carry (Fastify's would log an OAuth2 callback's code). The other
 * lines (stream errors) stay Fastify's. `--log-level warn` leaves requests out altogether.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {
    // The completed line says all of it, with the status and time.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // At --log-level warn every answered request ends here: build nothing the level drops.
    if (!error && !(reply.log as Logger).isLevelEnabled('info')) return;
    const fields = { req: requestFields(request), res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    const fields = { req: requestFields(request), res: { statusCode: reply.statusCode }, err: error };
    if (reply.statusCode >= 500) reply.log.error(fields, error.message);
    else reply.log.info(fields, error.message);
  }

  override routeNotFound(): void {
    // The completed line says 404 with the URL already made safe to log.
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    reply.log.warn({ req: requestFields(request), res: { statusCode: reply.statusCode }, err: error }, error.message);
  }
}

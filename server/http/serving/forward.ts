import { Agent, type IncomingMessage, type ServerResponse, request as httpRequest } from 'node:http';
import { pipeline } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { errorBody } from '../errors.ts';

/**
 * A serving process hands a request to the primary (README "Serving processes") over the primary's
 * internal socket, streaming both ways: the body as it arrives (uploads), the answer as it is
 * written (event streams, downloads). The primary answers it as it would a client of its own: the
 * client's address goes in X-Forwarded-For, which the primary reads from this socket only
 * (internal-socket.ts), and the other X-Forwarded-* headers are kept only when this process's
 * trust-proxy setting trusts the client's peer, so the primary decides with the same setting the
 * serving process would have.
 */

/** Headers of one hop only (RFC 9110 §7.6.1), never passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authenticate', 'proxy-authorization']);
const FORWARDED = new Set(['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-forwarded-prefix']);
/** Methods a request may be sent again for when a kept-alive socket turned out closed before any answer. */
const RESENDABLE = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface Forwarder {
  forward(request: IncomingMessage, response: ServerResponse): void;
  close(): void;
}

/**
 * `processName` goes in the `Folio-Process` header of every answer handed back (`serving-1>primary`),
 * so an operator or a test can tell which process took the connection and who answered.
 */
export function createForwarder(socketPath: string, trustsPeer: (address: string, hop: number) => boolean, logger: FastifyBaseLogger, processName: string): Forwarder {
  // Kept-alive sockets to the primary, closed when idle for 30 s, well before the primary's 72 s.
  // Not capped: each holds one client request in flight, and clients are capped by this process's
  // connection budget (connection-pressure.ts).
  const agent = new Agent({ keepAlive: true, maxFreeSockets: 64, timeout: 30_000 });

  function headersFor(request: IncomingMessage): string[] {
    const peer = request.socket.remoteAddress ?? '';
    const trusted = peer !== '' && trustsPeer(peer, 0);
    const headers: string[] = [];
    let forwardedFor: string | undefined;
    const raw = request.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (HOP_BY_HOP.has(name)) continue;
      if (FORWARDED.has(name)) {
        if (!trusted) continue;
        if (name === 'x-forwarded-for') {
          forwardedFor = forwardedFor === undefined ? raw[i + 1]! : `${forwardedFor}, ${raw[i + 1]!}`;
          continue;
        }
      }
      headers.push(raw[i]!, raw[i + 1]!);
    }
    headers.push('X-Forwarded-For', forwardedFor === undefined ? peer : `${forwardedFor}, ${peer}`);
    return headers;
  }

  function send(request: IncomingMessage, response: ServerResponse, headers: string[], attempt: number): void {
    // A request without a body is ended at once: the stream of one already routed here may have
    // ended unread, and a pipe from it would never end the upstream request.
    const hasBody = request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
    // As the client wrote it: Fastify's base-path rewrite (base-path.ts) replaced `url` with the path
    // under it, and the primary rewrites for itself.
    const path = (request as IncomingMessage & { originalUrl?: string }).originalUrl ?? request.url;
    const upstream = httpRequest({ socketPath, agent, method: request.method, path, headers, setHost: false });
    let answered = false;
    upstream.on('response', (answer) => {
      answered = true;
      const passed: string[] = [];
      const raw = answer.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) {
        if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) passed.push(raw[i]!, raw[i + 1]!);
      }
      // Headers this process set before it handed the request on (its name, hooks' headers) are not the primary's answer.
      for (const name of response.getHeaderNames()) response.removeHeader(name);
      passed.push('Folio-Process', `${processName}>primary`);
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, passed);
      // An event stream's comments and a page's bytes go out as they come.
      response.flushHeaders();
      pipeline(answer, response, (error) => {
        if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.debug({ err: error, url: request.url }, 'a forwarded answer ended early');
      });
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      // A kept-alive socket the primary closed as it was reused: nothing was read, send it again once.
      if (upstream.reusedSocket && error.code === 'ECONNRESET' && attempt === 0 && !hasBody && RESENDABLE.has(request.method ?? '')) {
        send(request, response, headers, 1);
        return;
      }
      logger.error({ err: error, method: request.method, url: request.url }, 'a serving process could not hand a request to the primary');
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '5' });
      response.end(JSON.stringify(errorBody(503, 'Service Unavailable', request.url ?? '/')));
    });
    // A client gone before its answer: the primary stops too (an event stream, a download).
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    if (attempt > 0 || !hasBody) upstream.end();
    else request.pipe(upstream);
  }

  return {
    forward(request, response) {
      send(request, response, headersFor(request), 0);
    },
    close() {
      agent.destroy();
    },
  };
}

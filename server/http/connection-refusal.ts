import type { Socket } from 'node:net';
import { BUSY_RETRY_AFTER_SECONDS, errorBody } from './errors.ts';

/**
 * How long a refused connection is kept after its answer is written, waiting for the client to
 * close its side. Closing a socket whose request is still unread makes the kernel send a reset,
 * and a client that gets the reset before it has read the answer loses the answer too; a client
 * that read it closes at once (the answer says Connection: close), so this is the bound for one
 * that never does.
 */
export const REFUSAL_LINGER_MS = 2_000;

/** Share of the connection budget kept for writing refusals, within [2, 64]. */
export function refusalSlots(budget: number): number {
  return Math.max(2, Math.min(64, Math.floor(budget / 16)));
}

function refusalResponse(): string {
  const body = JSON.stringify(errorBody(503, 'Server busy: too many connections, try again shortly', ''));
  return [
    'HTTP/1.1 503 Service Unavailable',
    `Retry-After: ${BUSY_RETRY_AFTER_SECONDS}`,
    'Connection: close',
    'Cache-Control: no-store',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

/**
 * Answers a connection the server has no place for with a 503 and closes it. Its request is never
 * parsed (the HTTP parser is not attached, see connection-pressure.ts): the answer is written as
 * soon as the connection comes, and whatever the client sends is drained unread until it closes
 * or `lingerMs` passes. `lingerMs: 0` closes at once, the answer handed to the kernel: the
 * descriptor is free again before the next connection is accepted, but a request already received
 * and unread turns the close into a reset that may take the answer with it (the lingering places
 * are few, so a burst past them is answered this way rather than reset unanswered).
 */
export function refuseConnection(socket: Socket, options: { lingerMs?: number; onError?: (error: Error) => void } = {}): void {
  // A client gone before the answer (a reset, a broken pipe) has nothing left to be told.
  socket.on('error', (error) => {
    options.onError?.(error);
    socket.destroy();
  });
  const lingerMs = options.lingerMs ?? REFUSAL_LINGER_MS;
  if (lingerMs <= 0) {
    socket.end(refusalResponse());
    socket.destroy();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.resume();
  socket.end(refusalResponse());
}

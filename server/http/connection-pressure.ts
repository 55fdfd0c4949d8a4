import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Keeps room for new connections under the connection cap (`server.maxConnections`, set from the
 * descriptor budget). Past the cap Node refuses a new connection by resetting it, even when most
 * of the open ones are idle keep-alive sockets waiting out their timeout (Fastify keeps them 72 s):
 * a browser holds up to six per host and OkHttp five, so a few hundred readers' idle sockets filled
 * the cap and the next reader's thumbnails and lists failed with a reset. When the open connections
 * come near the cap, the idle ones are closed; a client reopens one when it next needs it (browsers
 * and HTTP clients retry a request whose kept-alive socket was closed before it was sent).
 */
const RELIEF_INTERVAL_MS = 1000;

export function relieveConnectionPressure(server: Server, cap: number): void {
  // Act a little before the cap, so the connection that arrives next is not the one refused.
  const highWater = Math.max(1, cap - Math.max(4, Math.floor(cap / 16)));
  let open = 0;
  let lastRelief = -Infinity;
  server.on('connection', (socket: Socket) => {
    open++;
    socket.once('close', () => open--);
    // One sweep frees every idle socket at once; sweeping again on each newcomer while the crowd
    // stays near the cap would keep closing sockets their clients were about to reuse (a client
    // that sends on a socket the server just closed sees "other side closed" unless it retries).
    const now = performance.now();
    if (open < highWater || now - lastRelief < RELIEF_INTERVAL_MS) return;
    lastRelief = now;
    server.closeIdleConnections();
  });
}

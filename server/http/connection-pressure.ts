import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Keeps room for new connections under the connection cap (`server.maxConnections`, set from the
 * descriptor budget). Past the cap Node refuses a new connection by resetting it, even when most
 * of the open ones are idle keep-alive sockets waiting out their timeout (Fastify keeps them 72 s):
 * a browser holds up to six per host and OkHttp five, so a few hundred readers' idle sockets filled
 * the cap and the next reader's thumbnails and lists failed with a reset.
 *
 * When fewer than two places are left under the cap (a connection arrives, or a response ends, or
 * one was refused), idle sockets are closed, the longest idle first, until a margin is free again. Only as many as needed, and never sooner:
 * closing every idle socket whenever the crowd came near the cap also closed sockets their clients
 * were about to reuse, and a client that sends on a socket the server has just closed sees a reset
 * unless it retries (Node's fetch does not). A socket counts as idle once its last response has
 * ended; a connection that has not sent its first request yet is not idle.
 */
export function relieveConnectionPressure(server: Server, cap: number): void {
  const trigger = Math.max(1, cap - 2);
  const target = Math.max(1, cap - Math.max(4, Math.floor(cap / 16)));
  let open = 0;
  /** Idle sockets; a Map iterates in insertion order, so the longest idle comes first. */
  const idle = new Map<Socket, true>();
  const inFlight = new Map<Socket, number>();
  const evicted = new WeakSet<Socket>();

  server.on('connection', (socket: Socket) => {
    open++;
    socket.once('close', () => {
      if (!evicted.has(socket)) open--;
      idle.delete(socket);
      inFlight.delete(socket);
    });
    if (open >= trigger) evictIdle(open - target);
  });

  server.on('request', (request, response) => {
    const socket = request.socket;
    idle.delete(socket);
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      if (left > 0) return void inFlight.set(socket, left);
      inFlight.delete(socket);
      if (socket.destroyed) return;
      idle.set(socket, true);
      // A crowd that filled the cap while every socket was busy leaves no connection event to act
      // on: Node refuses the next connection before announcing it. Make the room as sockets go idle.
      if (open >= trigger) evictIdle(open - target);
    });
  });

  // A connection refused at the cap: make room for the next one.
  server.on('drop', () => evictIdle(open - target));

  function evictIdle(count: number): void {
    for (const socket of idle.keys()) {
      if (count <= 0) return;
      idle.delete(socket);
      evicted.add(socket);
      open--;
      count--;
      socket.destroy();
    }
  }
}

import type { Server } from 'node:http';
import { type Socket, isIP } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { addressGroup } from './auth/address-group.ts';
import { servedConnectionCap } from './connection-pressure.ts';

/**
 * Connections one client address (an IPv6 /64, address-group.ts) may hold at once: a quarter of what
 * the server serves in all (its connection cap, connection-pressure.ts; else server.maxConnections),
 * and never fewer than 256. The bound keeps one address from taking every connection; it must not
 * refuse a real crowd behind one address: a household or office behind one NAT, a carrier's shared IPv4 address, a
 * load test run from another machine (a browser opens six per server, a tab's event stream one more,
 * a reader app a handful each).
 */
export const MIN_CONNECTIONS_PER_ADDRESS = 256;

export function connectionsPerAddress(serverMaxConnections: number | null | undefined): number {
  const total = serverMaxConnections && Number.isFinite(serverMaxConnections) && serverMaxConnections > 0 ? serverMaxConnections : 0;
  return Math.max(MIN_CONNECTIONS_PER_ADDRESS, Math.floor(total / 4));
}

export interface ConnectionLimitOptions {
  /** Fixed bound (tests); otherwise connectionsPerAddress() of the server's connection cap when a connection comes. */
  max?: number;
  /** Addresses not counted: loopback and trusted proxies, whose connections are many clients'. */
  exempt: (address: string) => boolean;
  logger: FastifyBaseLogger;
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopback(address: string): boolean {
  const plain = address.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

/**
 * Bounds the connections each client address holds. The server accepts only so many at once
 * (its connection cap, from the descriptor limit), and without this one address could hold them
 * all without sending a request: idle keep-alive connections last 72 s, headers sent a byte at a
 * time 60 s, and reopening them as they close kept everyone else out. A connection past the bound
 * is closed as soon as it is accepted; the address is logged once until it is back under it.
 */
export function limitConnectionsPerAddress(server: Server, options: ConnectionLimitOptions): void {
  const open = new Map<string, number>();
  const refusing = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (options.exempt(address)) return;
    const group = addressGroup(address);
    const count = open.get(group) ?? 0;
    const max = options.max ?? connectionsPerAddress(servedConnectionCap(server) ?? server.maxConnections);
    if (count >= max) {
      if (!refusing.has(group)) {
        refusing.add(group);
        options.logger.warn({ address, max }, 'connections refused: this client address holds as many as one address may');
      }
      socket.destroy();
      return;
    }
    open.set(group, count + 1);
    socket.once('close', () => {
      const left = (open.get(group) ?? 1) - 1;
      if (left > 0) open.set(group, left);
      else open.delete(group);
      if (left < (options.max ?? connectionsPerAddress(servedConnectionCap(server) ?? server.maxConnections))) refusing.delete(group);
    });
  });
}

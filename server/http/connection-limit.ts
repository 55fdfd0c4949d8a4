import type { Server } from 'node:http';
import { type Socket, isIP } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { addressGroup } from './auth/address-group.ts';

/**
 * Connections one client address (an IPv6 /64, address-group.ts) may hold at once. A browser
 * opens six per server, a tab's event stream one more, a reader app a handful: a household behind
 * one address stays well under it.
 */
export const MAX_CONNECTIONS_PER_ADDRESS = 64;

export interface ConnectionLimitOptions {
  max: number;
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
 * (server.maxConnections, from the descriptor limit), and without this one address could hold them
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
    if (count >= options.max) {
      if (!refusing.has(group)) {
        refusing.add(group);
        options.logger.warn({ address, max: options.max }, 'connections refused: this client address holds as many as one address may');
      }
      socket.destroy();
      return;
    }
    open.set(group, count + 1);
    socket.once('close', () => {
      const left = (open.get(group) ?? 1) - 1;
      if (left > 0) open.set(group, left);
      else open.delete(group);
      if (left < options.max) refusing.delete(group);
    });
  });
}

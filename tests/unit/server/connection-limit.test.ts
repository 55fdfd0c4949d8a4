import { type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../support/poll.ts';
import { startServer, type TestServer } from './helpers.ts';
import { MIN_CONNECTIONS_PER_ADDRESS, connectionsPerAddress } from '../../../server/http/connection-limit.ts';

/*
 * One client address holding every connection the server accepts (server.maxConnections, from the
 * descriptor limit): idle keep-alive connections (72 s each) or headers sent a byte at a time
 * (60 s), reopened as they are closed, left no connection for anybody else. Each address (an IPv6
 * /64) may now hold a bounded number; loopback and trusted proxies, which speak for many clients,
 * are not counted.
 */
let server: TestServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

async function listening(s: TestServer): Promise<number> {
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  return (s.app.server.address() as AddressInfo).port;
}

/** A TCP connection, once established. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => resolve(socket));
    socket.once('error', reject);
    sockets.push(socket);
  });
}

/** The status line of a request sent on this connection, or 'closed' when the server closed it unanswered. */
function ask(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n')) resolve(text.split('\r\n')[0]!);
    });
    socket.once('close', () => resolve(text ? text.split('\r\n')[0]! : 'closed'));
    socket.write('GET /api/v1/claim HTTP/1.1\r\nHost: folio\r\n\r\n');
  });
}

describe('connections per client address', () => {
  it('past the limit are closed at once, and one closed makes room again', async () => {
    server = await startServer({ connectionsPerAddress: { max: 4, exemptLoopback: false } });
    const port = await listening(server);
    const held = await Promise.all([0, 1, 2, 3].map(() => open(port)));
    // Before: the fifth was accepted and answered like the others.
    const fifth = await open(port);
    expect(await ask(fifth)).toBe('closed');
    expect(await ask(held[0]!)).toBe('HTTP/1.1 200 OK');
    held[1]!.destroy();
    await pollUntil('a connection to be accepted again once one was closed', async () => (await ask(await open(port))) === 'HTTP/1.1 200 OK');
  });

  it('are not counted for loopback by default (a reverse proxy on the same machine speaks for everyone)', async () => {
    server = await startServer({ connectionsPerAddress: { max: 2 } });
    const port = await listening(server);
    const many = await Promise.all([0, 1, 2, 3, 4].map(() => open(port)));
    expect(await Promise.all(many.map(ask))).toEqual(many.map(() => 'HTTP/1.1 200 OK'));
  });

  it('by default let a crowd behind one address in: a quarter of what the server accepts, at least 256', () => {
    // A bound of 64 refused a load test of 128 readers from one machine and a carrier's shared address.
    expect(connectionsPerAddress(14_936)).toBe(3_734);
    expect(connectionsPerAddress(704)).toBe(MIN_CONNECTIONS_PER_ADDRESS);
    expect(connectionsPerAddress(Infinity)).toBe(MIN_CONNECTIONS_PER_ADDRESS);
    expect(connectionsPerAddress(null)).toBe(MIN_CONNECTIONS_PER_ADDRESS);
    expect(MIN_CONNECTIONS_PER_ADDRESS).toBeGreaterThanOrEqual(256);
  });
});

import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionPressureOptions, relieveConnectionPressure, servedConnectionCap } from '../../../server/http/connection-pressure.ts';
import { pollUntil } from '../../support/poll.ts';

/*
 * Idle keep-alive sockets are closed to make room near the connection cap, but only as many as
 * needed and only at the cap: a sweep of every idle socket whenever the crowd came near it also
 * closed the socket a client was about to reuse, which that client saw as a reset (Node's fetch
 * does not retry): CI's stalled-downloads test failed that way.
 */
const CAP = 16;
let server: Server | undefined;
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Responses to /gate wait here until the test opens the gate. */
let gate: (() => void)[] = [];
/** Requests the server's handler saw, by path. */
let seen: string[] = [];
async function start(options?: ConnectionPressureOptions): Promise<number> {
  gate = [];
  seen = [];
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    // /hold never answers: a download whose reader stopped reading.
    if (req.url === '/hold') return;
    if (req.url === '/gate') return void gate.push(() => res.end('ok'));
    res.end('ok');
  });
  relieveConnectionPressure(server, CAP, options);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function get(port: number, path: string, agent: Agent | false): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', (error) => resolve((error as NodeJS.ErrnoException).code ?? String(error)));
    req.end();
  });
}

/**
 * One request on a raw connection of its own: everything the server wrote before closing it, or the
 * error that ended it (a reset: ECONNRESET).
 */
function rawGet(port: number, path: string): Promise<{ text: string } | { error: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('end', () => {
      socket.end();
      resolve({ text: Buffer.concat(chunks).toString('latin1') });
    });
    socket.once('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? String(error) }));
  });
}

function openConnections(s: Server): Promise<number> {
  return new Promise((resolve, reject) => s.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

describe('connection pressure', () => {
  it('leaves a kept-alive socket alone while places remain under the cap', async () => {
    const port = await start();
    const reader = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(reader);
    expect(await get(port, '/', reader)).toBe(200);
    // Stalled downloads fill the server up to three places under the cap…
    const holders = new Agent({ keepAlive: true, maxSockets: Infinity });
    agents.push(holders);
    for (let i = 0; i < CAP - 4; i++) void get(port, '/hold', holders);
    await pollUntil('the stalled downloads to be connected', async () => (await openConnections(server!)) === CAP - 3);
    // …and the reader's idle socket is still open: its next request goes out on it and is answered
    // (before: every newcomer near the cap closed it, and the reuse was reset).
    expect(Object.values(reader.freeSockets).flat()).toHaveLength(1);
    expect(await get(port, '/', reader)).toBe(200);
  });

  it('at the cap closes the longest idle sockets, as many as needed, so a newcomer gets in', async () => {
    const port = await start();
    const crowd = new Agent({ keepAlive: true, maxSockets: Infinity });
    agents.push(crowd);
    const codes = await Promise.all(Array.from({ length: CAP - 2 }, () => get(port, '/', crowd)));
    expect(codes).toEqual(codes.map(() => 200));
    const newcomers = await Promise.all(Array.from({ length: 4 }, () => get(port, '/', false)));
    expect(newcomers).toEqual([200, 200, 200, 200]);
    // Only some of the crowd's idle sockets went, not all of them.
    expect(Object.values(crowd.freeSockets).flat().length).toBeGreaterThan(0);
  });

  it('makes room when a crowd that filled the cap while busy goes idle', async () => {
    const port = await start();
    const crowd = new Agent({ keepAlive: true, maxSockets: Infinity });
    agents.push(crowd);
    // Every place taken by a request still being answered: no socket is idle when they arrive.
    const answered = Promise.all(Array.from({ length: CAP }, () => get(port, '/gate', crowd)));
    await pollUntil('the crowd to hold every place', async () => gate.length === CAP);
    for (const open of gate.splice(0)) open();
    expect(await answered).toEqual(Array.from({ length: CAP }, () => 200));
    // Before: Node refused the newcomers at the cap without a connection event to act on.
    expect(await Promise.all(Array.from({ length: 3 }, () => get(port, '/', false)))).toEqual([200, 200, 200]);
  });

  it('at the cap closes connections that have sent no whole request for long, so a newcomer gets in', async () => {
    const port = await start({ slowStartMs: 200 });
    // A slow-headers crowd (slowloris) takes every place: each sends the start of a request and
    // never its end, so no socket ever goes idle (before: every newcomer was reset for as long as
    // the crowd kept its sockets open, a minute per socket, or for ever by reopening them).
    const slow: Socket[] = [];
    for (let i = 0; i < CAP; i++) {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
      socket.on('error', () => undefined);
      slow.push(socket);
    }
    try {
      await pollUntil('the slow crowd to hold every place', async () => (await openConnections(server!)) === CAP);
      // A newcomer is refused until the crowd's requests are older than the lowered limit, then let in.
      await pollUntil('a newcomer answered', async () => (await get(port, '/', false)) === 200, { timeoutMs: 10_000 });
      // The crowd's oldest went, not every one.
      expect(slow.filter((socket) => !socket.destroyed && !socket.closed).length).toBeGreaterThan(0);
    } finally {
      for (const socket of slow) socket.destroy();
    }
  });

  it('answers a connection past the cap 503 with Retry-After, without reading its request, and serves again once places free', async () => {
    const port = await start();
    // Every place taken and none may be closed: half by requests still being answered, half by
    // connections that have not sent a request yet (younger than the slow-start limit).
    const crowd = new Agent({ keepAlive: true, maxSockets: Infinity });
    agents.push(crowd);
    const answered = Promise.all(Array.from({ length: CAP / 2 }, () => get(port, '/gate', crowd)));
    const quiet: Socket[] = [];
    for (let i = 0; i < CAP / 2; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      quiet.push(socket);
    }
    try {
      await pollUntil('the crowd to hold every place', async () => gate.length === CAP / 2 && (await openConnections(server!)) === CAP);
      // Before: Node reset the newcomer (ECONNRESET), no answer.
      const refused = await rawGet(port, '/refused');
      expect(refused).toHaveProperty('text');
      const text = (refused as { text: string }).text;
      expect(text).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(text).toMatch(/\r\nRetry-After: \d+\r\n/);
      expect(text).toMatch(/\r\nConnection: close\r\n/);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 503 });
      // The refused connection took no place: every busy request is still waiting.
      expect(gate).toHaveLength(CAP / 2);
    } finally {
      for (const socket of quiet) socket.destroy();
      for (const open of gate.splice(0)) open();
    }
    expect(await answered).toEqual(Array.from({ length: CAP / 2 }, () => 200));
    // Places free again: a newcomer is served. The refused request was never routed (its handler
    // would have run long before this answer).
    expect(await get(port, '/', false)).toBe(200);
    expect(seen).not.toContain('/refused');
  });

  it('closes a refused connection whose client never closes once the linger time has passed', async () => {
    const port = await start({ refusalLingerMs: 100 });
    const crowd = new Agent({ keepAlive: true, maxSockets: Infinity });
    agents.push(crowd);
    const answered = Promise.all(Array.from({ length: CAP }, () => get(port, '/gate', crowd)));
    await pollUntil('the crowd to hold every place', () => gate.length === CAP);
    // A client that reads its 503 but keeps its side open: the server closes the connection itself.
    const stuck = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    stuck.on('error', () => undefined);
    const got: Buffer[] = [];
    stuck.on('data', (chunk: Buffer) => got.push(chunk));
    try {
      await pollUntil('the 503 read to its end', () => stuck.readableEnded);
      expect(Buffer.concat(got).toString('latin1')).toMatch(/^HTTP\/1\.1 503 /);
      // Counted by Node until closed; without the linger limit it stayed open as long as the client did.
      await pollUntil('the refused connection closed by the server', async () => (await openConnections(server!)) === CAP, { timeoutMs: 5_000 });
    } finally {
      stuck.destroy();
      for (const open of gate.splice(0)) open();
    }
    expect(await answered).toEqual(Array.from({ length: CAP }, () => 200));
  });

  it('answers a burst past the lingering places 503 as well, closing each at once', async () => {
    const port = await start({ refusals: 2 });
    // Node's own bound is lifted (past it Node resets, and a burst's closed sockets count until
    // their close event); the per-address limit reads the cap from here instead.
    expect(server!.maxConnections).toBe(Infinity);
    expect(servedConnectionCap(server!)).toBe(CAP);
    const crowd = new Agent({ keepAlive: true, maxSockets: Infinity });
    agents.push(crowd);
    const answered = Promise.all(Array.from({ length: CAP }, () => get(port, '/gate', crowd)));
    await pollUntil('the crowd to hold every place', () => gate.length === CAP);
    try {
      // Ten times the places kept for lingering refusals, all at once (before: reset past maxConnections).
      const burst = await Promise.all(Array.from({ length: 20 }, () => rawGet(port, '/burst')));
      const lines = burst.map((result) => ('text' in result ? result.text.split('\r\n')[0] : result.error));
      expect(lines).toEqual(lines.map(() => 'HTTP/1.1 503 Service Unavailable'));
    } finally {
      for (const open of gate.splice(0)) open();
    }
    expect(await answered).toEqual(Array.from({ length: CAP }, () => 200));
    expect(seen).not.toContain('/burst');
  });
});

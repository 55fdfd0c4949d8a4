import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, getJsonNow, setApiBaseUrl } from '../../../src/api/http.ts';

/*
 * getJsonNow (the cold reader's first calls) against a real HTTP server: answers, error answers,
 * and a server that never answers, which must end in an error rather than a wait for ever.
 */
let server: Server;
const closed: string[] = [];

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.on('close', () => closed.push(request.url ?? ''));
    if (request.url === '/api/ok') return void response.setHeader('content-type', 'application/json').end('{"id":"B1"}');
    if (request.url === '/api/gone') return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Book not found"}');
    if (request.url === '/api/headers-only') return void response.writeHead(200, { 'content-type': 'application/json' }).write('{"id":');
    // /api/hang: never answered.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  setApiBaseUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  setApiBaseUrl('');
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('getJsonNow', () => {
  it('answers the JSON, and an error answer with the server\'s own words', async () => {
    expect(await getJsonNow('/api/ok', 'load_book')).toEqual({ id: 'B1' });
    const failure = await getJsonNow('/api/gone', 'load_book').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ action: 'load_book', status: 404, serverMessage: 'Book not found' });
  });

  it('gives up on a server that does not answer, or stops half-way, and closes the request', async () => {
    for (const path of ['/api/hang', '/api/headers-only']) {
      const failure = await getJsonNow(path, 'load_book', { timeoutMs: 300 }).catch((error: unknown) => error);
      expect(failure, path).toBeInstanceOf(ApiError);
      expect(failure, path).toMatchObject({ action: 'load_book', status: undefined });
      await expect.poll(() => closed.includes(path), { timeout: 5_000 }).toBe(true);
    }
  });
});

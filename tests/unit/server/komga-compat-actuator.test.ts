import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, insertUser, startServer, type TestServer } from './helpers.ts';

/** Spring Boot's actuator as Komga's admin screens use it, in front of a built web client. */
let server: TestServer;
let clientDir: string;
beforeAll(async () => {
  clientDir = await mkdtemp(join(tmpdir(), 'folio-client-'));
  await writeFile(join(clientDir, 'index.html'), '<!doctype html><title>Folio</title>');
  server = await startServer({ logLevel: 'info', logStdout: false, clientDir });
});
afterAll(async () => {
  await server.close();
  await rm(clientDir, { recursive: true, force: true });
});

describe('GET /actuator/logfile', () => {
  it('serves the server’s log file to admins', async () => {
    await server.get('/api/v1/claim', {});
    await expect.poll(async () => (await server.get('/actuator/logfile')).body, { timeout: 10_000 }).toContain('"url":"/api/v1/claim"');
    const response = await server.get('/actuator/logfile');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    for (const line of response.body.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('is refused to others, as in Komga', async () => {
    expect((await server.get('/actuator/logfile', { 'x-requested-with': 'XMLHttpRequest' })).statusCode).toBe(401);
    await insertUser(server, 'reader@example.org', 'pw', []);
    expect((await server.get('/actuator/logfile', { authorization: basic('reader@example.org', 'pw') })).statusCode).toBe(403);
  });

  it('is 404 when logging is silent (no log file)', async () => {
    const quiet = await startServer({ logLevel: 'silent' });
    expect((await quiet.get('/actuator/logfile')).statusCode).toBe(404);
    await quiet.close();
  });
});

describe('unknown actuator paths', () => {
  it.each(['/actuator/nope', '/actuator', '/actuator/env/secret', '/actuator/loggers'])('%s is a JSON 404, never the web page', async (path) => {
    const response = await server.get(path);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toMatchObject({ status: 404, path });
  });
});

import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../support/poll.ts';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer;
afterEach(async () => {
  await server.close();
});

/** The health answer once it is no longer UP (a probe's answer is reused for a second). */
const down = (server: TestServer, headers: Record<string, string> = {}) =>
  pollUntil('health to report the database down', async () => {
    const response = await server.get('/actuator/health', headers);
    return response.statusCode !== 200 && response;
  }, { timeoutMs: 10_000 });

describe('/actuator/health and the database', () => {
  it('is UP while the database answers, with its component for admins only', async () => {
    server = await startServer();
    const anonymous = await server.get('/actuator/health', {});
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json()).toEqual({ status: 'UP' });
    expect((await server.get('/actuator/health')).json()).toEqual({
      status: 'UP',
      components: { db: { status: 'UP', details: { database: 'SQLite', validationQuery: 'isValid()' } }, ping: { status: 'UP' } },
    });
  });

  it('is DOWN (503) once folio.sqlite is deleted, though the open connection still answers from it', async () => {
    server = await startServer();
    expect((await server.get('/actuator/health', {})).statusCode).toBe(200);
    await rm(join(server.dataDir, 'folio.sqlite'));

    const anonymous = await down(server);
    expect(anonymous.statusCode).toBe(503);
    expect(anonymous.json()).toEqual({ status: 'DOWN' });
    const admin = await server.get('/actuator/health', server.admin);
    expect(admin.statusCode).toBe(503);
    expect(admin.json()).toMatchObject({ status: 'DOWN', components: { db: { status: 'DOWN', details: { error: expect.stringContaining('SQLITE_CANTOPEN') } } } });
  });

  it('is DOWN (503) once folio.sqlite is overwritten with something that is not a database', async () => {
    server = await startServer();
    expect((await server.get('/actuator/health', {})).statusCode).toBe(200);
    // SQLite moves its log into the file by itself every thousand pages; done here so that the
    // overwritten header is the one a reader of the file gets.
    server.app.folio.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = await open(join(server.dataDir, 'folio.sqlite'), 'r+');
    await file.write(Buffer.alloc(100, 0x41), 0, 100, 0);
    await file.close();

    const anonymous = await down(server);
    expect(anonymous.statusCode).toBe(503);
    expect(anonymous.json()).toEqual({ status: 'DOWN' });
    expect((await server.get('/actuator/health', server.admin)).json()).toMatchObject({ components: { db: { details: { error: expect.stringContaining('SQLITE_NOTADB') } } } });
  });
});

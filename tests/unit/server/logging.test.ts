import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../../server/config.ts';
import { buildApp } from '../../../server/http/app.ts';
import { logFilePath } from '../../../server/logging.ts';

const lines = async (dataDir: string) =>
  (await readFile(logFilePath(dataDir), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown> & { msg?: string; err?: { message: string } });

let dir: string;
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('logging', () => {
  it('writes requests, 500s with their cause and failed tasks to <data-dir>/logs/folio.log', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-log-'));
    const dataDir = join(dir, 'data');
    const app = await buildApp({ dataDir, clientDir: dir, logLevel: 'info', logStdout: false });
    app.get('/test-failure', async () => {
      throw new Error('database on fire');
    });
    expect((await app.inject({ method: 'GET', url: '/api/v1/claim' })).statusCode).toBe(200);
    const failed = await app.inject({ method: 'GET', url: '/test-failure' });
    expect(failed.statusCode).toBe(500);
    expect(failed.body).not.toContain('database on fire');
    app.folio.tasks.submit('ScanLibrary', 'failing-task', async () => {
      throw new Error('scanner tripped');
    });
    await app.folio.tasks.idle();
    app.folio.logger.info({ book: 'b1' }, 'domain code logs through ctx.logger');
    await app.close();

    const log = await lines(dataDir);
    expect(log.some((l) => (l.req as { url?: string } | undefined)?.url === '/api/v1/claim')).toBe(true);
    const error = log.find((l) => l.err?.message === 'database on fire');
    expect(error).toMatchObject({ level: 50, req: { method: 'GET', url: '/test-failure' } });
    expect(log.find((l) => l.err?.message === 'scanner tripped')).toMatchObject({ level: 50, msg: 'task failed', task: { type: 'ScanLibrary' } });
    expect(log.find((l) => l.msg === 'domain code logs through ctx.logger')).toMatchObject({ book: 'b1' });
  });

  it('honours the level: warn keeps request lines out', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-log-'));
    const dataDir = join(dir, 'data');
    const app = await buildApp({ dataDir, clientDir: dir, logLevel: 'warn', logStdout: false });
    await app.inject({ method: 'GET', url: '/api/v1/claim' });
    app.folio.log('a warning with its cause', new Error('the cause'));
    await app.close();
    const log = await lines(dataDir);
    expect(log.map((l) => l.msg)).toEqual(['a warning with its cause']);
    expect(log[0]!.err?.message).toBe('the cause');
  });

  it('reads the level from flag or environment', () => {
    expect(readConfig([], {}).logLevel).toBe('info');
    expect(readConfig(['--log-level', 'DEBUG'], { FOLIO_LOG_LEVEL: 'warn' }).logLevel).toBe('debug');
    expect(readConfig([], { FOLIO_LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
    expect(() => readConfig(['--log-level', 'loud'], {})).toThrow(/Invalid log level/);
  });
});

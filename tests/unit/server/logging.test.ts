import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../../server/config.ts';
import { buildApp } from '../../../server/http/app.ts';
import { logFilePath } from '../../../server/logging.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, rescan, startServer } from './helpers.ts';

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

  it('writes one line per request, with no secret from its query (an OAuth2 code and state)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-log-'));
    const dataDir = join(dir, 'data');
    const app = await buildApp({ dataDir, clientDir: dir, logLevel: 'info', logStdout: false });
    await app.inject({ method: 'GET', url: '/api/v1/claim' });
    await app.inject({ method: 'GET', url: '/login/oauth2/code/keycloak?state=STATE-VALUE&code=CODE-VALUE&session_state=SESSION-VALUE' });
    await app.inject({ method: 'GET', url: '/api/v1/series?author=Moebius&api_key=KEY-VALUE&access_token=TOKEN-VALUE' });
    await app.close();
    const text = await readFile(logFilePath(dataDir), 'utf8');
    for (const secret of ['STATE-VALUE', 'CODE-VALUE', 'SESSION-VALUE', 'KEY-VALUE', 'TOKEN-VALUE']) expect(text).not.toContain(secret);
    const requests = (await lines(dataDir)).filter((l) => l.req);
    expect(requests.map((l) => (l.req as { url: string }).url)).toEqual([
      '/api/v1/claim',
      '/login/oauth2/code/keycloak?state=[redacted]&code=[redacted]&session_state=[redacted]',
      '/api/v1/series?author=Moebius&api_key=[redacted]&access_token=[redacted]',
    ]);
    expect(requests[0]).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', remoteAddress: '127.0.0.1' }, res: { statusCode: 200 } });
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

  it('says when a scan starts and ends, with what it found, and warns when a library folder is missing', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-log-'));
    const server = await startServer({ dir, logLevel: 'info', logStdout: false });
    const sample = await createSampleLibrary(join(dir, 'library'));
    const library = await addLibrary(server, sample.root);
    await rm(sample.series[1]!.path, { recursive: true });
    await rescan(server, library.id);
    await rm(sample.root, { recursive: true });
    await rescan(server, library.id);
    await server.close();

    const log = await lines(server.dataDir);
    const started = log.filter((l) => l.msg === 'library scan started');
    expect(started).toHaveLength(3);
    expect(started[0]).toMatchObject({ level: 30, libraryId: library.id, library: 'Comics', root: sample.root });
    const finished = log.filter((l) => l.msg === 'library scan finished');
    expect(finished).toHaveLength(2);
    expect(finished[0]).toMatchObject({ level: 30, libraryId: library.id, files: 4, booksAdded: 4, seriesAdded: 3, booksDeleted: 0, toAnalyse: 4 });
    expect(finished[0]!.durationMs).toEqual(expect.any(Number));
    expect(finished[1]).toMatchObject({ files: 3, booksAdded: 0, booksDeleted: 1, seriesDeleted: 1, toAnalyse: 0 });
    expect(log.find((l) => String(l.msg).startsWith('library scan skipped: its folder is missing'))).toMatchObject({ level: 40, libraryId: library.id, root: sample.root });
  });

  it('reads the level from flag or environment', () => {
    expect(readConfig([], {}).logLevel).toBe('info');
    expect(readConfig(['--log-level', 'DEBUG'], { FOLIO_LOG_LEVEL: 'warn' }).logLevel).toBe('debug');
    expect(readConfig([], { FOLIO_LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
    expect(() => readConfig(['--log-level', 'loud'], {})).toThrow(/Invalid log level/);
  });
});

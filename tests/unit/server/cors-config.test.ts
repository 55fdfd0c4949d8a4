import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../server/config.ts';
import { buildApp } from '../../../server/http/app.ts';

describe('configuration', () => {
  it('reads flags before environment before defaults', () => {
    expect(readConfig([], {})).toEqual({ port: 25600, host: '0.0.0.0', dataDir: './data', clientDir: './dist', corsOrigins: [], trustProxy: false, basePath: '', logLevel: 'info', authActivityRetention: { days: 90, maxRows: 100000 }, servingProcesses: 1 });
    expect(readConfig(['--port', '0', '--data-dir', '/d'], { FOLIO_PORT: '9', FOLIO_DATA_DIR: '/e', FOLIO_HOST: '::1' })).toMatchObject({
      port: 0,
      dataDir: '/d',
      host: '::1',
    });
    expect(readConfig(['--cors-origins', 'http://a.test/, http://b.test'], {}).corsOrigins).toEqual(['http://a.test', 'http://b.test']);
    expect(readConfig([], { FOLIO_CORS_ORIGINS: 'http://c.test' }).corsOrigins).toEqual(['http://c.test']);
    expect(() => readConfig(['--port', '70000'], {})).toThrow(/Invalid port/);
    expect(readConfig(['--auth-activity-days', '7'], { FOLIO_AUTH_ACTIVITY_MAX_ROWS: '500' }).authActivityRetention).toEqual({ days: 7, maxRows: 500 });
    expect(readConfig([], { FOLIO_SERVING_PROCESSES: '3' }).servingProcesses).toBe(3);
    expect(readConfig(['--serving-processes', '2'], { FOLIO_SERVING_PROCESSES: '3' }).servingProcesses).toBe(2);
    expect(() => readConfig([], { FOLIO_SERVING_PROCESSES: '0' })).toThrow('Invalid serving-processes: 0');
    expect(() => readConfig([], { FOLIO_SERVING_PROCESSES: '17' })).toThrow('at most 16');
    expect(() => readConfig(['--auth-activity-max-rows', '0'], {})).toThrow(/auth-activity-max-rows/);
  });
});

describe('CORS', () => {
  it('is off by default and answers only listed origins when configured', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-cors-'));
    const plain = await buildApp({ dataDir: join(dir, 'a'), logLevel: 'warn' });
    const noCors = await plain.inject({ method: 'GET', url: '/api/v1/claim', headers: { origin: 'http://reader.test' } });
    expect(noCors.headers['access-control-allow-origin']).toBeUndefined();
    await plain.close();

    const app = await buildApp({ dataDir: join(dir, 'b'), logLevel: 'warn', corsOrigins: ['http://reader.test'] });
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/series',
      headers: { origin: 'http://reader.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-requested-with' },
    });
    expect(preflight.statusCode).toBe(200);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://reader.test');
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(preflight.headers['access-control-allow-headers']).toBe('x-requested-with');
    expect(preflight.headers['access-control-max-age']).toBe('1800');

    const call = await app.inject({ method: 'GET', url: '/api/v1/claim', headers: { origin: 'http://reader.test' } });
    expect(call.headers['access-control-allow-origin']).toBe('http://reader.test');
    expect(call.headers['access-control-expose-headers']).toContain('X-Auth-Token');
    const stranger = await app.inject({ method: 'GET', url: '/api/v1/claim', headers: { origin: 'http://evil.test' } });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });
});

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LibraryDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let library: LibraryDto;
beforeAll(async () => {
  server = await startServer();
  library = await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
});
afterAll(async () => {
  await server.close();
});

type Metric = { name: string; measurements: { statistic: string; value: number }[]; availableTags: { tag: string; values: string[] }[] };
const measure = (m: Metric, statistic: string) => m.measurements.find((x) => x.statistic === statistic)?.value;

describe('actuator', () => {
  it('answers health anonymously and the rest to admins only', async () => {
    expect((await server.get('/actuator/health', {})).json()).toEqual({ status: 'UP' });
    expect((await server.get('/actuator/metrics', { 'x-requested-with': 'XMLHttpRequest' })).statusCode).toBe(401);
    await insertUser(server, 'metrics-reader@example.org', 'pw', []);
    expect((await server.get('/actuator/info', { authorization: basic('metrics-reader@example.org', 'pw') })).statusCode).toBe(403);
    expect((await server.json<{ build: { version: string } }>('/actuator/info')).build.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('reports library counts, per library and in total', async () => {
    const books = await server.json<Metric>('/actuator/metrics/komga.books');
    expect(measure(books, 'VALUE')).toBe(4);
    expect(books.availableTags).toEqual([{ tag: 'library', values: [library.id] }]);
    expect(measure(await server.json<Metric>(`/actuator/metrics/komga.series?tag=library:${library.id}`), 'VALUE')).toBe(3);
    expect(measure(await server.json<Metric>('/actuator/metrics/komga.series?tag=library:other'), 'VALUE')).toBe(0);
    expect(measure(await server.json<Metric>('/actuator/metrics/komga.books.filesize'), 'VALUE')).toBeGreaterThan(10_000);
    expect(measure(await server.json<Metric>('/actuator/metrics/komga.libraries'), 'VALUE')).toBe(1);
    expect(measure(await server.json<Metric>('/actuator/metrics/komga.sidecars'), 'VALUE')).toBe(0);
    expect((await server.get('/actuator/metrics/komga.nothing')).statusCode).toBe(404);
  });

  it('reports executed tasks by type', async () => {
    const before = measure(await server.json<Metric>('/actuator/metrics/komga.tasks.execution?tag=type:ScanLibrary'), 'COUNT')!;
    expect(before).toBe(1); // the scan that library creation started
    await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/scan`, headers: server.admin });
    await server.app.folio.tasks.idle();
    const all = await server.json<Metric>('/actuator/metrics/komga.tasks.execution');
    expect(all.availableTags[0]!.values).toContain('ScanLibrary');
    const scans = await server.json<Metric>('/actuator/metrics/komga.tasks.execution?tag=type:ScanLibrary');
    expect(measure(scans, 'COUNT')).toBe(2);
    expect(measure(scans, 'TOTAL_TIME')).toBeGreaterThan(0);
    expect(measure(all, 'COUNT')).toBeGreaterThan(measure(scans, 'COUNT')!);
  });

  it('counts as failures the tasks that failed, and only those, by type', async () => {
    const failures = async (type: string) =>
      measure(await server.json<Metric>(`/actuator/metrics/komga.tasks.failure?tag=type:${type}`), 'COUNT') ?? 0;
    const before = await failures('EmptyTrash');
    const tasks = server.app.folio.tasks;
    tasks.submit('EmptyTrash', 'EmptyTrash:fails', async () => {
      throw new Error('disk gone');
    }, 1);
    tasks.submit('EmptyTrash', 'EmptyTrash:works', async () => undefined, 1);
    await tasks.idle();
    expect(await failures('EmptyTrash')).toBe(before + 1);
    const executed = measure(await server.json<Metric>('/actuator/metrics/komga.tasks.execution?tag=type:EmptyTrash'), 'COUNT');
    expect(executed).toBeGreaterThanOrEqual(before + 2);
  });

  it('shuts down through the callback after answering', async () => {
    let called = false;
    const { buildApp } = await import('../../../server/http/app.ts');
    const app = await buildApp({ dataDir: join(server.dir, 'other-data'), onShutdown: () => (called = true), logLevel: 'warn' });
    await app.inject({ method: 'POST', url: '/api/v1/claim', headers: { 'x-komga-email': 'a@b.cd', 'x-komga-password': 'pw' } });
    const response = await app.inject({ method: 'POST', url: '/actuator/shutdown', headers: { authorization: basic('a@b.cd', 'pw') } });
    expect(response.json()).toEqual({ message: 'Shutting down, bye...' });
    // The callback runs once the answer has gone out.
    await vi.waitUntil(() => called, { timeout: 5_000 });
    await app.close();
  });
});

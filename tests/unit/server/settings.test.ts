import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { BLUE, RED, createCbz, createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';
import { shapeProblems } from './openapi-shape.ts';

let server: TestServer;
let reader: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  await insertUser(server, 'reader@example.org', 'reader-password', []);
  reader = { authorization: basic('reader@example.org', 'reader-password') };
});
afterAll(async () => {
  await server.close();
});

interface Settings {
  deleteEmptyCollections: boolean;
  deleteEmptyReadLists: boolean;
  rememberMeDurationDays: number;
  thumbnailSize: string;
  taskPoolSize: number;
  serverPort: { configurationSource: number | null; databaseSource: number | null; effectiveValue: number | null };
  serverContextPath: { databaseSource: string | null; effectiveValue: string | null };
  koboProxy: boolean;
  koboPort: number | null;
  kepubifyPath: { databaseSource: string | null; effectiveValue: string | null };
}

const settings = () => server.json<Settings>('/api/v1/settings');
const patch = (payload: unknown, headers = server.admin) =>
  server.app.inject({ method: 'PATCH', url: '/api/v1/settings', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
const rememberCookie = (response: LightMyRequestResponse) => {
  const header = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((c) => c.startsWith('komga-remember-me='));
  return header ? { value: header.split(';')[0]!.slice('komga-remember-me='.length), raw: header } : undefined;
};

describe('server settings', () => {
  it('reports Komga defaults in the SettingsDto shape, to admins only', async () => {
    const dto = await settings();
    expect(shapeProblems(dto, 'SettingsDto')).toEqual([]);
    expect(dto).toMatchObject({
      deleteEmptyCollections: false,
      deleteEmptyReadLists: false,
      rememberMeDurationDays: 365,
      thumbnailSize: 'DEFAULT',
      taskPoolSize: 2,
      koboProxy: false,
      koboPort: null,
    });
    // Not listening (inject): no port in use to report, and nothing stored.
    expect(dto.serverPort).toEqual({ configurationSource: null, databaseSource: null, effectiveValue: null });
    expect(dto.serverContextPath).toMatchObject({ databaseSource: null, effectiveValue: '' });
    expect(dto.kepubifyPath).toMatchObject({ databaseSource: null, effectiveValue: null });
    expect((await server.get('/api/v1/settings', reader)).statusCode).toBe(403);
    expect((await patch({ koboProxy: true }, reader)).statusCode).toBe(403);
  });

  it('stores what it is given, keeps omitted and null-means-keep fields, clears presence-tracked ones on null', async () => {
    expect((await patch({ deleteEmptyCollections: true, deleteEmptyReadLists: false, thumbnailsize: 'large', serverPort: 8080, serverContextPath: '/komga', koboPort: 5000, kepubifyPath: '/usr/bin/kepubify' })).statusCode).toBe(204);
    let dto = await settings();
    expect(dto).toMatchObject({ deleteEmptyCollections: true, deleteEmptyReadLists: false, thumbnailSize: 'LARGE', koboPort: 5000 });
    expect(dto.serverPort).toMatchObject({ databaseSource: 8080, effectiveValue: null });
    expect(dto.serverContextPath).toMatchObject({ databaseSource: '/komga', effectiveValue: '' });
    expect(dto.kepubifyPath).toMatchObject({ databaseSource: '/usr/bin/kepubify', effectiveValue: null });

    expect((await patch({ deleteEmptyReadLists: null, serverPort: null, serverContextPath: null, koboPort: null, kepubifyPath: null, thumbnailSize: 'DEFAULT' })).statusCode).toBe(204);
    dto = await settings();
    expect(dto).toMatchObject({ deleteEmptyReadLists: false, koboPort: null, thumbnailSize: 'DEFAULT' });
    expect(dto.serverPort.databaseSource).toBeNull();
    expect(dto.serverContextPath.databaseSource).toBeNull();
    expect((await patch({ deleteEmptyCollections: false })).statusCode).toBe(204);
    expect((await settings()).deleteEmptyCollections).toBe(false);
  });

  it('rejects invalid values without storing anything', async () => {
    for (const body of [
      { thumbnailSize: 'HUGE' },
      { taskPoolSize: 0 },
      { taskPoolSize: 1.5 },
      { rememberMeDurationDays: 0 },
      { serverPort: 70000 },
      { koboPort: 'x' },
      { serverContextPath: 'komga' },
      { serverContextPath: '/komga/' },
      { koboProxy: 'yes' },
      ['thumbnailSize'],
    ]) {
      expect((await patch(body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await settings()).thumbnailSize).toBe('DEFAULT');
  });

  it('reports the port the server really listens on', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (server.app.server.address() as { port: number }).port;
    expect((await settings()).serverPort).toMatchObject({ configurationSource: port, effectiveValue: port });
  });

  it('reports the base path it serves under as the context path', async () => {
    const prefixed = await startServer({ basePath: '/folio' });
    try {
      const response = await prefixed.app.inject({ method: 'GET', url: '/folio/api/v1/settings', headers: prefixed.admin });
      expect(response.statusCode).toBe(200);
      expect(response.json<Settings>().serverContextPath).toMatchObject({ configurationSource: '/folio', effectiveValue: '/folio' });
    } finally {
      await prefixed.close();
    }
  });
});

describe('settings Folio honours', () => {
  it('thumbnailSize: posters generated afterwards have that longest edge', async () => {
    const root = join(server.dir, 'thumbs');
    await createCbz(join(root, 'Tall', 'Tall 01.cbz'), [{ width: 800, height: 1600, color: RED, format: 'png' }]);
    expect((await patch({ thumbnailSize: 'MEDIUM' })).statusCode).toBe(204);
    const library = await addLibrary(server, root, 'Thumbs');
    const book = (await server.json<Page<BookDto>>(`/api/v1/books?library_id=${library.id}`)).content[0]!;
    const [poster] = await server.json<{ type: string; width: number; height: number }[]>(`/api/v1/books/${book.id}/thumbnails`);
    expect(poster).toMatchObject({ type: 'GENERATED', width: 300, height: 600 });
    expect((await patch({ thumbnailSize: 'DEFAULT' })).statusCode).toBe(204);
  });

  it('rememberMeDurationDays: new remember-me cookies live that long; renewRememberMeKey invalidates issued ones', async () => {
    const xhr = { 'x-requested-with': 'XMLHttpRequest' };
    const before = rememberCookie(await server.get('/api/v2/users/me?remember-me=true'))!;
    expect(before.raw).toMatch(/Max-Age=31536000/);

    expect((await patch({ rememberMeDurationDays: 7 })).statusCode).toBe(204);
    expect((await settings()).rememberMeDurationDays).toBe(7);
    const week = rememberCookie(await server.get('/api/v2/users/me?remember-me=true'))!;
    expect(week.raw).toMatch(/Max-Age=604800/);

    const withCookie = (value: string) => server.get('/api/v2/users/me', { ...xhr, cookie: `komga-remember-me=${value}` });
    expect((await withCookie(before.value)).statusCode).toBe(200);
    expect((await withCookie(week.value)).statusCode).toBe(200);
    expect((await patch({ renewRememberMeKey: false })).statusCode).toBe(204);
    expect((await withCookie(week.value)).statusCode).toBe(200);

    expect((await patch({ renewRememberMeKey: true })).statusCode).toBe(204);
    expect((await withCookie(before.value)).statusCode).toBe(401);
    expect((await withCookie(week.value)).statusCode).toBe(401);
    await patch({ rememberMeDurationDays: 365 });
  });

  it('taskPoolSize: changes the number of task workers at once and after a restart', async () => {
    expect((await patch({ taskPoolSize: 3 })).statusCode).toBe(204);
    expect(server.app.folio.tasks.workers).toBe(3);
    expect((await settings()).taskPoolSize).toBe(3);

    const dir = await mkdtemp(join(tmpdir(), 'folio-settings-'));
    try {
      const first = await startServer({ dir });
      await first.app.inject({ method: 'PATCH', url: '/api/v1/settings', headers: first.admin, payload: { taskPoolSize: 4 } });
      await first.close();
      const second = await startServer({ dir, claim: false });
      expect(second.app.folio.tasks.workers).toBe(4);
      expect((await second.json<Settings>('/api/v1/settings')).taskPoolSize).toBe(4);
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('deleteEmptyCollections / deleteEmptyReadLists (off by default): once on, lists emptied by removed series and books go too', async () => {
    const root = join(server.dir, 'lists');
    await createSampleLibrary(root);
    await createCbz(join(root, 'Gamma', 'Gamma 01.cbz'), [{ width: 60, height: 90, color: BLUE, format: 'png' }]);
    const library = await addLibrary(server, root, 'Lists');
    const all = (await server.json<Page<SeriesDto>>(`/api/v1/series?library_id=${library.id}`)).content;
    const seriesId = (name: string) => all.find((s) => s.name === name)!.id;
    const bookOf = async (name: string) => (await server.json<Page<BookDto>>(`/api/v1/series/${seriesId(name)}/books`)).content[0]!.id;

    const create = async (url: string, payload: object) => {
      const response = await server.app.inject({ method: 'POST', url, headers: server.admin, payload });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().id as string;
    };
    const betaCollection = await create('/api/v1/collections', { name: 'Only Beta', ordered: false, seriesIds: [seriesId('Beta')] });
    const mixedCollection = await create('/api/v1/collections', { name: 'Beta and Alpha', ordered: false, seriesIds: [seriesId('Beta'), seriesId('Alpha')] });
    const betaList = await create('/api/v1/readlists', { name: 'Beta list', bookIds: [await bookOf('Beta')] });
    const gammaList = await create('/api/v1/readlists', { name: 'Gamma list', bookIds: [await bookOf('Gamma')] });

    const removeSeries = async (name: string) => {
      expect((await server.app.inject({ method: 'DELETE', url: `/api/v1/series/${seriesId(name)}/file`, headers: server.admin })).statusCode).toBe(202);
      expect((await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/empty-trash`, headers: server.admin })).statusCode).toBe(202);
      await server.app.folio.tasks.idle();
    };
    const status = (url: string) => server.get(url).then((r) => r.statusCode);

    // Off (the default): an emptied read list stays.
    await removeSeries('Gamma');
    expect(server.app.folio.repos.readLists.findById(gammaList)).toMatchObject({ bookIds: [] });

    expect((await patch({ deleteEmptyCollections: true, deleteEmptyReadLists: true })).statusCode).toBe(204);
    await removeSeries('Beta');
    expect(await status(`/api/v1/collections/${betaCollection}`)).toBe(404);
    expect(await status(`/api/v1/collections/${mixedCollection}`)).toBe(200);
    expect(await status(`/api/v1/readlists/${betaList}`)).toBe(404);
  });
});

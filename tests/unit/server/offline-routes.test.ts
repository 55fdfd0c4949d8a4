import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, insertUser, startServer, type TestServer } from './helpers.ts';
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

describe('endpoints for services Folio does not have', () => {
  it('announcements: an empty JSON feed; marking read is accepted (ADMIN)', async () => {
    const feed = await server.json<{ items: unknown[] }>('/api/v1/announcements');
    expect(shapeProblems(feed, 'JsonFeedDto')).toEqual([]);
    expect(feed.items).toEqual([]);
    // Every property of Komga's JsonFeedDto, null or not: Komelia's parser requires home_page_url.
    expect(Object.keys(feed).sort()).toEqual(['description', 'home_page_url', 'items', 'title', 'version']);
    const put = (payload: unknown, headers = server.admin) =>
      server.app.inject({ method: 'PUT', url: '/api/v1/announcements', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    expect((await put(['https://komga.org/blog/ebook-drop2'])).statusCode).toBe(204);
    expect((await put({ id: 'x' })).statusCode).toBe(400);
    expect((await put([], reader)).statusCode).toBe(403);
    expect((await server.get('/api/v1/announcements', reader)).statusCode).toBe(403);
  });

  it('releases: an empty list (ADMIN)', async () => {
    expect(await server.json('/api/v1/releases')).toEqual([]);
    expect((await server.get('/api/v1/releases', reader)).statusCode).toBe(403);
  });

  it('sync points: nothing to delete, 204 for any user, 401 for nobody', async () => {
    const del = (url: string, headers: Record<string, string>) => server.app.inject({ method: 'DELETE', url, headers });
    expect((await del('/api/v1/syncpoints/me', reader)).statusCode).toBe(204);
    expect((await del('/api/v1/syncpoints/me?key_id=a&key_id=b', server.admin)).statusCode).toBe(204);
    expect((await del('/api/v1/syncpoints/me', { 'x-requested-with': 'XMLHttpRequest' })).statusCode).toBe(401);
  });
});

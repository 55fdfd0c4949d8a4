import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeriesDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * Mihon's Komga tracker (app/src/main/java/eu/kanade/tachiyomi/data/track/komga) holds no
 * credentials: it uses the app's shared cookie jar, where the Komga extension's Basic-authenticated
 * calls left Komga's KOMGA-SESSION cookie, and sends nothing else — no Authorization, no Origin, no
 * fetch metadata, its own User-Agent — for reads and for the PUT that records read progress.
 */
let server: TestServer;
let alpha: SeriesDto;
const EXTENSION_UA = 'TachiyomiKomga/1.4.61';
const TRACKER_UA = 'Mihon v0.17.1 (app.mihon)';
const credentials = basic('reader@example.org', 'reader-password');

beforeAll(async () => {
  server = await startServer();
  await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
  await insertUser(server, 'reader@example.org', 'reader-password', ['PAGE_STREAMING']);
  const series = (await server.json<{ content: SeriesDto[] }>('/api/v1/series?unpaged=true')).content;
  alpha = series.find((s) => s.name === 'Alpha')!;
});
afterAll(async () => {
  await server.close();
});

const sessionCount = () => server.app.folio.db.prepare('SELECT COUNT(*) FROM session').pluck().get() as number;
const sessionCookie = (setCookie: string | string[] | undefined) => {
  const line = [setCookie ?? []].flat().find((c) => c.startsWith('KOMGA-SESSION='));
  return line?.split(';')[0];
};

describe('Mihon’s Komga tracker on the extension’s session cookie', () => {
  it('the extension’s Basic call hands out KOMGA-SESSION; the tracker reads and writes progress with it alone', async () => {
    const browse = await server.app.inject({
      method: 'GET',
      url: '/api/v1/series?search=&page=0&deleted=false',
      headers: { authorization: credentials, 'user-agent': EXTENSION_UA },
    });
    expect(browse.statusCode).toBe(200);
    const cookie = sessionCookie(browse.headers['set-cookie']);
    expect(cookie).toBeDefined();

    const tracker = { cookie: cookie!, 'user-agent': TRACKER_UA };
    const series = await server.app.inject({ method: 'GET', url: `/api/v1/series/${alpha.id}`, headers: tracker });
    expect(series.statusCode).toBe(200);
    const progressUrl = `/api/v2/series/${alpha.id}/read-progress/tachiyomi`;
    expect((await server.app.inject({ method: 'GET', url: progressUrl, headers: tracker })).statusCode).toBe(200);

    const put = await server.app.inject({
      method: 'PUT',
      url: progressUrl,
      headers: { ...tracker, 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ lastBookNumberSortRead: 1.0 }),
    });
    expect(put.statusCode, put.body).toBe(204);
    const after = await server.app.inject({ method: 'GET', url: progressUrl, headers: tracker });
    expect(after.json()).toMatchObject({ booksReadCount: 1, lastReadContinuousNumberSort: 1 });
  });

  it('a script sending Basic on every call without keeping the cookie opens one session, not one per call', async () => {
    const before = sessionCount();
    const cookies = new Set<string | undefined>();
    for (let i = 0; i < 5; i++) {
      const response = await server.app.inject({ method: 'GET', url: '/api/v1/libraries', headers: { authorization: credentials, 'user-agent': 'curl/8.5.0' } });
      expect(response.statusCode).toBe(200);
      cookies.add(sessionCookie(response.headers['set-cookie']));
    }
    expect(cookies.size).toBe(1);
    expect(sessionCount() - before).toBeLessThanOrEqual(1);
  });

  it('after a logout the next Basic call hands out another session; the logged-out cookie stays dead', async () => {
    const first = await server.app.inject({ method: 'GET', url: '/api/v1/libraries', headers: { authorization: credentials } });
    const old = sessionCookie(first.headers['set-cookie'])!;
    expect((await server.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: old, 'user-agent': TRACKER_UA } })).statusCode).toBe(204);
    const again = await server.app.inject({ method: 'GET', url: '/api/v1/libraries', headers: { authorization: credentials } });
    const renewed = sessionCookie(again.headers['set-cookie'])!;
    expect(renewed).not.toBe(old);
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/libraries', headers: { cookie: old } })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/libraries', headers: { cookie: renewed } })).statusCode).toBe(200);
  });

  it('the same cookie-only write from something that may be a browser is still refused', async () => {
    const browse = await server.app.inject({ method: 'GET', url: '/api/v1/libraries', headers: { authorization: credentials } });
    const cookie = sessionCookie(browse.headers['set-cookie'])!;
    const put = await server.app.inject({
      method: 'PUT',
      url: `/api/v2/series/${alpha.id}/read-progress/tachiyomi`,
      headers: { cookie, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:60.0) Gecko/20100101 Firefox/60.0', 'content-type': 'application/json' },
      payload: JSON.stringify({ lastBookNumberSortRead: 2 }),
    });
    expect(put.statusCode).toBe(403);
  });
});

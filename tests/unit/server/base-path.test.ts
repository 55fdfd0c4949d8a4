import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../../server/config.ts';
import type { BookDto, LibraryDto, Page } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic, startServer, type TestServer } from './helpers.ts';
import { setCookie } from './accounts-helpers.ts';

/**
 * Folio under a sub-path (--base-path /folio, as behind https://example.org/folio/): every route is
 * served under it and nothing outside it, and every URL Folio writes (feed links, manifests,
 * redirects, cookies, the web client's page) carries it. A proxy that strips the prefix says so with
 * X-Forwarded-Prefix, which only a trusted proxy may send.
 */
const HOST = 'books.example.org';
/** The built client's page as Vite writes it with a relative base (vite.config.ts). */
const BUILT_INDEX =
  '<!doctype html>\n<html lang="en">\n  <head>\n    <script type="module" async crossorigin src="./assets/boot-1.js"></script>\n' +
  '    <link rel="modulepreload" crossorigin href="./assets/index-2.js" data-folio-app>\n    <link rel="stylesheet" crossorigin href="./assets/index-3.css">\n' +
  '    <link rel="icon" href="data:," />\n  </head>\n  <body><div id="root"></div></body>\n</html>\n';

async function clientDirIn(dir: string): Promise<string> {
  const clientDir = join(dir, 'dist');
  await mkdir(join(clientDir, 'assets'), { recursive: true });
  await writeFile(join(clientDir, 'index.html'), BUILT_INDEX);
  await writeFile(join(clientDir, 'assets', 'index-2.js'), 'export {}');
  return clientDir;
}

const hrefsOf = (xml: string) => [...xml.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);

function jsonHrefs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(jsonHrefs);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === 'href' && typeof inner === 'string' ? [inner] : jsonHrefs(inner)));
}

describe('--base-path /folio', () => {
  let server: TestServer;
  let book: BookDto;
  const get = (url: string, headers: Record<string, string> = server.admin) => server.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), 'folio-base-path-'));
    const clientDir = await clientDirIn(root);
    await mkdir(join(root, 'data'), { recursive: true });
    // A plain OAuth2 provider: starting a login needs no call to it.
    await writeFile(
      join(root, 'data', 'oauth2-providers.json'),
      JSON.stringify([{ registrationId: 'forge', clientId: 'folio', oidc: false, authorizationUri: 'http://127.0.0.1:9/authorize', tokenUri: 'http://127.0.0.1:9/token', userInfoUri: 'http://127.0.0.1:9/userinfo' }]),
    );
    server = await startServer({ dir: root, clientDir, basePath: '/folio' });
    const library = await server.app.inject({
      method: 'POST',
      url: '/folio/api/v1/libraries',
      headers: server.admin,
      payload: { name: 'Comics', root: (await createSampleLibrary(join(root, 'library'))).root },
    });
    expect(library.statusCode).toBe(200);
    expect((library.json() as LibraryDto).name).toBe('Comics');
    await server.app.folio.tasks.idle();
    book = (await get('/folio/api/v1/books?sort=name')).json<Page<BookDto>>().content[0]!;
  });
  afterAll(async () => {
    await server.close();
    await rm(server.dir, { recursive: true, force: true });
  });

  it('serves the API, OPDS, Tachiyomi and actuator routes under the base path', async () => {
    for (const path of ['/api/v1/books', '/api/v2/users/me', `/api/v1/books/${book.id}/pages/1`, '/opds/v1.2/catalog', '/opds/v2/catalog', `/api/v1/books/${book.id}/manifest`, '/actuator/health', `/api/v2/series/${book.seriesId}/read-progress/tachiyomi`]) {
      expect((await get(`/folio${path}`)).statusCode, path).toBe(200);
    }
  });

  it('serves nothing outside it: the root sends a browser to the base path, anything else is a 404', async () => {
    const root = await get('/?x=1', {});
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/folio/?x=1');
    for (const path of ['/api/v1/books', '/opds/v1.2/catalog', '/actuator/health', '/series/1', '/assets/index-2.js', '/folioX/api/v1/books', '/sse/v1/events']) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json(), path).toMatchObject({ status: 404, message: 'Not Found: Folio is served under /folio/', path });
    }
    // An unknown path inside it is the API's 404, naming the path as the client asked for it.
    const unknown = await get('/folio/api/v1/nothing-here?x=1');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 404, error: 'Not Found', path: '/folio/api/v1/nothing-here' });
    expect((await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'X', root: '/tmp' } })).statusCode).toBe(404);
  });

  it('writes OPDS 1.2 and 2 links, search templates and manifests under the base path', async () => {
    const prefix = `http://${HOST}/folio/`;
    const feeds = [`/opds/v1.2/series/${book.seriesId}`, '/opds/v1.2/catalog'];
    for (const path of feeds) {
      const hrefs = hrefsOf((await get(`/folio${path}`)).body);
      expect(hrefs.length, path).toBeGreaterThan(0);
      for (const href of hrefs) expect(href, path).toMatch(new RegExp(`^${prefix}`));
    }
    const search = (await get('/folio/opds/v1.2/search')).body;
    expect(search).toContain(`template="${prefix}opds/v1.2/series?search={searchTerms}"`);
    for (const path of ['/opds/v2/catalog', `/opds/v2/series/${book.seriesId}`, `/api/v1/books/${book.id}/manifest`, '/opds/v2/libraries/series/latest']) {
      const hrefs = jsonHrefs((await get(`/folio${path}`)).json());
      expect(hrefs.length, path).toBeGreaterThan(0);
      for (const href of hrefs) expect(href, path).toMatch(new RegExp(`^${prefix}`));
    }
    const unauthorized = await get('/folio/opds/v2/catalog', {});
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers.link).toContain(`<${prefix}opds/v2/auth>`);
  });

  it('scopes the session and remember-me cookies to the base path, and clears them there', async () => {
    const login = await get('/folio/api/v2/users/me?remember-me=true', { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD) });
    expect(login.statusCode).toBe(200);
    const session = setCookie(login, 'KOMGA-SESSION')!;
    expect(session.raw).toMatch(/; Path=\/folio(;|$)/);
    expect(setCookie(login, 'komga-remember-me')!.raw).toMatch(/; Path=\/folio(;|$)/);
    const logout = await server.app.inject({ method: 'POST', url: '/folio/api/logout', headers: { host: HOST, cookie: `KOMGA-SESSION=${session.value}`, 'x-requested-with': 'XMLHttpRequest' } });
    expect(logout.statusCode).toBe(204);
    expect(setCookie(logout, 'KOMGA-SESSION')!.raw).toMatch(/; Path=\/folio(;|$)/);
  });

  it('gives OAuth2 providers a redirect URI under the base path and sends the browser back there', async () => {
    const start = await get('/folio/oauth2/authorization/forge', {});
    expect(start.statusCode).toBe(302);
    const location = new URL(String(start.headers.location));
    expect(location.searchParams.get('redirect_uri')).toBe(`http://${HOST}/folio/login/oauth2/code/forge`);
    expect(setCookie(start, 'folio-oauth2-state')!.raw).toMatch(/; Path=\/folio\/login\/oauth2(;|$)/);
    const back = await get('/folio/login/oauth2/code/forge?code=c&state=unknown', {});
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/folio/login?server_redirect=Y&error=invalid_state');
  });

  it('serves the web client under the base path, its page pointing at its files and naming the base path', async () => {
    for (const path of ['/folio', '/folio/', '/folio/series/1?page=2', '/folio/index.html']) {
      const page = await get(path, {});
      expect(page.statusCode, path).toBe(200);
      expect(page.headers['content-type'], path).toMatch(/^text\/html/);
      expect(page.body, path).toContain('<meta name="folio-base-path" content="/folio">');
      expect(page.body, path).toContain('src="/folio/assets/boot-1.js"');
      expect(page.body, path).toContain('href="/folio/assets/index-2.js" data-folio-app');
      expect(page.body, path).toContain('href="/folio/assets/index-3.css"');
      expect(page.body, path).not.toContain('"./');
    }
    const asset = await get('/folio/assets/index-2.js', {});
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('export {}');
  });
});

describe('X-Forwarded-Prefix', () => {
  let trusting: TestServer;
  let untrusting: TestServer;
  beforeAll(async () => {
    const [trustingDir, untrustingDir] = [await mkdtemp(join(tmpdir(), 'folio-forwarded-')), await mkdtemp(join(tmpdir(), 'folio-forwarded-'))];
    trusting = await startServer({ dir: trustingDir, trustProxy: ['loopback'], clientDir: await clientDirIn(trustingDir) });
    untrusting = await startServer({ dir: untrustingDir, clientDir: await clientDirIn(untrustingDir) });
  });
  afterAll(async () => {
    for (const server of [trusting, untrusting]) {
      await server.close();
      await rm(server.dir, { recursive: true, force: true });
    }
  });

  /** What a client of `server` gets from `remoteAddress` saying it came through /proxied. */
  async function seen(server: TestServer, remoteAddress: string, prefix = '/proxied/') {
    const headers = { host: HOST, 'x-forwarded-prefix': prefix };
    const inject = (url: string, extra: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
      server.app.inject({ method: 'GET', url, headers: { ...headers, ...extra }, remoteAddress });
    const login = await inject('/api/v2/users/me', { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD) });
    const catalog = await inject('/opds/v1.2/catalog', server.admin);
    const page = await inject('/series/1');
    return {
      cookiePath: /; Path=([^;]*)/.exec(setCookie(login, 'KOMGA-SESSION')!.raw)?.[1],
      start: hrefsOf(catalog.body).find((href) => href.endsWith('/opds/v1.2/catalog')),
      meta: /name="folio-base-path" content="([^"]*)"/.exec(page.body)?.[1],
    };
  }

  it('replaces the base path in what Folio writes when a trusted proxy sends it', async () => {
    expect(await seen(trusting, '127.0.0.1')).toEqual({ cookiePath: '/proxied', start: `http://${HOST}/proxied/opds/v1.2/catalog`, meta: '/proxied' });
  });

  it('is ignored from a peer the proxy setting does not trust, or when it is not a usable path', async () => {
    const plain = { cookiePath: '/', start: `http://${HOST}/opds/v1.2/catalog`, meta: '' };
    expect(await seen(trusting, '203.0.113.9')).toEqual(plain);
    expect(await seen(untrusting, '127.0.0.1')).toEqual(plain);
    expect(await seen(trusting, '127.0.0.1', '/a/../b')).toEqual(plain);
    expect(await seen(trusting, '127.0.0.1', '/"><script>')).toEqual(plain);
  });
});

describe('the base-path setting', () => {
  it('is read from --base-path or FOLIO_BASE_PATH, normalised, and refused when it is not a plain path', () => {
    expect(readConfig([], {}).basePath).toBe('');
    expect(readConfig(['--base-path', '/folio/'], {}).basePath).toBe('/folio');
    expect(readConfig([], { FOLIO_BASE_PATH: 'books/comics' }).basePath).toBe('/books/comics');
    expect(readConfig(['--base-path', '/'], { FOLIO_BASE_PATH: '/ignored' }).basePath).toBe('');
    expect(() => readConfig(['--base-path', '/a/../b'], {})).toThrow(/Invalid base path: \/a\/\.\.\/b/);
    expect(() => readConfig(['--base-path', '/a b'], {})).toThrow(/Invalid base path/);
    expect(() => readConfig(['--base-path', '/a//b'], {})).toThrow(/empty segment/);
  });
});

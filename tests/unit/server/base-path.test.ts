import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
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

/**
 * The status and Location of a GET for `target` sent on the wire as it is (light-my-request would
 * read a leading `//` as a host name): the server listens on a free port the first time.
 */
async function rawGet(server: TestServer, target: string): Promise<{ status: number; location?: string }> {
  const address = new URL(server.app.server.listening ? `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}` : await server.app.listen({ port: 0, host: '127.0.0.1' }));
  const socket = connect(Number(address.port), '127.0.0.1');
  return new Promise((resolve, reject) => {
    let head = '';
    socket.setEncoding('latin1');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      head += chunk;
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.destroy();
      const [statusLine = '', ...headers] = head.slice(0, end).split('\r\n');
      const location = headers.find((h) => h.toLowerCase().startsWith('location:'))?.slice('location:'.length).trim();
      resolve({ status: Number(statusLine.split(' ')[1]), ...(location === undefined ? {} : { location }) });
    });
    socket.write(`GET ${target} HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`);
  });
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
    for (const path of ['/api/v1/books', '/opds/v1.2/catalog', '/actuator/health', '/sse/v1/events', '/api', '/oauth2/authorization/forge', '/login/oauth2/code/forge']) {
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

  it("sends a bookmark of the web client's kept from before the base path to the same address under it", async () => {
    for (const [path, location] of [
      ['/series/1', '/folio/series/1'],
      ['/book/abc/read?page=3&incognito=true', '/folio/book/abc/read?page=3&incognito=true'],
      ['/search?q=caf%C3%A9', '/folio/search?q=caf%C3%A9'],
      ['/login', '/folio/login'],
      ['/assets/index-2.js', '/folio/assets/index-2.js'],
      ['/folioX/api/v1/books', '/folio/folioX/api/v1/books'],
    ]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await server.app.inject({ method, url: path!, headers: { host: HOST } });
        expect(response.statusCode, `${method} ${path}`).toBe(302);
        expect(response.headers.location, `${method} ${path}`).toBe(location);
      }
    }
    // Only reads are sent on: a form or API call to a client address outside it stays a 404.
    expect((await server.app.inject({ method: 'POST', url: '/series/1', headers: { host: HOST }, payload: {} })).statusCode).toBe(404);
  });

  it("never redirects the server's own paths (no second API) nor a target that could leave the base path or the host", async () => {
    const refused = [
      '/api/v1/books',
      '/%61pi/v1/books',
      '/opds/v2/catalog',
      '/sse/v1/events',
      '/actuator/health',
      '/oauth2/authorization/forge',
      '/login/oauth2/code/forge',
      '/%2F%2Fevil.example/x',
      '/%2fevil.example',
      '/%5Cevil.example',
      '/series/%00',
      '/series/%zz',
      '/series/%C0',
    ];
    for (const url of refused) {
      const response = await server.app.inject({ method: 'GET', url, headers: { host: HOST } });
      // Fastify answers a broken escape (%zz, or one that is no UTF-8) with its own 400 before any hook.
      expect(response.statusCode, url).toBe(/%zz|%C0/.test(url) ? 400 : 404);
      expect(response.headers.location, url).toBeUndefined();
    }
    // Raw targets as a client can send them on the wire (light-my-request would resolve their dot
    // segments, escape quotes and brackets, and read a leading // as a host).
    for (const target of ['//evil.example/x', '/\\evil.example/x', '/series\\..\\..\\x', '/a/../api/v1/books', '/series/%2e%2e/%2E%2e/x', '/series/./1', '/series/"><script>']) {
      const response = await rawGet(server, target);
      expect(response.status, target).toBe(404);
      expect(response.location, target).toBeUndefined();
    }
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

describe('--base-path behind a trusted proxy', () => {
  it('does not send a bookmark on when the proxy says it stripped a prefix: the redirect would come back stripped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-base-path-proxy-'));
    const server = await startServer({ dir, basePath: '/folio', trustProxy: ['loopback'], clientDir: await clientDirIn(dir) });
    try {
      const inject = (headers: Record<string, string>, remoteAddress = '127.0.0.1') => server.app.inject({ method: 'GET', url: '/series/1', headers: { host: HOST, ...headers }, remoteAddress });
      const stripped = await inject({ 'x-forwarded-prefix': '/folio' });
      expect(stripped.statusCode).toBe(404);
      expect(stripped.headers.location).toBeUndefined();
      expect((await inject({})).headers.location).toBe('/folio/series/1');
      // The header from a peer that is not trusted is ignored, as everywhere.
      expect((await inject({ 'x-forwarded-prefix': '/folio' }, '203.0.113.9')).headers.location).toBe('/folio/series/1');
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
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

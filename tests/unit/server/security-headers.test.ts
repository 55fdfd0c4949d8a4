import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RED, createCbz } from '../../fixtures/index.ts';
import { HOSTILE_PATHS, createHostileEpub } from '../../fixtures/hostile-epub.ts';
import { HELMET_OPTIONS, helmetHeaders } from '../../../server/http/security-headers.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';


/**
 * Security headers on every response, and the user-content policy of everything that carries book
 * bytes (issue 10, items 1–2). Script execution itself is proven in real Chromium by
 * tests/e2e/book-content-xss.spec.ts; this checks the headers of every route family.
 */
let server: TestServer;
let epubId = '';
let cbzId = '';

beforeAll(async () => {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(join(tmpdir(), 'folio-headers-'));
  const client = join(dir, 'client');
  await mkdir(client, { recursive: true });
  await writeFile(join(client, 'index.html'), '<!doctype html><title>Folio</title>');
  server = await startServer({ dir, clientDir: client });
  await createHostileEpub(join(dir, 'lib', 'Hostile', 'Hostile.epub'));
  // A "page" whose extension lies: HTML bytes named .jpg are not an image, so not a page; a real image named .html is.
  await createCbz(join(dir, 'lib', 'Comic', 'Comic 01.cbz'), [{ width: 20, height: 30, color: RED, format: 'png', name: 'page.html' }]);
  await addLibrary(server, join(dir, 'lib'));
  const books = await server.json<{ content: { id: string; name: string }[] }>('/api/v1/books?unpaged=true');
  epubId = books.content.find((b) => b.name === 'Hostile')!.id;
  cbzId = books.content.find((b) => b.name === 'Comic 01')!.id;
}, 60_000);

afterAll(async () => {
  await server.close();
  // startServer keeps a folder it was given: this one is the test's own.
  const { rm } = await import('node:fs/promises');
  await rm(server.dir, { recursive: true, force: true });
});

const resource = (path: string, headers: Record<string, string> = server.admin) => server.get(`/api/v1/books/${epubId}/resource/${path}`, headers);

describe('web client', () => {
  it('has a CSP without inline script, cannot be framed by other sites, and sends no referrer away', async () => {
    for (const path of ['/', '/series/x', '/index.html']) {
      const r = await server.get(path, {});
      expect(r.statusCode, path).toBe(200);
      const csp = String(r.headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scriptSrc).toContain("'self'");
      expect(scriptSrc).not.toContain('unsafe-inline');
      expect(scriptSrc).not.toContain('unsafe-eval');
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(r.headers['referrer-policy']).toBe('same-origin');
    }
  });
});

describe('a URL the router cannot read', () => {
  it('is refused with every security header and the sandboxed CSP (its message quotes the URL)', async () => {
    // Bad percent-encoding and a parameter over the router's length limit: answered before any hook.
    for (const [url, status] of [['/api/v1/books/%zz<svg>', 400], ['/%zz', 400], [`/api/v1/books/${'x'.repeat(200)}`, 414]] as const) {
      const r = await server.get(url, {});
      expect(r.statusCode, url).toBe(status);
      expect(r.headers['content-type'], url).toContain('application/json');
      // Before: a bare JSON body with none of these.
      expect(r.headers['x-content-type-options'], url).toBe('nosniff');
      expect(r.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(String(r.headers['content-security-policy']).split(';')[0]?.trim(), url).toBe('sandbox');
      expect(r.json()).toMatchObject({ status, error: status === 400 ? 'Bad Request' : 'URI Too Long' });
    }
  });
});

describe("helmet's headers", () => {
  it('are the ones helmet itself sets, on the client and on pages alike, worked out once', async () => {
    const helmet = (await import('helmet')).default;
    const { ServerResponse, IncomingMessage } = await import('node:http');
    const { Socket } = await import('node:net');
    const request = new IncomingMessage(new Socket());
    const response = new ServerResponse(request);
    helmet(HELMET_OPTIONS)(request, response, () => undefined);
    const expected = Object.fromEntries(helmetHeaders().map(([name, value]) => [name.toLowerCase(), value]));
    for (const [name, value] of Object.entries(response.getHeaders())) expect(expected[name], name).toBe(String(value));
    expect(Object.keys(expected).sort()).toEqual(Object.keys(response.getHeaders()).sort());
    for (const path of ['/', `/api/v1/books/${cbzId}/pages/1`]) {
      const r = await server.get(path);
      for (const [name, value] of Object.entries(expected)) {
        // API responses carry the user-content policy instead of the client's (see below).
        if (name === 'content-security-policy' && path !== '/') continue;
        expect(r.headers[name], `${path} ${name}`).toBe(value);
      }
    }
  });
});

describe('book content', () => {
  it('is never served to anonymous callers, fonts and SVGs included', async () => {
    for (const path of Object.values(HOSTILE_PATHS)) {
      expect((await resource(path, { 'x-requested-with': 'XMLHttpRequest' })).statusCode, path).toBe(401);
    }
  });

  it('opened as a top-level document is sandboxed and runs no script', async () => {
    for (const path of [HOSTILE_PATHS.svg, HOSTILE_PATHS.xhtml, HOSTILE_PATHS.html]) {
      for (const dest of [{ 'sec-fetch-dest': 'document' }, {}] as Record<string, string>[]) {
        const r = await resource(path, { ...server.admin, ...dest });
        expect(r.statusCode, path).toBe(200);
        const csp = String(r.headers['content-security-policy']);
        expect(csp.split(';')[0]?.trim(), path).toBe('sandbox');
        expect(csp).toContain("script-src 'none'");
        expect(r.headers['x-content-type-options']).toBe('nosniff');
      }
    }
  });

  it('asked for by a percent-encoded path is judged by the path the router runs', async () => {
    // `/%61pi/` routes to the API: it must be authenticated and sandboxed like `/api/` (before: the
    // auth hook and the header policy read the raw text, saw no API path, and served the client CSP).
    const encoded = `/%61pi/v1/books/${epubId}/resource/${HOSTILE_PATHS.html}`;
    const anonymous = await server.get(encoded, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="Realm"');
    const r = await server.get(encoded, { ...server.admin, 'sec-fetch-dest': 'document' });
    expect(r.statusCode).toBe(200);
    expect(String(r.headers['content-security-policy']).split(';')[0]?.trim()).toBe('sandbox');
    expect(r.headers['cache-control']).toBe('max-age=0, must-revalidate, private');
  });

  it('shown in a reader frame keeps its origin (readers style it) but runs no script', async () => {
    const r = await resource(HOSTILE_PATHS.xhtml, { ...server.admin, 'sec-fetch-dest': 'iframe' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('application/xhtml+xml');
    const csp = String(r.headers['content-security-policy']);
    expect(csp).not.toContain('sandbox');
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
  });

  it('never serves a script as a script', async () => {
    for (const dest of ['script', 'worker', 'serviceworker', 'empty']) {
      const r = await resource(HOSTILE_PATHS.script, { ...server.admin, 'sec-fetch-dest': dest });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('application/octet-stream');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('pages, thumbnails, manifests and downloads carry nosniff and the user-content CSP', async () => {
    const paths = [
      `/api/v1/books/${cbzId}/pages/1`,
      `/api/v1/books/${cbzId}/pages/1/raw`,
      `/api/v1/books/${cbzId}/thumbnail`,
      `/api/v1/books/${cbzId}/file`,
      `/api/v1/books/${epubId}/manifest`,
      `/api/v1/books/${cbzId}`,
      '/opds/v1.2/catalog',
    ];
    for (const path of paths) {
      const r = await server.get(path, { ...server.admin, 'sec-fetch-dest': 'document' });
      expect(r.statusCode, path).toBe(200);
      expect(r.headers['x-content-type-options'], path).toBe('nosniff');
      expect(String(r.headers['content-security-policy']), path).toMatch(/^sandbox;.*script-src 'none'/);
    }
    const download = await server.get(`/api/v1/books/${cbzId}/file`);
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
  });
});

describe('embedding by other sites', () => {
  // A page of another site, or of the same site (another port of the host, a sibling subdomain:
  // SameSite=Lax sends the session cookie there), could show a reader's book pages and posters in
  // <img>, <video> or <audio> without asking anyone, and read their sizes; in a process it shares
  // with them, a Spectre-style read needs no more. Cross-Origin-Resource-Policy: same-origin makes
  // the browser refuse such no-cors loads from any other origin. Folio's own client is same-origin.
  const paths = () => [
    `/api/v1/books/${cbzId}/pages/1`,
    `/api/v1/books/${cbzId}/thumbnail`,
    `/api/v1/books/${cbzId}/file`,
    `/api/v1/books/${epubId}/resource/${HOSTILE_PATHS.svg}`,
    `/opds/v1.2/books/${cbzId}/pages/1`,
    `/api/v1/books/${cbzId}`,
    '/api/v1/books/no-such-book/pages/1',
    '/',
  ];

  it('is refused: every response is for this origin only when no CORS origin is configured', async () => {
    for (const path of paths()) {
      const r = await server.get(path);
      expect(r.statusCode, path).toBeLessThan(500);
      expect(r.headers['cross-origin-resource-policy'], path).toBe('same-origin');
    }
    // Before any hook ran (a URL the router cannot read) and before a login (401) too.
    for (const [url, headers] of [['/api/v1/books/%zz', {}], [`/api/v1/books/${cbzId}/pages/1`, {}]] as const) {
      expect((await server.get(url, headers)).headers['cross-origin-resource-policy'], url).toBe('same-origin');
    }
  });

  it('is left to the browser with --cors-origins: a web client there shows covers and pages in <img>', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { buildApp } = await import('../../../server/http/app.ts');
    const dir = await mkdtemp(join(tmpdir(), 'folio-corp-'));
    const app = await buildApp({ dataDir: join(dir, 'data'), clientDir: join(dir, 'none'), logLevel: 'error', corsOrigins: ['http://reader.test'] });
    try {
      for (const url of ['/api/v1/claim', '/api/v1/books/x/pages/1', '/']) {
        const r = await app.inject({ method: 'GET', url, headers: { origin: 'http://reader.test' } });
        expect(r.headers['cross-origin-resource-policy'], url).toBeUndefined();
      }
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

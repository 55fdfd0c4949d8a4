import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import type { BookDto } from '../../../src/api/types.ts';
import { type CompatServer, startCompatServer } from './komga-compat-helpers.ts';

/**
 * Request bodies as Komga's clients send them: axios's `post(url, null)` is an empty form post,
 * scripts send `Content-Type: application/json` on every call, Readium clients send +json types.
 */
let c: CompatServer;
beforeAll(async () => {
  c = await startCompatServer();
});
afterAll(async () => {
  await c.server.close();
});

const EMPTY_BODY_TYPES = ['application/x-www-form-urlencoded', 'application/json', 'application/json;charset=UTF-8', 'text/plain', 'application/octet-stream'];

describe('an empty body is no body, whatever Content-Type says', () => {
  it.each(EMPTY_BODY_TYPES)('POST /api/v1/libraries/{id}/scan with %s', async (contentType) => {
    const response = await c.send('POST', `/api/v1/libraries/${c.library.id}/scan`, { contentType, body: '' });
    expect(response.statusCode, response.body).toBe(202);
    await c.server.app.folio.tasks.idle();
  });

  it.each(EMPTY_BODY_TYPES)('PUT /api/v1/books/thumbnails with %s', async (contentType) => {
    const response = await c.send('PUT', '/api/v1/books/thumbnails?for_bigger_result_only=true', { contentType, body: '' });
    expect(response.statusCode, response.body).toBe(202);
    await c.server.app.folio.tasks.idle();
  });

  it('POST /api/v1/books/{id}/analyze and /refresh-metadata with an empty JSON body', async () => {
    const book = c.books[0]!;
    expect((await c.send('POST', `/api/v1/books/${book.id}/analyze`, { contentType: 'application/json' })).statusCode).toBe(202);
    expect((await c.send('POST', `/api/v1/books/${book.id}/metadata/refresh`, { contentType: 'application/x-www-form-urlencoded' })).statusCode).toBe(202);
    await c.server.app.folio.tasks.idle();
  });

  it('POST /api/logout with Content-Type: application/json and no body ends the session', async () => {
    const login = await c.send('GET', '/api/v2/users/me', { headers: { 'x-auth-token': '' } });
    const token = String(login.headers['x-auth-token'] ?? '');
    expect(token).not.toBe('');
    const session = { authorization: '', 'x-auth-token': token };
    expect((await c.server.get('/api/v2/users/me', session)).statusCode).toBe(200);
    const logout = await c.send('POST', '/api/logout', { contentType: 'application/json', headers: session });
    expect(logout.statusCode, logout.body).toBe(204);
    expect((await c.server.get('/api/v2/users/me', { 'x-auth-token': token, 'x-requested-with': 'XMLHttpRequest' })).statusCode).toBe(401);
  });

  // (A non-empty text/plain or form body is refused by the CSRF guard: a cross-site form can send those.)
  it('an unknown content type with a body is ignored on a route that reads no body', async () => {
    const response = await c.send('POST', `/api/v1/libraries/${c.library.id}/scan`, { contentType: 'application/xml', body: '<scan/>' });
    expect(response.statusCode, response.body).toBe(202);
    await c.server.app.folio.tasks.idle();
  });
});

describe('JSON bodies', () => {
  it('an unknown content type on a route that reads a body is 415', async () => {
    const response = await c.send('PATCH', `/api/v1/books/${c.books[0]!.id}/metadata`, { contentType: 'application/xml', body: '<title>x</title>' });
    expect(response.statusCode).toBe(415);
  });

  it('a body-reading route with an empty JSON body is a 400 naming what is missing', async () => {
    const response = await c.send('POST', '/api/v1/books/import', { contentType: 'application/json', body: '' });
    expect(response.statusCode).toBe(400);
  });

  it('application/*+json is JSON (Readium progression)', async () => {
    const comic = c.books.find((b) => b.media.mediaProfile === 'DIVINA' && b.media.status === 'READY')!;
    const body = {
      modified: '2026-01-02T03:04:05Z',
      device: { id: 'r1', name: 'Readium' },
      locator: { href: `/api/v1/books/${comic.id}/pages/2`, type: 'image/png', locations: { position: 2 } },
    };
    const response = await c.send('PUT', `/api/v1/books/${comic.id}/progression`, { contentType: 'application/vnd.readium.progression+json', body });
    expect(response.statusCode, response.body).toBe(204);
    expect((await c.server.json<BookDto>(`/api/v1/books/${comic.id}`)).readProgress).toMatchObject({ page: 2 });
  });

  it('malformed JSON is a 400 in Spring’s error shape', async () => {
    const response = await c.send('PATCH', `/api/v1/books/${c.books[0]!.id}/metadata`, { contentType: 'application/json', body: '{"title": ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, path: `/api/v1/books/${c.books[0]!.id}/metadata` });
  });

  it('a prototype-poisoning body is refused', async () => {
    const response = await c.send('PATCH', `/api/v1/books/${c.books[0]!.id}/metadata`, { contentType: 'application/json', body: '{"__proto__": {"admin": true}}' });
    expect(response.statusCode).toBe(400);
  });
});

describe('deeply nested JSON', () => {
  const timed = async (body: string) => {
    const start = performance.now();
    const response = await c.send('POST', '/api/v1/series/list', { contentType: 'application/json', body });
    return { response, ms: performance.now() - start };
  };

  it('is refused before it is parsed, past Jackson’s 1,000 levels, while 1,000 levels still parse', async () => {
    // Four MB of brackets: JSON.parse took over a second of the main thread for it (any signed-in
    // user could stall the server for everyone), ten times a flat body of the same size.
    const depth = 2_000_000;
    const deepBody = '['.repeat(depth) + ']'.repeat(depth);
    const flatBody = `[${Array.from({ length: depth }, () => '1').join(',')}]`;
    // Fastest of three, taken alternately: one sample each lost to a pause of the other test file
    // on the same two cores (seen: deep 85 ms where it is 12-15 ms, flat 90-300 ms at load 8-9).
    const deepMs: number[] = [];
    const flatMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const deep = await timed(deepBody);
      expect(deep.response.statusCode).toBe(400);
      expect(deep.response.json().message).toMatch(/nested deeper than 1000/);
      deepMs.push(deep.ms);
      const flat = await timed(flatBody);
      expect(flat.response.statusCode).toBe(400);
      flatMs.push(flat.ms);
    }
    expect(Math.min(...deepMs), `deep ${deepMs.map(Math.round).join('/')} ms, flat ${flatMs.map(Math.round).join('/')} ms`).toBeLessThan(Math.min(...flatMs));
    // Brackets inside strings are text, not nesting.
    // (In a member the search ignores: a condition's own texts are at most 1,000 characters: MAX_CONDITION_TEXT.)
    const inText = await timed(JSON.stringify({ condition: { title: { operator: 'is', value: 'x' } }, note: '['.repeat(5000) }));
    expect(inText.response.statusCode).toBe(200);
    const allowed = await timed(`{"x":${'['.repeat(999)}${']'.repeat(999)}}`);
    expect(allowed.response.json().message ?? '').not.toMatch(/nested deeper/);
  }, 30_000);
});

describe('bodies without credentials', () => {
  const big = JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) });
  const anonymous = (method: 'POST' | 'PUT', url: string, payload: string | Readable, headers: Record<string, string> = {}) =>
    c.server.app.inject({ method, url, headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', ...headers }, payload });

  it('are refused past a few KiB before being read, on anonymous routes and unknown paths alike', async () => {
    // Before: each was read and parsed whole (2 MiB here, up to 10 MiB), then answered 400, 204 or 404.
    for (const url of ['/api/v1/claim', '/api/logout', '/anything', '/login/oauth2/code/x']) {
      const response = await anonymous('POST', url, big);
      expect(response.statusCode, url).toBe(413);
    }
    // A body sent in chunks declares no length: refused without counting it.
    const chunked = await anonymous('POST', '/api/v1/claim', Readable.from([Buffer.from(big)]), { 'transfer-encoding': 'chunked' });
    expect(chunked.statusCode).toBe(413);
  });

  it('still reach anonymous routes when small or empty, and a signed-in caller keeps the usual limit', async () => {
    expect((await anonymous('POST', '/api/v1/claim', '')).statusCode).toBe(400); // already claimed
    expect((await anonymous('POST', '/api/logout', '{}')).statusCode).toBe(204);
    const signedIn = await c.send('PATCH', '/api/v1/client-settings/user', { contentType: 'application/json', body: JSON.stringify({ 'folio.test': { value: 'y'.repeat(50_000) } }) });
    expect(signedIn.statusCode, signedIn.body).toBe(204);
  });
});

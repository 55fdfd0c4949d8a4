import Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { serverMessage } from '../../../src/ui/serverMessages.ts';
import { rm } from 'node:fs/promises';
import { RED, createBrokenCbz, createCbz, renderPage } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, multipartFile, startServer, type TestServer } from './helpers.ts';
import { send } from './accounts-helpers.ts';

/**
 * A failed call's `message` is an English sentence the server writes (the API keeps it: Komga's
 * clients read it). The client shows the ones a person can meet in its screens translated, through
 * src/ui/serverMessages.ts; one that table does not know reaches every language in English. This
 * test makes the real server answer each refusal the web client's forms can provoke (names taken,
 * blank or malformed fields, over-long texts, bad library folders, bad metadata values, API key
 * limits) and fails when the table does not read one, or reads it to a key en.json lacks.
 */
let server: TestServer;
let seriesId: string;
let bookId: string;

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'lib');
  await createCbz(join(root, 'One', 'One 01.cbz'), [{ width: 20, height: 30, color: RED, format: 'png' }]);
  await addLibrary(server, root);
  seriesId = (await server.json<{ content: { id: string }[] }>('/api/v1/series?unpaged=true')).content[0]!.id;
  bookId = (await server.json<{ content: { id: string }[] }>('/api/v1/books?unpaged=true')).content[0]!.id;
});
afterAll(async () => server?.close());

type Call = [method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>];

function keyExists(key: string): boolean {
  let node: unknown = en;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string' || (typeof node === 'object' && node !== null && 'other' in node);
}

describe('refusals the web client can meet, as it shows them', () => {
  it('are each a message the client translates', async () => {
    for (const [url, body] of [
      ['/api/v1/collections', { name: 'Taken', seriesIds: [seriesId] }],
      ['/api/v1/readlists', { name: 'Taken', bookIds: [bookId] }],
    ] as const) expect((await send(server, 'POST', url, server.admin, body)).statusCode).toBe(200);
    await insertUser(server, 'reader@example.org', 'secret', []);
    const adminId = (await server.json<{ id: string }>('/api/v2/users/me')).id;
    // The API keys a user may hold, then one more.
    let keys = 0;
    while ((await send(server, 'POST', '/api/v2/users/me/api-keys', server.admin, { comment: `key ${++keys}` })).statusCode === 200) {
      expect(keys).toBeLessThan(1000);
    }
    const long = 'x'.repeat(20_000);
    const calls: Call[] = [
      // Names taken, blank, too long.
      ['POST', '/api/v1/collections', { name: 'Taken', seriesIds: [seriesId] }],
      ['POST', '/api/v1/collections', { name: ' ', seriesIds: [seriesId] }],
      ['POST', '/api/v1/collections', { name: long, seriesIds: [seriesId] }],
      ['POST', '/api/v1/readlists', { name: 'Taken', bookIds: [bookId] }],
      ['POST', '/api/v1/readlists', { name: 'Empty', bookIds: [] }],
      // Accounts: malformed e-mail, blank password, missing field, own account, API key comment.
      ['POST', '/api/v2/users', { email: 'not-an-email', password: 'p', roles: [] }],
      ['POST', '/api/v2/users', { email: 'new@example.org', password: ' ', roles: [] }],
      ['POST', '/api/v2/users', { email: 'new@example.org', roles: [] }],
      ['POST', '/api/v2/users', { email: 'not-an-email', password: ' ', roles: [] }],
      ['PATCH', '/api/v2/users/me/password', { password: ' ' }],
      ['POST', '/api/v2/users/me/api-keys', { comment: ' ' }],
      ['POST', '/api/v1/claim', undefined, { 'x-komga-email': 'x@example.org', 'x-komga-password': 'p' }],
      // Library folders.
      ['POST', '/api/v1/libraries', { name: 'Relative', root: 'relative/path' }],
      ['POST', '/api/v1/libraries', { name: 'Missing', root: join(server.dir, 'no-such-folder') }],
      ['POST', '/api/v1/libraries', { name: 'Inside', root: join(server.dir, 'lib', 'One') }],
      ['POST', '/api/v1/libraries', { name: 'Data', root: server.dataDir }],
      ['POST', '/api/v1/libraries', { name: 'System', root: '/proc' }],
      ['POST', '/api/v1/libraries', { name: ' ', root: join(server.dir, 'lib') }],
      ['POST', '/api/v1/libraries', { name: 'Comics', root: join(server.dir, 'elsewhere') }],
      ['POST', '/api/v1/filesystem', { path: 'relative' }],
      ['POST', '/api/v1/transient-books', { path: 'relative' }],
      // Something gone meanwhile, or not the caller's to see.
      ['GET', '/api/v1/books/no-such-book'],
      ['GET', '/api/v1/libraries/no-such-library'],
      ['GET', '/api/v2/users', undefined, { authorization: basic('reader@example.org', 'secret') }],
      ['DELETE', `/api/v2/users/${adminId}`],
      // Metadata values.
      ['PATCH', `/api/v1/books/${bookId}/metadata`, { isbn: '12345' }],
      ['PATCH', `/api/v1/books/${bookId}/metadata`, { releaseDate: '2020-13-45' }],
      ['PATCH', `/api/v1/books/${bookId}/metadata`, { links: [{ label: 'Site', url: 'not a url' }] }],
      ['PATCH', `/api/v1/books/${bookId}/metadata`, { links: [{ label: 'Site', url: 'javascript:alert(1)' }] }],
      ['PATCH', `/api/v1/books/${bookId}/metadata`, { title: ' ' }],
      ['PATCH', `/api/v1/books/${bookId}/metadata`, { title: long }],
      ['PATCH', `/api/v1/series/${seriesId}/metadata`, { language: 'not a language' }],
      ['PATCH', `/api/v1/series/${seriesId}/metadata`, { ageRating: -1 }],
      ['PATCH', `/api/v1/series/${seriesId}/metadata`, { totalBookCount: 0 }],
      ['PATCH', `/api/v1/series/${seriesId}/metadata`, { tags: Array.from({ length: 5000 }, (_, i) => `t${i}`) }],
      // A paragraph pasted into the search box: too long, too many different words.
      ['POST', '/api/v1/series/list', { fullTextSearch: 'x'.repeat(1001) }],
      ['POST', '/api/v1/books/list', { fullTextSearch: Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ') }],
    ];
    const messages: string[] = [];
    for (const [method, url, body, headers] of calls) {
      const response = await send(server, method, url, headers ?? server.admin, body);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(body)?.slice(0, 80)}: ${response.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      messages.push((response.json() as { message: string }).message);
    }
    // Another process holding the database's write lock past the busy wait (1 s).
    const other = new Database(join(server.dataDir, 'folio.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    other.prepare("UPDATE server_setting SET value = value WHERE key = 'nothing'").run();
    try {
      const busy = await send(server, 'POST', '/api/v1/collections', server.admin, { name: 'While locked', seriesIds: [seriesId] });
      expect(busy.statusCode).toBe(503);
      messages.push((busy.json() as { message: string }).message);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // A full disk, as SQLite meets it: the database may not grow by a page (SQLITE_FULL).
    const db = server.app.folio.db;
    const pages = Number(db.pragma('page_count', { simple: true }));
    db.pragma(`max_page_count = ${pages}`);
    try {
      const tags = Array.from({ length: 200 }, (_, i) => `${'label '.repeat(100)}${i}`);
      const full = await send(server, 'PATCH', `/api/v1/series/${seriesId}/metadata`, server.admin, { tags });
      expect(full.statusCode, full.body).toBe(503);
      messages.push((full.json() as { message: string }).message);
    } finally {
      db.pragma('max_page_count = 4294967294');
    }
    const limit = await send(server, 'POST', '/api/v2/users/me/api-keys', server.admin, { comment: 'one too many' });
    messages.push((limit.json() as { message: string }).message);
    const unknown = [...new Set(messages)].filter((message) => {
      // A bare Komga error code is explained by its own table (error_codes in en.json).
      if (/^ERR_\d{4}$/.test(message)) return !keyExists(`error_codes.${message}`);
      const read = serverMessage(message);
      return !read || !read.parts.every((part) => keyExists(part.key));
    });
    expect(new Set(messages).size).toBeGreaterThanOrEqual(28);
    expect(unknown).toEqual([]);
  });

  it("reading and poster refusals (a book that cannot be read, a page or file gone, an upload that is not an image) are each a message the client translates", async () => {
    const fresh = await startServer();
    try {
      const root = join(fresh.dir, 'lib');
      await createCbz(join(root, 'Good', 'Good 01.cbz'), [{ width: 20, height: 30, color: RED, format: 'png' }]);
      await createCbz(join(root, 'Gone', 'Gone 01.cbz'), [{ width: 20, height: 30, color: RED, format: 'png' }]);
      await createBrokenCbz(join(root, 'Broken', 'Broken 01.cbz'));
      await addLibrary(fresh, root);
      const books = (await fresh.json<{ content: { id: string; name: string; media: { status: string } }[] }>('/api/v1/books?unpaged=true')).content;
      const byName = (name: string) => books.find((book) => book.name === name)!;
      // Not a zip at all: analysed as UNSUPPORTED, so its pages are refused with the reason.
      expect(byName('Broken 01').media.status).not.toBe('READY');
      await rm(join(root, 'Gone', 'Gone 01.cbz'));
      const upload = (body: { payload: Buffer; headers: Record<string, string> }) =>
        fresh.app.inject({ method: 'POST', url: `/api/v1/books/${byName('Good 01').id}/thumbnails`, headers: { ...fresh.admin, ...body.headers }, payload: body.payload });
      const empty = multipartFile(Buffer.alloc(0));
      const refusals = [
        await send(fresh, 'GET', `/api/v1/books/${byName('Broken 01').id}/pages/1`, fresh.admin),
        await send(fresh, 'GET', `/api/v1/books/${byName('Good 01').id}/pages/9`, fresh.admin),
        await send(fresh, 'GET', `/api/v1/books/${byName('Gone 01').id}/pages/1`, fresh.admin),
        await upload(multipartFile(Buffer.from('not an image at all'))),
        await upload({ payload: Buffer.from(empty.payload.toString().replace(/Content-Disposition: form-data; name="file"; filename="poster.png"/, 'Content-Disposition: form-data; name="selected"')), headers: empty.headers }),
        await upload(multipartFile(Buffer.alloc(11 * 1024 * 1024))),
      ];
      // The uploaded posters an item may hold, then one more.
      const poster = multipartFile(await renderPage({ width: 4, height: 6, color: RED, format: 'png' }));
      let posters = 0;
      let answer;
      while ((answer = await upload(poster)).statusCode === 200) expect(++posters).toBeLessThan(1000);
      refusals.push(answer);
      // An API key comment the account already uses (Komga's ERR_1034).
      expect((await send(fresh, 'POST', '/api/v2/users/me/api-keys', fresh.admin, { comment: 'twice' })).statusCode).toBe(200);
      refusals.push(await send(fresh, 'POST', '/api/v2/users/me/api-keys', fresh.admin, { comment: 'twice' }));
      const messages = refusals.map((response) => {
        expect(response.statusCode, response.body.slice(0, 200)).toBeGreaterThanOrEqual(400);
        return (response.json() as { message: string }).message;
      });
      expect(new Set(messages).size).toBe(8);
      const unknown = messages.filter((message) => {
        if (/^ERR_\d{4}$/.test(message)) return !keyExists(`error_codes.${message}`);
        const read = serverMessage(message);
        return !read || !read.parts.every((part) => keyExists(part.key));
      });
      expect(unknown).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('on a server not yet claimed and without libraries, are each a message the client translates', async () => {
    const fresh = await startServer({ claim: false });
    try {
      const claim = (email: string, password: string) =>
        send(fresh, 'POST', '/api/v1/claim', { 'x-komga-email': email, 'x-komga-password': password });
      const messages = [(await claim('not-an-email', 'p')).json().message, (await claim('first@example.org', ' ')).json().message];
      expect((await claim('first@example.org', 'right')).statusCode).toBe(200);
      const admin = { authorization: basic('first@example.org', 'right') };
      for (const root of ['/', dirname(fresh.dataDir)]) {
        const response = await send(fresh, 'POST', '/api/v1/libraries', admin, { name: 'Refused', root });
        expect(response.statusCode).toBe(400);
        messages.push(response.json().message);
      }
      expect(new Set(messages).size).toBe(4);
      expect(messages.filter((message: string) => !serverMessage(message)?.parts.every((part) => keyExists(part.key)))).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('when too many sign-ins wait for one address, is a message the client translates', async () => {
    const fresh = await startServer();
    try {
      // Bad API keys are checked eight at a time per address; more at once are refused (429).
      const crowd = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          send(fresh, 'GET', '/api/v2/users/me', { 'x-requested-with': 'XMLHttpRequest', 'x-api-key': `no-such-key-${i}` }),
        ),
      );
      const refused = crowd.filter((response) => response.statusCode === 429);
      expect(refused.length).toBeGreaterThan(0);
      const messages = [...new Set(refused.map((response) => response.json().message as string))];
      expect(messages.filter((message) => !serverMessage(message)?.parts.every((part) => keyExists(part.key)))).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('search, settings, reading-position, cross-site and gone-meanwhile refusals are each read to the key that says them', async () => {
    const progression = (position: number, modified: string, extra: object = {}) => ({
      modified,
      device: { id: 'messages-test', name: 'Messages test' },
      locator: { href: '1', type: 'image/png', locations: { position, progression: 0, totalProgression: 0 }, ...extra },
    });
    expect((await send(server, 'PUT', `/api/v1/books/${bookId}/progression`, server.admin, progression(1, '2030-01-02T00:00:00Z'))).statusCode).toBe(204);
    const tags = Array.from({ length: 101 }, (_, i) => ({ tag: { operator: 'is', value: `tag ${i}` } }));
    const cases: [key: string, ...call: Call][] = [
      // A write with Basic credentials that a page of another site sent (csrf.ts).
      ['server_messages.cross_site_refused', 'POST', '/api/v1/collections', { name: 'Elsewhere', seriesIds: [seriesId] }, { ...server.admin, origin: 'https://elsewhere.example' }],
      // Search: a condition no version of the client writes, brackets nested too deep, a filter of too many choices.
      ['server_messages.search_invalid', 'POST', '/api/v1/series/list', { condition: { nothingLikeThis: { operator: 'is', value: 'x' } } }],
      ['server_messages.search_invalid', 'POST', '/api/v1/books/list', { condition: { tag: { operator: 'sortOf', value: 'x' } } }],
      ['server_messages.search_too_deep', 'POST', '/api/v1/series/list', { fullTextSearch: `${'('.repeat(20)}x${')'.repeat(20)}` }],
      ['server_messages.search_too_many_parts', 'POST', '/api/v1/books/list', { condition: { anyOf: tags } }],
      // The reader's settings kept on the server, past its bounds.
      ['server_messages.settings_too_large', 'PATCH', '/api/v1/client-settings/user', { 'folio.too-large': { value: 'é'.repeat(40_000) } }],
      ['server_messages.settings_too_large', 'PATCH', '/api/v1/client-settings/user', { ['k'.repeat(300)]: { value: 'x' } }],
      // Reading positions: a page the book (changed since) does not have, an older one than saved, an over-large locator.
      ['server_messages.progress_invalid', 'PATCH', `/api/v1/books/${bookId}/read-progress`, { page: 5 }],
      ['server_messages.progress_invalid', 'PUT', `/api/v1/books/${bookId}/progression`, progression(5, '2030-01-03T00:00:00Z')],
      ['server_messages.progress_invalid', 'PUT', `/api/v1/books/${bookId}/progression`, progression(1, '2030-01-03T00:00:00Z', { text: { highlight: 'x'.repeat(20_000) } })],
      ['server_messages.progress_newer_exists', 'PUT', `/api/v1/books/${bookId}/progression`, progression(1, '2030-01-01T00:00:00Z')],
      // Picked, then deleted meanwhile.
      ['server_messages.series_gone', 'POST', '/api/v1/collections', { name: 'Gone meanwhile', seriesIds: ['no-such-series'] }],
      ['server_messages.books_gone', 'POST', '/api/v1/readlists', { name: 'Gone meanwhile', bookIds: ['no-such-book'] }],
      ['server_messages.duplicate_gone', 'POST', '/api/v1/page-hashes/no-such-hash/delete-all', {}],
      ['server_messages.duplicate_gone', 'POST', '/api/v1/page-hashes/no-such-hash/delete-match', { bookId, pageNumber: 1 }],
    ];
    const read: string[] = [];
    for (const [key, method, url, body, headers] of cases) {
      const response = await send(server, method, url, headers ?? server.admin, body);
      const { message } = response.json() as { message: string };
      expect(response.statusCode, `${method} ${url}: ${message}`).toBeGreaterThanOrEqual(400);
      const parts = serverMessage(message)?.parts ?? [];
      read.push(`${message.slice(0, 60)} → ${parts.map((part) => part.key).join(', ')}`);
      expect(parts.map((part) => part.key), message).toEqual([key]);
      expect(keyExists(key), key).toBe(true);
    }
    expect(read).toHaveLength(cases.length);
  });
});

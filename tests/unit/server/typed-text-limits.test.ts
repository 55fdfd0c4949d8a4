import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_LIMITS } from '../../../server/domain/metadata/imported-text.ts';
import { INPUT_LIMITS, type RequestSchema as Schema } from '../../../server/http/input-limits.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { send } from './accounts-helpers.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * What people type (names, summaries, e-mails, metadata, passwords, lists of ids) is bounded by one
 * policy in the request schemas (server/http/input-limits.ts), like what books say about themselves
 * (IMPORT_LIMITS): before it, a collection named with 1 MB of text was stored and sent to every
 * reader in every list of collections, and a series title edited to 1 MB likewise.
 */
let server: TestServer;
let reader: Record<string, string>;
let seriesId = '';
let bookId = '';
let libraryId = '';

beforeAll(async () => {
  server = await startServer();
  await insertUser(server, 'reader@example.org', 'pw', ['PAGE_STREAMING']);
  reader = { authorization: basic('reader@example.org', 'pw') };
  await createCbz(join(server.dir, 'lib', 'S', 'S 01.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
  libraryId = (await addLibrary(server, join(server.dir, 'lib'))).id;
  const books = await server.json<{ content: { id: string; seriesId: string }[] }>('/api/v1/books');
  bookId = books.content[0]!.id;
  seriesId = books.content[0]!.seriesId;
}, 60_000);

afterAll(async () => {
  await server.close();
});

const text = (length: number) => 'n'.repeat(length);
const short = INPUT_LIMITS.textChars;
const long = INPUT_LIMITS.longTextChars;

/** A 400 whose violations name the field and the bound. */
async function refused(method: 'POST' | 'PATCH' | 'PUT', url: string, body: unknown, field: string, headers = server.admin) {
  const response = await send(server, method, url, headers, body);
  expect(response.statusCode, `${method} ${url} ${field}: ${response.body.slice(0, 200)}`).toBe(400);
  const violations = (response.json() as { violations?: { fieldName: string; message: string }[] }).violations ?? [];
  expect(violations, response.body.slice(0, 300)).toContainEqual({ fieldName: field, message: expect.stringMatching(/more than \d+/) });
}

describe('typed texts past their bound are a 400 naming the field', () => {
  it('collections: a name, a list of series ids', async () => {
    await refused('POST', '/api/v1/collections', { name: text(1_000_000), seriesIds: [seriesId] }, 'name');
    await refused('POST', '/api/v1/collections', { name: text(short + 1), seriesIds: [seriesId] }, 'name');
    const ids = Array.from({ length: INPUT_LIMITS.batchItems + 1 }, (_, i) => `s${i}`);
    await refused('POST', '/api/v1/collections', { name: 'many', seriesIds: ids }, 'seriesIds');
    const fits = await send(server, 'POST', '/api/v1/collections', server.admin, { name: text(short), seriesIds: [seriesId] });
    expect(fits.statusCode).toBe(200);
    const id = (fits.json() as { id: string }).id;
    await refused('PATCH', `/api/v1/collections/${id}`, { name: text(short + 1) }, 'name');
    // Nothing stored but what fitted.
    const stored = await server.json<{ name: string }>(`/api/v1/collections/${id}`);
    expect(stored.name).toHaveLength(short);
  });

  it('read lists: a name, a summary', async () => {
    await refused('POST', '/api/v1/readlists', { name: text(short + 1), bookIds: [bookId] }, 'name');
    await refused('POST', '/api/v1/readlists', { name: 'arc', summary: text(long + 1), bookIds: [bookId] }, 'summary');
    const fits = await send(server, 'POST', '/api/v1/readlists', server.admin, { name: 'arc', summary: text(long), bookIds: [bookId] });
    expect(fits.statusCode).toBe(200);
    const id = (fits.json() as { id: string }).id;
    await refused('PATCH', `/api/v1/readlists/${id}`, { summary: text(10 * 1024 * 1024 - 100) }, 'summary');
  });

  it('read lists: as many books as a ComicRack list names, and an error naming a few of those unknown', async () => {
    const ids = (count: number) => Array.from({ length: count }, (_, i) => `b${i}`);
    await refused('POST', '/api/v1/readlists', { name: 'universe', bookIds: ids(INPUT_LIMITS.batchItems + 1) }, 'bookIds');
    // A whole-universe reading order of 50,000 books is within the bound; its unknown ids are named
    // a few, not all (the message was 50,000 ids long).
    const unknown = await send(server, 'POST', '/api/v1/readlists', server.admin, { name: 'universe', bookIds: ids(50_000) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^Unknown books: b0, b1, .* and 49,980 more$/);
  });

  it('libraries: a name, exclusions', async () => {
    await refused('PATCH', `/api/v1/libraries/${libraryId}`, { name: text(short + 1) }, 'name');
    const many = Array.from({ length: INPUT_LIMITS.listItems + 1 }, (_, i) => `.x${i}`);
    await refused('PATCH', `/api/v1/libraries/${libraryId}`, { scanDirectoryExclusions: many }, 'scanDirectoryExclusions');
  });

  it('users: an e-mail, a password, labels', async () => {
    const email = `${text(short)}@example.org`;
    await refused('POST', '/api/v2/users', { email, password: 'pw', roles: [] }, 'email');
    await refused('POST', '/api/v2/users', { email: 'new@example.org', password: text(short + 1), roles: [] }, 'password');
    const labels = Array.from({ length: INPUT_LIMITS.listItems + 1 }, (_, i) => `l${i}`);
    await refused('POST', '/api/v2/users', { email: 'new@example.org', password: 'pw', labelsExclude: labels }, 'labelsExclude');
    // A signed-in reader's own password change: a megabyte is no password.
    await refused('PATCH', '/api/v2/users/me/password', { password: text(1_000_000) }, 'password', reader);
  });

  it('whole numbers stay within the Int that Komga declares: an age limit, a page, a count', async () => {
    const user = (await send(server, 'POST', '/api/v2/users', server.admin, { email: 'ages@example.org', password: 'pw', roles: [] })).json() as { id: string };
    const tooBig = 99_999_999_999;
    for (const [method, url, body] of [
      ['PATCH', `/api/v2/users/${user.id}`, { ageRestriction: { age: tooBig, restriction: 'ALLOW_ONLY' } }],
      ['PATCH', `/api/v1/books/${bookId}/read-progress`, { page: INPUT_LIMITS.intMax + 1 }],
      ['PATCH', `/api/v1/series/${seriesId}/metadata`, { totalBookCount: tooBig }],
    ] as const) {
      const response = await send(server, method, url, server.admin, body);
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(400);
    }
    const stored = (await send(server, 'GET', `/api/v2/users`, server.admin)).json() as { id: string; ageRestriction: unknown }[];
    expect(stored.find((u) => u.id === user.id)!.ageRestriction).toBeNull();
    // The largest Int is still an Int.
    const largest = await send(server, 'PATCH', `/api/v2/users/${user.id}`, server.admin, { ageRestriction: { age: INPUT_LIMITS.intMax, restriction: 'ALLOW_ONLY' } });
    expect(largest.statusCode).toBe(204);
  });

  it('typed metadata obeys the import limits', async () => {
    expect(INPUT_LIMITS.textChars).toBe(IMPORT_LIMITS.textChars);
    expect(INPUT_LIMITS.longTextChars).toBe(IMPORT_LIMITS.longTextChars);
    expect(INPUT_LIMITS.listItems).toBe(IMPORT_LIMITS.listValues);
    await refused('PATCH', `/api/v1/series/${seriesId}/metadata`, { title: text(short + 1) }, 'title');
    await refused('PATCH', `/api/v1/series/${seriesId}/metadata`, { summary: text(long + 1) }, 'summary');
    const tags = Array.from({ length: INPUT_LIMITS.listItems + 1 }, (_, i) => `t${i}`);
    await refused('PATCH', `/api/v1/series/${seriesId}/metadata`, { tags }, 'tags');
    await refused('PATCH', `/api/v1/books/${bookId}/metadata`, { authors: [{ name: text(short + 1), role: 'writer' }] }, 'authors.name');
    const fits = await send(server, 'PATCH', `/api/v1/series/${seriesId}/metadata`, server.admin, { title: text(short), summary: text(long) });
    expect(fits.statusCode).toBe(204);
  });

  it('a reader’s API key comment', async () => {
    await refused('POST', '/api/v2/users/me/api-keys', { comment: text(INPUT_LIMITS.textChars * 100) }, 'comment', reader);
  });
});

/** Every string, list and map in a schema without a bound, by path. */
function unbounded(schema: Schema | undefined, path: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const types = [schema.type ?? []].flat();
  const found: string[] = [];
  if (types.includes('string') && schema.maxLength === undefined && !schema.enum && schema.const === undefined) found.push(`${path} (text)`);
  if (types.includes('array') && schema.maxItems === undefined) found.push(`${path} (list)`);
  if (schema.patternProperties && schema.maxProperties === undefined) found.push(`${path} (map)`);
  for (const [name, property] of Object.entries(schema.properties ?? {})) found.push(...unbounded(property, `${path}.${name}`));
  for (const value of Object.values(schema.patternProperties ?? {})) found.push(...unbounded(value, `${path}.*`));
  if (schema.items) found.push(...unbounded(schema.items, `${path}[]`));
  for (const option of schema.anyOf ?? []) found.push(...unbounded(option, path));
  return found;
}

describe('the policy covers every route', () => {
  it('every text, list and map a body may carry has a bound', () => {
    const found = server.app.routeTable.flatMap((route) => {
      const body = (route.schema as { body?: Schema } | undefined)?.body;
      return unbounded(body, 'body').map((where) => `${[route.method].flat().join(',')} ${route.url} ${where}`);
    });
    expect(found).toEqual([]);
  });

  it('a query is bounded as a whole by the header limit (431), on a real connection', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const get = (query: string) => fetch(`http://127.0.0.1:${port}/api/v1/series?${query}`, { headers: reader });
    expect((await get(`search=${'q'.repeat(900)}`)).status).toBe(200);
    expect((await get(`search=${'q'.repeat(20 * 1024)}`)).status).toBe(431);
  });
});

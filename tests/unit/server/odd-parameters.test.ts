import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/**
 * Every operation of Komga's contract, and the OPDS feeds, asked with odd values a script or a hand-typed URL may send:
 * each query parameter it declares set to text that is empty, negative, not a number, past 64 bits
 * or otherwise malformed; unknown and malformed ids in the path; bodies of the wrong shape. The
 * server may refuse (4xx) or ignore them as Spring does, never fail with a 5xx.
 * (page=99999999999999999999 once reached SQLite as a float OFFSET and answered 500 on every list.)
 */
type Operation = { method: HTTPMethods; path: string; query: string[]; body: boolean };

const contract = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/komga-openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; requestBody?: unknown }>>;
};

const ODD_VALUES = ['', '-1', 'abc', '99999999999999999999', '1e400', '1.5', 'a,b', '\u0000', '[]', ' ', '../..', '\u202e'];
const ODD_IDS = ['nope', '%E2%80%AE%00', '..%2F..', '9'.repeat(40)];
const ODD_BODIES = ['{}', '[]', 'null', '"x"', '1', '{"a":{"b":[1,{"c":null}]}}', '[null]', '[{}]', '{"name":null}', '{"name":5}'];
const SORTS = ['sort=name,sideways', 'sort=,,', 'sort=%00', 'page=1&size=0', 'size=-5', 'unpaged=yes'];
// The claim only answers before the first account exists; the sweep is already past it.
const SKIPPED = new Set(['/api/v1/claim']);

const operations: Operation[] = Object.entries(contract.paths)
  .filter(([path]) => !SKIPPED.has(path))
  .flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase() as HTTPMethods,
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: op.requestBody !== undefined,
      })),
  )
  // Outside Komga's contract: the OPDS 1.2 catalog e-readers page through.
  .concat(
    ['/opds/v1.2/catalog', '/opds/v1.2/libraries', '/opds/v1.2/libraries/{libraryId}', '/opds/v1.2/series', '/opds/v1.2/series/{seriesId}', '/opds/v1.2/ondeck', '/opds/v1.2/search'].map(
      (path) => ({ method: 'GET' as HTTPMethods, path, query: ['page', 'search'], body: false }),
    ),
  )
  // What deletes goes last, so the rest is asked about things that exist.
  .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

let dir: string;
let server: TestServer;
let realIds: Record<string, string>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-odd-'));
  server = await startServer({ dir: join(dir, 'server') });
  const library: LibraryDto = await addLibrary(server, (await createSampleLibrary(join(dir, 'library'))).root);
  const book = (await server.json<Page<BookDto>>('/api/v1/books?sort=name')).content[0]!;
  const series = (await server.json<Page<SeriesDto>>('/api/v1/series?sort=name')).content[0]!;
  realIds = { libraryId: library.id, bookId: book.id, seriesId: series.id };
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function withIds(path: string, id: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => id(name));
}

async function failures(operation: Operation): Promise<string[]> {
  const urls = [
    withIds(operation.path, (name) => realIds[name] ?? realIds.bookId!),
    ...ODD_IDS.map((odd) => withIds(operation.path, () => odd)),
  ];
  const found: string[] = [];
  for (const base of urls) {
    const queries = ['', ...SORTS, ...operation.query.flatMap((name) => ODD_VALUES.map((value) => `${name}=${encodeURIComponent(value)}`))];
    const asks: { url: string; body?: string }[] = queries.map((query) => ({ url: query ? `${base}?${query}` : base }));
    if (operation.body) for (const body of ODD_BODIES) asks.push({ url: base, body });
    for (const ask of asks) {
      const response = await server.app.inject({
        method: operation.method,
        url: ask.url,
        headers: { ...server.admin, ...(ask.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        payload: ask.body,
      });
      if (response.statusCode >= 500) found.push(`${operation.method} ${ask.url} ${ask.body ?? ''} → ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
  }
  return found;
}

describe('odd parameters on every operation of the contract', () => {
  it('covers the contract', () => {
    expect(operations.length).toBeGreaterThan(150);
  });

  it('answers each with a success or a 4xx, never a 5xx', { timeout: 120_000 }, async () => {
    const found: string[] = [];
    for (const operation of operations) found.push(...(await failures(operation)));
    expect(found).toEqual([]);
  });
});

describe('searches and sorts of any length', () => {
  const lists = ['/api/v1/series', '/api/v1/books', '/opds/v1.2/series'];
  // The API's searches are full text, limited in words; the OPDS search (Komga's) is one title
  // `contains` test, limited like any condition text by its length only.
  const fullText = ['/api/v1/series', '/api/v1/books'];

  it('refuses a search of thousands of words with a 400 (before: SQLite refused the statement, 500)', async () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' ');
    for (const path of lists) {
      const response = await server.get(`${path}?search=${encodeURIComponent(words)}`);
      expect(response.statusCode, path).toBe(400);
      // A search text is at most 1,000 characters (MAX_CONDITION_TEXT): these 28,000 are refused for that.
      expect(response.body, path).toContain('at most 1000 characters');
    }
    for (const path of fullText) {
      const many = await server.get(`${path}?search=${encodeURIComponent(Array.from({ length: 33 }, (_, i) => `w${i}`).join(' '))}`);
      expect(many.statusCode, path).toBe(400);
      expect(many.body, path).toContain('at most 32 different words');
    }
    // The same word over and over is one word; a few dozen different ones still search.
    for (const path of lists) expect((await server.get(`${path}?search=${encodeURIComponent('alpha '.repeat(160))}`)).statusCode, path).toBe(200);
    const fewer = Array.from({ length: 32 }, (_, i) => `w${i}`).join(' ');
    for (const path of lists) expect((await server.get(`${path}?search=${encodeURIComponent(fewer)}`)).statusCode, path).toBe(200);
  });

  it('refuses a search of more than 32 words and phrases in all, the same words repeated in other groups included', async () => {
    // Each word or phrase is a LIKE over every searched field of every book, authors and tags folded
    // one by one: 8 groups of the same 32 words, each group negated so that none stops early, held
    // the server 2.6-6 s over 200 books (256 were allowed), minutes on a large library.
    const words = Array.from({ length: 32 }, (_, i) => `zq${i}`);
    const group = (k: number) => `NOT (${words.map((_, i) => words[(i + k) % 32]).join(' OR ')})`;
    for (const path of fullText) {
      const response = await server.get(`${path}?search=${encodeURIComponent(`${group(0)} ${group(1)}`)}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.body, path).toContain('at most 32 words and phrases');
      expect((await server.get(`${path}?search=${encodeURIComponent(group(0))}`)).statusCode, path).toBe(200);
    }
  });

  it('takes a sort property that every JavaScript object has for an unknown one (before: its function reached the SQL, 500)', async () => {
    const paths = ['/api/v1/series', '/api/v1/books', '/api/v1/history', '/api/v1/books/duplicates', '/api/v1/page-hashes', '/api/v1/page-hashes/unknown', '/api/v2/users/authentication-activity', '/api/v2/users/me/authentication-activity'];
    for (const path of paths) {
      for (const property of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
        const response = await server.get(`${path}?sort=${property},desc`);
        expect(response.statusCode, `${path} ${property}`).toBe(200);
      }
    }
  });

  it('answers thousands of repeated sort orders with the first one (before: too many ORDER BY terms, 500)', async () => {
    for (const path of ['/api/v1/series', '/api/v1/books']) {
      const response = await server.get(`${path}?${Array(5000).fill('sort=name,desc').join('&')}`);
      expect(response.statusCode, path).toBe(200);
      const names = (response.json() as Page<{ name: string }>).content.map((c) => c.name);
      expect(names, path).toEqual([...names].sort().reverse());
    }
  });
});

describe('conditions of many parts', () => {
  it('are answered, not refused by SQLite as nested too deep (before: 500 from a few hundred parts on)', async () => {
    const kinds: [string, (i: number) => object][] = [
      ['/api/v1/books/list', (i) => ({ author: { operator: 'is', value: { name: `z${i}`, role: 'writer' } } })],
      ['/api/v1/books/list', (i) => ({ tag: { operator: 'is', value: `z${i}` } })],
      ['/api/v1/books/list', (i) => ({ readListId: { operator: 'is', value: `z${i}` } })],
      ['/api/v1/series/list', (i) => ({ author: { operator: 'is', value: { name: `z${i}`, role: 'writer' } } })],
      ['/api/v1/series/list', (i) => ({ genre: { operator: 'is', value: `z${i}` } })],
      ['/api/v1/series/list', (i) => ({ collectionId: { operator: 'is', value: `z${i}` } })],
    ];
    for (const [url, part] of kinds) {
      for (const group of ['allOf', 'anyOf']) {
        // As many as a condition may hold (100 parts, the group included); more are a 400, never a 500.
        const condition = { [group]: Array.from({ length: 99 }, (_, i) => part(i)) };
        const response = await server.app.inject({ method: 'POST', url, headers: { ...server.admin, 'content-type': 'application/json' }, payload: JSON.stringify({ condition }) });
        expect(response.statusCode, `${url} ${group} ${JSON.stringify(part(0))}`).toBe(200);
        const over = { [group]: Array.from({ length: 990 }, (_, i) => part(i)) };
        const refused = await server.app.inject({ method: 'POST', url, headers: { ...server.admin, 'content-type': 'application/json' }, payload: JSON.stringify({ condition: over }) });
        expect(refused.statusCode, `${url} ${group} × 990`).toBe(400);
      }
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompatServer, startCompatServer } from './komga-compat-helpers.ts';
import { operations, resolve } from './support/contract-variants.ts';

/**
 * Komga converts path and query parameters (Spring) and validates a request body (Jackson
 * binding, then `@Valid` bean validation) before its handler runs and looks anything up. So a body that breaks a rule is a 400 even when the id in the
 * path names nothing, and a valid body for a missing id is a 404. Clients tell "fix your input"
 * from "it is gone" by that order (komga-webui's edit dialogs, komf's metadata updates).
 */
let c: CompatServer;
beforeAll(async () => {
  c = await startCompatServer();
});
afterAll(async () => {
  await c.server.close();
});

const MISSING = 'D0000000MISSING';

/** [method, path with X for the id, a body breaking one rule, a valid body]. */
const CASES: [string, string, unknown, unknown][] = [
  ['PATCH', '/api/v1/books/X/read-progress', {}, { page: 1 }],
  ['PATCH', '/api/v1/books/X/read-progress', { page: 0 }, { completed: true }],
  ['PATCH', '/api/v1/books/X/read-progress', { page: -1, completed: false }, { page: 2, completed: false }],
  ['PATCH', '/api/v1/books/X/metadata', { title: '  ' }, { title: 'A title' }],
  ['PATCH', '/api/v1/books/X/metadata', { number: '' }, { number: '2' }],
  ['PATCH', '/api/v1/books/X/metadata', { isbn: 'not an isbn' }, { isbn: '' }],
  ['PATCH', '/api/v1/books/X/metadata', { releaseDate: '2020-13-45' }, { releaseDate: '2020-01-02' }],
  ['PATCH', '/api/v1/books/X/metadata', { links: [{ label: 'x', url: 'javascript:alert(1)' }] }, { links: [] }],
  ['PATCH', '/api/v1/books/X/metadata', { authors: [{ name: '', role: 'writer' }] }, { authors: null }],
  ['PATCH', '/api/v1/series/X/metadata', { title: '' }, { title: 'Series' }],
  ['PATCH', '/api/v1/series/X/metadata', { ageRating: -1 }, { ageRating: 0 }],
  ['PATCH', '/api/v1/series/X/metadata', { totalBookCount: 0 }, { totalBookCount: null }],
  ['PATCH', '/api/v1/series/X/metadata', { language: 'not a language!' }, { language: 'fr' }],
  ['PATCH', '/api/v1/series/X/metadata', { status: 'SOMEDAY' }, { status: 'ended' }],
  // Already in this order before: kept so that every body rule's order is in one place.
  ['PATCH', '/api/v1/collections/X', { name: '' }, { name: 'C' }],
  ['PATCH', '/api/v1/readlists/X', { bookIds: [] }, { name: 'R' }],
  ['PATCH', '/api/v1/libraries/X', { root: '' }, { name: 'L' }],
  ['PATCH', '/api/v2/users/X/password', { password: '' }, { password: 'a password' }],
];

const send = (method: string, path: string, id: string, body: unknown) =>
  c.send(method, path.replace('X', id), { contentType: 'application/json', body });

describe('a body breaking a rule is a 400 before the id is looked up', () => {
  for (const [method, path, invalid, valid] of CASES) {
    it(`${method} ${path} ${JSON.stringify(invalid)}`, async () => {
      const refused = await send(method, path, MISSING, invalid);
      expect(refused.statusCode, refused.body).toBe(400);
      expect((refused.json() as { message?: string }).message).toBeTruthy();
      const missing = await send(method, path, MISSING, valid);
      expect(missing.statusCode, missing.body).toBe(404);
    });
  }

  it('the bulk book metadata edit checks every body before any book', async () => {
    const book = c.books[0]!.id;
    const before = (await c.server.json<{ metadata: { title: string } }>(`/api/v1/books/${book}`)).metadata.title;
    const response = await c.send('PATCH', '/api/v1/books/metadata', { contentType: 'application/json', body: { [book]: { title: 'Changed' }, [MISSING]: { title: '' } } });
    expect(response.statusCode, response.body).toBe(400);
    expect((await c.server.json<{ metadata: { title: string } }>(`/api/v1/books/${book}`)).metadata.title).toBe(before);
  });

  it('existing ids: invalid bodies still 400, valid ones applied', async () => {
    const book = c.books.find((b) => b.media.status === 'READY')!;
    expect((await send('PATCH', '/api/v1/books/X/read-progress', book.id, { page: 0 })).statusCode).toBe(400);
    expect((await send('PATCH', '/api/v1/books/X/read-progress', book.id, { page: 99 })).statusCode).toBe(400);
    expect((await send('PATCH', '/api/v1/books/X/read-progress', book.id, { page: 2 })).statusCode).toBe(204);
    expect((await c.server.json<{ readProgress: { page: number } }>(`/api/v1/books/${book.id}`)).readProgress.page).toBe(2);
    expect((await send('PATCH', '/api/v1/books/X/metadata', book.id, { title: '' })).statusCode).toBe(400);
    expect((await send('PATCH', '/api/v1/books/X/metadata', book.id, { title: 'Renamed', titleLock: false, noSuchLock: 'x' })).statusCode).toBe(204);
    expect((await c.server.json<{ metadata: { title: string } }>(`/api/v1/books/${book.id}`)).metadata.title).toBe('Renamed');
    expect((await send('PATCH', '/api/v1/series/X/metadata', book.seriesId, { ageRating: -1 })).statusCode).toBe(400);
    expect((await send('PATCH', '/api/v1/series/X/metadata', book.seriesId, { ageRating: 7, ageRatingLock: true })).statusCode).toBe(204);
    const series = await c.server.json<{ metadata: { ageRating: number; ageRatingLock: boolean } }>(`/api/v1/series/${book.seriesId}`);
    expect(series.metadata).toMatchObject({ ageRating: 7, ageRatingLock: true });
  });
});

/** Every typed query parameter of the contract's operations on an id, with a value Spring cannot convert. */
const unconvertible = operations.flatMap((op) =>
  !op.path.includes('{')
    ? []
    : op.parameters.flatMap((p) => {
        if (p.in !== 'query') return [];
        const schema = resolve(p.schema);
        const items = schema.items ? resolve(schema.items) : undefined;
        const bad = schema.type === 'boolean' ? 'maybe' : schema.enum || items?.enum ? 'NOPE' : schema.type === 'integer' && !['page', 'size'].includes(p.name) ? 'abc' : undefined;
        return bad ? [{ op, query: `${p.name}=${bad}` }] : [];
      }),
);

describe('a query value that does not convert is a 400 before the id is looked up', () => {
  it('covers the typed parameters of the operations on an id', () => {
    expect(unconvertible.length).toBeGreaterThan(15);
  });
  for (const { op, query } of unconvertible) {
    it(`${op.method} ${op.path}?${query}`, async () => {
      const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'pageNumber' ? '1' : MISSING));
      const response = await c.send(op.method, `${url}?${query}`, op.body ? { contentType: 'application/json', body: {} } : {});
      expect(response.statusCode, response.body).toBe(400);
    });
  }

  // The contract's integer path variables: the page numbers of books' pages, raw pages, page thumbnails and transient books.
  const pagePaths = operations.filter((op) => op.parameters.some((p) => p.in === 'path' && p.schema.type === 'integer'));
  it('covers every integer path variable of the contract', () => {
    expect(pagePaths.map((op) => op.path)).toHaveLength(4);
  });
  for (const op of pagePaths) {
    it(`${op.method} ${op.path} with a page number that is not an integer, for a missing book`, async () => {
      // Integer.valueOf refuses a decimal point, an exponent, a binary prefix and what passes 32 bits.
      for (const page of ['one', '1.5', '%20', '1.0', '1e0', '0b1', '2147483648', '+0x1']) {
        const url = op.path.replace('{pageNumber}', page).replace(/\{\w+\}/, MISSING);
        expect((await c.send(op.method, url)).statusCode, url).toBe(400);
      }
      // It takes a sign, blanks around the digits (trimmed first) and a hexadecimal number.
      for (const page of ['1', '+1', '%201', '0x1', '2147483647']) {
        const url = op.path.replace('{pageNumber}', page).replace(/\{\w+\}/, MISSING);
        expect((await c.send(op.method, url)).statusCode, url).toBe(404);
      }
    });
  }
});

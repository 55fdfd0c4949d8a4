import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorInAnyRole } from '../../../src/api/authorFilter.ts';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/**
 * The web client's author filter on the older GET lists (a collection's series, a read list's books,
 * and the series list where the POST search is missing) asks for a name in any role. A real Komga
 * compares `author=<name>,<role>` exactly (REFERENCE §3.4), so the `name,` the client sent alone
 * found nothing there; Folio reads an empty role as any role.
 */
let server: TestServer;
const page = { width: 10, height: 10, color: RED, format: 'png' as const };

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'lib');
  await createCbz(join(root, 'Sun', 's1.cbz'), [page], { comicInfo: { series: 'Sun', writer: 'Ann Lee', penciller: 'Cy Doe' } });
  await createCbz(join(root, 'Moon', 'm1.cbz'), [page], { comicInfo: { series: 'Moon', writer: 'Bob' } });
  await createCbz(join(root, 'Star', 'st1.cbz'), [page], { comicInfo: { series: 'Star', writer: 'Eve' } });
  await addLibrary(server, root);
  // A role outside the known list, as a Komga client may store one.
  const star = (await server.json<Page<BookDto>>('/api/v1/books?search=st1')).content[0]!;
  const patched = await server.app.inject({
    method: 'PATCH',
    url: `/api/v1/books/${star.id}/metadata`,
    headers: server.admin,
    payload: { authors: [{ name: 'Cy Doe', role: 'adapter' }] },
  });
  expect(patched.statusCode).toBe(204);
});
afterAll(async () => {
  await server.close();
});

/** How a real Komga reads the values: split at the last comma, name and role compared exactly. */
function komgaMatches(values: readonly string[], credits: readonly { name: string; role: string }[]): boolean {
  return values.some((value) => {
    const at = value.lastIndexOf(',');
    const name = value.slice(0, at);
    const role = value.slice(at + 1);
    return credits.some((credit) => credit.name === name && credit.role === role);
  });
}

const query = (values: readonly string[]) => values.map((value) => `author=${encodeURIComponent(value)}`).join('&');

describe('the client\'s author filter on the GET lists', () => {
  it('finds a name in each known role on a server that compares the role exactly (Komga)', () => {
    const values = authorInAnyRole(['Doe, Cy'])!;
    expect(komgaMatches(values, [{ name: 'Doe, Cy', role: 'penciller' }])).toBe(true);
    expect(komgaMatches(values, [{ name: 'Doe, Cy', role: 'translator' }])).toBe(true);
    expect(komgaMatches(values, [{ name: 'Doe', role: 'penciller' }])).toBe(false);
    expect(authorInAnyRole([])).toBeUndefined();
    expect(authorInAnyRole(undefined)).toBeUndefined();
  });

  it('finds the same series and books on Folio, a role outside the list included', async () => {
    const values = authorInAnyRole(['Cy Doe'])!;
    const series = await server.json<Page<SeriesDto>>(`/api/v1/series?${query(values)}&sort=metadata.titleSort`);
    expect(series.content.map((s) => s.metadata.title)).toEqual(['Star', 'Sun']);
    const books = await server.json<Page<BookDto>>(`/api/v1/books?${query(authorInAnyRole(['Ann Lee', 'Bob'])!)}&sort=name`);
    expect(books.content.map((b) => b.name)).toEqual(['m1', 's1']);
  });
});

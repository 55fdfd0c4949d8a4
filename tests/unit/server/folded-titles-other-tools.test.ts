import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

let dir: string;
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The database as the sqlite3 command line sees it: a plain connection, none of Folio's SQL functions. */
function plainConnection(dataDir: string): Database.Database {
  const db = new Database(join(dataDir, 'folio.sqlite'));
  db.pragma('busy_timeout = 5000');
  return db;
}

async function listIds(server: TestServer, kind: 'series' | 'books', condition: unknown, search?: string): Promise<string[]> {
  const response = await server.app.inject({
    method: 'POST',
    url: `/api/v1/${kind}/list`,
    headers: { ...server.admin, 'content-type': 'application/json' },
    payload: JSON.stringify({ condition, fullTextSearch: search }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as Page<SeriesDto | BookDto>).content.map((s) => s.id);
}

it('titles written by another tool (no fold_text function) are stored, found at once, and folded on the next start', async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-folded-tools-'));
  let server = await startServer({ dir });
  await addLibrary(server, (await createSampleLibrary(join(dir, 'library'))).root);
  const beta = (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content.find((s) => s.name === 'Beta')!;
  const book = (await server.json<Page<BookDto>>(`/api/v1/series/${beta.id}/books?unpaged=true`)).content[0]!;

  // Written while the server runs, as an operator with the sqlite3 shell would.
  const plain = plainConnection(server.dataDir);
  try {
    plain.prepare('UPDATE series_metadata SET title = ?, title_sort = ? WHERE series_id = ?').run('Zébulon', 'Zébulon', beta.id);
    plain.prepare('UPDATE book_metadata SET title = ? WHERE book_id = ?').run('Crème brûlée', book.id);
  } finally {
    plain.close();
  }
  try {
    expect(await listIds(server, 'series', { title: { operator: 'is', value: 'zebulon' } })).toEqual([beta.id]);
    expect(await listIds(server, 'series', { titleSort: { operator: 'beginsWith', value: 'ZEBU' } })).toEqual([beta.id]);
    expect(await listIds(server, 'series', undefined, 'zebulon')).toEqual([beta.id]);
    expect(await listIds(server, 'books', { title: { operator: 'contains', value: 'creme brulee' } })).toEqual([book.id]);
    expect(await listIds(server, 'books', undefined, 'brulee')).toEqual([book.id]);
    // Folio's own writes still work and keep the search current.
    const patch = await server.app.inject({ method: 'PATCH', url: `/api/v1/series/${beta.id}/metadata`, headers: { ...server.admin, 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'Ångström' }) });
    expect(patch.statusCode).toBe(204);
    expect(await listIds(server, 'series', { title: { operator: 'is', value: 'angstrom' } })).toEqual([beta.id]);
    // Folio writes the folded form itself, in the same statement (nothing left for the next start).
    const look = plainConnection(server.dataDir);
    try {
      expect(look.prepare('SELECT title_folded FROM series_metadata WHERE series_id = ?').pluck().get(beta.id)).toBe('angstrom');
    } finally {
      look.close();
    }
  } finally {
    await server.close();
  }

  // A row another tool inserted without the folded value, and one whose title it changed: the next start folds them.
  const again = plainConnection(server.dataDir);
  try {
    again.prepare('UPDATE book_metadata SET title = ? WHERE book_id = ?').run('Déjà vu', book.id);
  } finally {
    again.close();
  }
  server = await startServer({ dir, claim: false });
  try {
    expect(await listIds(server, 'books', { title: { operator: 'is', value: 'deja vu' } })).toEqual([book.id]);
  } finally {
    await server.close();
  }
  const after = plainConnection(server.dataDir);
  try {
    expect(after.prepare('SELECT title_folded FROM book_metadata WHERE book_id = ?').pluck().get(book.id)).toBe('deja vu');
    expect(after.prepare('SELECT title_folded FROM series_metadata WHERE series_id = ?').pluck().get(beta.id)).toBe('angstrom');
    expect(after.prepare('SELECT count(*) FROM book_metadata WHERE title_folded IS NULL').pluck().get()).toBe(0);
  } finally {
    after.close();
  }
});

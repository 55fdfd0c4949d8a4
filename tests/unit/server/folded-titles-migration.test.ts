import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import type { Page, SeriesDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer } from './helpers.ts';

let dir: string;
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Takes a data dir back to before migration 007: no folded title columns, no triggers touching them. */
function undoFoldedTitles(dataDir: string): void {
  const db = new Database(join(dataDir, 'folio.sqlite'));
  try {
    const triggers = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('series_metadata', 'book_metadata')").pluck().all() as string[];
    for (const trigger of triggers) db.exec(`DROP TRIGGER ${trigger}`);
    db.exec('ALTER TABLE series_metadata DROP COLUMN title_folded; ALTER TABLE series_metadata DROP COLUMN title_sort_folded; ALTER TABLE book_metadata DROP COLUMN title_folded');
    db.prepare('DELETE FROM schema_version WHERE version >= 7').run();
  } finally {
    db.close();
  }
}

it('titles stored before the folded columns existed are found without their accents after the upgrade', async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-folded-'));
  let server = await startServer({ dir });
  await addLibrary(server, (await createSampleLibrary(join(dir, 'library'))).root);
  const beta = (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content.find((s) => s.name === 'Beta')!;
  const patch = await server.app.inject({ method: 'PATCH', url: `/api/v1/series/${beta.id}/metadata`, headers: { ...server.admin, 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'Pokémon', titleSort: 'Pokémon' }) });
  expect(patch.statusCode).toBe(204);
  await server.close();
  undoFoldedTitles(server.dataDir);

  server = await startServer({ dir, claim: false });
  try {
    const found = await server.app.inject({
      method: 'POST',
      url: '/api/v1/series/list',
      headers: { ...server.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ condition: { anyOf: [{ title: { operator: 'is', value: 'pokemon' } }, { titleSort: { operator: 'beginsWith', value: 'POKEM' } }] } }),
    });
    expect(found.statusCode, found.body).toBe(200);
    expect((found.json() as Page<SeriesDto>).content.map((s) => s.id)).toEqual([beta.id]);
    const books = await server.app.inject({
      method: 'POST',
      url: '/api/v1/books/list',
      headers: { ...server.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ condition: { title: { operator: 'contains', value: 'alpha' } } }),
    });
    expect((books.json() as Page<SeriesDto>).content).toHaveLength(2);
  } finally {
    await server.close();
  }
});

it('titles folded before ß, æ and the like were spelled out are folded again on the upgrade', async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-refold-'));
  let server = await startServer({ dir });
  await addLibrary(server, (await createSampleLibrary(join(dir, 'library'))).root);
  const beta = (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content.find((s) => s.name === 'Beta')!;
  const patch = await server.app.inject({ method: 'PATCH', url: `/api/v1/series/${beta.id}/metadata`, headers: { ...server.admin, 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'Große Æra' }) });
  expect(patch.statusCode).toBe(204);
  await server.close();
  // As the folding before migration 009 stored it: accents stripped, ß and æ kept.
  const db = new Database(join(server.dataDir, 'folio.sqlite'));
  try {
    db.prepare('UPDATE series_metadata SET title_folded = ? WHERE series_id = ?').run('große æra', beta.id);
    db.prepare('DELETE FROM schema_version WHERE version >= 9').run();
  } finally {
    db.close();
  }

  server = await startServer({ dir, claim: false });
  try {
    const found = await server.app.inject({
      method: 'POST',
      url: '/api/v1/series/list',
      headers: { ...server.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ condition: { title: { operator: 'is', value: 'GROSSE AERA' } } }),
    });
    expect(found.statusCode, found.body).toBe(200);
    expect((found.json() as Page<SeriesDto>).content.map((s) => s.id)).toEqual([beta.id]);
  } finally {
    await server.close();
  }
});

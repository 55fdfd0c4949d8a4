import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../server/db/database.ts';
import { createRepositories } from '../../../server/db/repositories.ts';
import { defaultSeriesMetadata } from '../../../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../../../server/db/book-metadata-repository.ts';
import { newId } from '../../../server/db/ids.ts';
import { searchBooks } from '../../../server/db/search/book-search.ts';
import { withPlans } from './query-plans.ts';

/**
 * "Recently added/updated books" sort every book by date to keep one page: at 50,000 books
 * (bench/big-library.ts) each dashboard load sorted them all in a temp B-tree. Migration 013 indexes
 * the two dates; the answers must stay the same, newest first, ties by id.
 */

let dir: string;
let db: Db;
const books: { id: string; created: number; lastModified: number; deleted: boolean }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-recency-'));
  db = openDatabase(join(dir, 'data'));
  const repos = createRepositories(db);
  const now = Date.now();
  const libraryId = newId(now);
  db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)').run(libraryId, 'L', '/nowhere', now, now);
  for (let s = 0; s < 30; s++) {
    const seriesId = newId(now);
    repos.series.insert({ id: seriesId, libraryId, name: `S${s}`, url: `/s/${s}`, fileLastModified: now, oneshot: false, deletedDate: null, created: now, lastModified: now });
    repos.seriesMetadata.insert(defaultSeriesMetadata(seriesId, `S${s}`, now));
    for (let b = 0; b < 5; b++) {
      const id = newId(now);
      // Dates out of id order, some equal (ties go by id), some books deleted.
      const created = now - ((s * 37 + b * 11) % 50) * 1000;
      const lastModified = now - ((s * 13 + b * 29) % 40) * 1000;
      const deleted = (s + b) % 9 === 0;
      books.push({ id, created, lastModified, deleted });
      repos.books.insert({ id, seriesId, libraryId, name: `S${s} ${b}`, url: `/s/${s}/${b}.cbz`, number: b, fileLastModified: now, fileSize: 1, fileHash: '', oneshot: false, deletedDate: deleted ? now : null, created, lastModified });
      repos.bookMetadata.insert(defaultBookMetadata(id, `S${s} ${b}`, b, now));
      repos.media.insert({ bookId: id, status: 'READY', mediaType: 'application/zip', comment: null, pageCount: 3, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
    }
  }
});

afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe.each([
  ['lastModified', 'lastModified', 'book_last_modified'],
  ['createdDate', 'created', 'book_created'],
] as const)('books newest first by %s', (property, field, index) => {
  it('pages as a full sort would, read through the index', () => {
    const expected = books
      .filter((b) => !b.deleted)
      .sort((a, b) => b[field] - a[field] || (a.id < b.id ? -1 : 1))
      .map((b) => b.id);
    for (const offset of [0, 20, 40]) {
      const { result, plan } = withPlans(db, () =>
        searchBooks(db, { userId: 'nobody', condition: { deleted: { operator: 'isFalse' } }, sort: [{ property, direction: 'desc' }], limit: 20, offset }),
      );
      expect(result.ids).toEqual(expected.slice(offset, offset + 20));
      expect(result.total).toBe(expected.length);
      expect(plan).toContain(`SCAN b USING INDEX ${index}`);
      expect(plan).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    }
  });
});

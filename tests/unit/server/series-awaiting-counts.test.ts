import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../server/db/database.ts';
import { type Repositories, createRepositories } from '../../../server/db/repositories.ts';
import { defaultSeriesMetadata } from '../../../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../../../server/db/book-metadata-repository.ts';
import type { Book } from '../../../server/db/book-repository.ts';
import type { User } from '../../../server/db/user-repository.ts';
import { newId } from '../../../server/db/ids.ts';
import { searchSeries } from '../../../server/db/search/series-search.ts';
import { searchBooks } from '../../../server/db/search/book-search.ts';

/*
 * An age rule hides a series with live books awaiting analysis and none analysed (its rating is not
 * known yet). The set is read from counts each series keeps (awaiting, analysed, and since 017
 * outdated: a book of a series shown awaiting analysis again is kept back on its own), kept by
 * triggers (migrations 016, 017). Every kind of write that moves them is made here, through the
 * repositories and as another tool would (plain SQL), and after each the counts must equal a
 * plain count of the rows, and a reader with an age rule must be listed exactly the series the rule
 * keeps.
 */

let dir: string;
let db: Db;
let repos: Repositories;
let libraryId: string;
const seriesIds: string[] = [];
const now = Date.now();
const reader: User = {
  id: 'r', email: 'r@example.org', passwordHash: '', roles: [], sharedAllLibraries: true, sharedLibraryIds: [],
  labelsAllow: [], labelsExclude: [], ageRestriction: 16, ageRestrictionType: 'EXCLUDE', created: 0, lastModified: 0,
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-awaiting-'));
  db = openDatabase(dir);
  repos = createRepositories(db);
  libraryId = newId(now);
  db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)').run(libraryId, 'L', join(dir, 'lib'), now, now);
  for (const name of ['A', 'B']) {
    const id = newId(now);
    seriesIds.push(id);
    repos.series.insert({ id, libraryId, name, url: `/${name}`, fileLastModified: now, oneshot: false, deletedDate: null, created: now, lastModified: now });
    repos.seriesMetadata.insert(defaultSeriesMetadata(id, name, now));
  }
});
afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

function addBook(seriesId: string, n: number, status: string): Book {
  const id = newId(now);
  const book: Book = { id, seriesId, libraryId, name: `b${n}`, url: `/${seriesId}/${n}.cbz`, number: n, fileLastModified: now, fileSize: 1, fileHash: '', oneshot: false, deletedDate: null, created: now, lastModified: now };
  repos.books.insert(book);
  repos.bookMetadata.insert(defaultBookMetadata(id, `b${n}`, n, now));
  repos.media.insert({ bookId: id, status: status as 'UNKNOWN', mediaType: null, comment: null, pageCount: 0, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
  return book;
}
const setStatus = (bookId: string, status: string) => repos.media.update({ ...repos.media.findByBookId(bookId)!, status: status as 'READY' });

/** The counts as kept, and as a plain count of the rows says they should be. */
function counts() {
  const kept = db
    .prepare('SELECT s.id, COALESCE(c.awaiting, 0) AS awaiting, COALESCE(c.analysed, 0) AS analysed, COALESCE(c.outdated, 0) AS outdated FROM series s LEFT JOIN series_media_counts c ON c.series_id = s.id ORDER BY s.id')
    .all();
  const truth = db
    .prepare(
      `SELECT s.id,
        (SELECT COUNT(*) FROM book b JOIN media m ON m.book_id = b.id WHERE b.series_id = s.id AND b.deleted_date IS NULL AND m.status = 'UNKNOWN') AS awaiting,
        (SELECT COUNT(*) FROM book b JOIN media m ON m.book_id = b.id WHERE b.series_id = s.id AND b.deleted_date IS NULL AND m.status <> 'UNKNOWN') AS analysed,
        (SELECT COUNT(*) FROM book b JOIN media m ON m.book_id = b.id WHERE b.series_id = s.id AND b.deleted_date IS NULL AND m.status = 'OUTDATED') AS outdated
       FROM series s ORDER BY s.id`,
    )
    .all();
  return { kept, truth };
}
const listed = () => new Set(searchSeries(db, { userId: reader.id, restrictedTo: reader, sort: [], limit: null, offset: 0 }).ids);
/**
 * The reader's books, and the books the rule keeps: of a series listed, but for live ones awaiting
 * analysis (again); as any book list, those with a media row, flagged deleted ones too.
 */
const listedBooks = () => {
  const page = searchBooks(db, { userId: reader.id, restrictedTo: reader, sort: [], limit: null, offset: 0 });
  return { ids: new Set(page.ids), total: page.total };
};
const keptBooks = (series: Set<string>) => {
  const ids = (db.prepare(
    `SELECT b.id, b.series_id AS seriesId FROM book b JOIN media m ON m.book_id = b.id
     WHERE NOT (b.deleted_date IS NULL AND m.status IN ('UNKNOWN', 'OUTDATED'))`,
  ).all() as { id: string; seriesId: string }[]).filter((b) => series.has(b.seriesId)).map((b) => b.id);
  return { ids: new Set(ids), total: ids.length };
};

describe('series counts of books awaiting analysis and analysed', () => {
  it('follow every write of media and books, and hide exactly the series with books awaiting analysis and none analysed', () => {
    const [a, b] = seriesIds as [string, string];
    const steps: [string, () => void, string[]][] = [];
    let a1!: Book;
    let a2!: Book;
    let b1!: Book;
    steps.push(['A scanned in: one book awaiting analysis', () => (a1 = addBook(a, 1, 'UNKNOWN')), [b]]);
    steps.push(['A: a second book awaiting analysis', () => (a2 = addBook(a, 2, 'UNKNOWN')), [b]]);
    steps.push(['B scanned in', () => (b1 = addBook(b, 1, 'UNKNOWN')), []]);
    steps.push(['A: a book analysed', () => setStatus(a1.id, 'READY'), [a]]);
    steps.push(['A: that book OUTDATED (still analysed once)', () => setStatus(a1.id, 'OUTDATED'), [a]]);
    steps.push(['A: that book back to UNKNOWN', () => setStatus(a1.id, 'UNKNOWN'), []]);
    steps.push(['A: that book ERROR', () => setStatus(a1.id, 'ERROR'), [a]]);
    steps.push(['A: that book OUTDATED again', () => setStatus(a1.id, 'OUTDATED'), [a]]);
    steps.push(['A: its OUTDATED book moved to B', () => repos.books.update({ ...a1, seriesId: b }), [b]]);
    steps.push(['B: that book analysed again (ERROR)', () => setStatus(a1.id, 'ERROR'), [b]]);
    steps.push(['B: that book flagged deleted', () => repos.books.update({ ...a1, seriesId: b, deletedDate: now }), []]);
    steps.push(['B: that book back', () => repos.books.update({ ...a1, seriesId: b, deletedDate: null }), [b]]);
    steps.push(['B: that book deleted for good (its media row goes with it)', () => repos.books.delete(a1.id), []]);
    steps.push(['B: its book analysed by another tool', () => db.prepare("UPDATE media SET status = 'READY' WHERE book_id = ?").run(b1.id), [b]]);
    // A series with no book awaiting analysis is not held back, with no analysed book either.
    steps.push(['B: its media row removed by another tool', () => db.prepare('DELETE FROM media WHERE book_id = ?').run(b1.id), [b]]);
    steps.push(['A: its last book awaiting analysis flagged deleted', () => repos.books.update({ ...a2, deletedDate: now }), [a, b]]);
    for (const [what, act, shown] of steps) {
      act();
      const { kept, truth } = counts();
      expect(kept, what).toEqual(truth);
      expect(listed(), what).toEqual(new Set(shown));
      expect(listedBooks(), what).toEqual(keptBooks(new Set(shown)));
    }
  });
});

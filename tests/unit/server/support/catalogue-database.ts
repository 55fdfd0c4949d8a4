import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDatabase } from '../../../../server/db/database.ts';
import { createRepositories } from '../../../../server/db/repositories.ts';
import { defaultSeriesMetadata } from '../../../../server/db/series-metadata-repository.ts';
import { defaultBookMetadata } from '../../../../server/db/book-metadata-repository.ts';
import { newId } from '../../../../server/db/ids.ts';

/**
 * A real SQLite database (migrated as the server's) holding one library, filled row by row through
 * the repositories: for tests of the catalogue's queries and their plans, which need many series and
 * books but no archives, scan or server.
 */
export interface CatalogueDatabase {
  readonly db: Db;
  readonly repos: ReturnType<typeof createRepositories>;
  readonly libraryId: string;
  /** When the rows were written (their default dates). */
  readonly now: number;
  /** A series with its default metadata; its id. */
  addSeries(name: string): string;
  /** A READY book of 3 pages with its default metadata; its id. Dates default to `now`. */
  addBook(seriesId: string, name: string, number: number, dates?: { created?: number; lastModified?: number; deleted?: boolean }): string;
  close(): Promise<void>;
}

export async function openCatalogueDatabase(name: string): Promise<CatalogueDatabase> {
  const dir = await mkdtemp(join(tmpdir(), `folio-${name}-`));
  const db = openDatabase(join(dir, 'data'));
  const repos = createRepositories(db);
  const now = Date.now();
  const libraryId = newId(now);
  db.prepare('INSERT INTO library (id, name, root, created, last_modified) VALUES (?, ?, ?, ?, ?)').run(libraryId, 'L', '/nowhere', now, now);
  let seriesCount = 0;
  let bookCount = 0;
  return {
    db,
    repos,
    libraryId,
    now,
    addSeries(seriesName) {
      const id = newId(now);
      const url = `/series/${seriesCount++}`;
      repos.series.insert({ id, libraryId, name: seriesName, url, fileLastModified: now, oneshot: false, deletedDate: null, created: now, lastModified: now });
      repos.seriesMetadata.insert(defaultSeriesMetadata(id, seriesName, now));
      return id;
    },
    addBook(seriesId, bookName, number, dates = {}) {
      const id = newId(now);
      const url = `/books/${bookCount++}.cbz`;
      const { created = now, lastModified = now, deleted = false } = dates;
      repos.books.insert({ id, seriesId, libraryId, name: bookName, url, number, fileLastModified: now, fileSize: 1, fileHash: '', oneshot: false, deletedDate: deleted ? now : null, created, lastModified });
      repos.bookMetadata.insert(defaultBookMetadata(id, bookName, number, now));
      repos.media.insert({ bookId: id, status: 'READY', mediaType: 'application/zip', comment: null, pageCount: 3, epubDivinaCompatible: false, epubIsKepub: false, created: now, lastModified: now });
      return id;
    },
    async close() {
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

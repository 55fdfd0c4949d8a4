import type { ScanInterval, SeriesCover } from './stored-values.ts';
import type { Db } from './database.ts';
import { type ColumnMap, insertSql, objectToParams, rowToObject, updateSql } from './columns.ts';
import { cachedStatement } from './statement-cache.ts';

/** A library as stored (one row of `library`); server/http/dto/library-dto.ts makes the wire form. */
export interface Library {
  id: string;
  name: string;
  root: string;
  importComicInfoBook: boolean;
  importComicInfoSeries: boolean;
  importComicInfoCollection: boolean;
  importComicInfoReadList: boolean;
  importComicInfoSeriesAppendVolume: boolean;
  importEpubBook: boolean;
  importEpubSeries: boolean;
  importMylarSeries: boolean;
  importLocalArtwork: boolean;
  importBarcodeIsbn: boolean;
  scanForceModifiedTime: boolean;
  scanInterval: ScanInterval;
  scanOnStartup: boolean;
  scanCbx: boolean;
  scanPdf: boolean;
  scanEpub: boolean;
  scanDirectoryExclusions: string[];
  repairExtensions: boolean;
  convertToCbz: boolean;
  emptyTrashAfterScan: boolean;
  seriesCover: SeriesCover;
  hashFiles: boolean;
  hashPages: boolean;
  hashKoreader: boolean;
  analyzeDimensions: boolean;
  oneshotsDirectory: string | null;
  unavailableDate: number | null;
  created: number;
  lastModified: number;
}

const COLUMNS: ColumnMap<Library> = {
  id: ['id', 'text'],
  name: ['name', 'text'],
  root: ['root', 'text'],
  importComicInfoBook: ['import_comicinfo_book', 'bool'],
  importComicInfoSeries: ['import_comicinfo_series', 'bool'],
  importComicInfoCollection: ['import_comicinfo_collection', 'bool'],
  importComicInfoReadList: ['import_comicinfo_readlist', 'bool'],
  importComicInfoSeriesAppendVolume: ['import_comicinfo_series_append_volume', 'bool'],
  importEpubBook: ['import_epub_book', 'bool'],
  importEpubSeries: ['import_epub_series', 'bool'],
  importMylarSeries: ['import_mylar_series', 'bool'],
  importLocalArtwork: ['import_local_artwork', 'bool'],
  importBarcodeIsbn: ['import_barcode_isbn', 'bool'],
  scanForceModifiedTime: ['scan_force_modified_time', 'bool'],
  scanInterval: ['scan_interval', 'text'],
  scanOnStartup: ['scan_on_startup', 'bool'],
  scanCbx: ['scan_cbx', 'bool'],
  scanPdf: ['scan_pdf', 'bool'],
  scanEpub: ['scan_epub', 'bool'],
  scanDirectoryExclusions: ['scan_directory_exclusions', 'json'],
  repairExtensions: ['repair_extensions', 'bool'],
  convertToCbz: ['convert_to_cbz', 'bool'],
  emptyTrashAfterScan: ['empty_trash_after_scan', 'bool'],
  seriesCover: ['series_cover', 'text'],
  hashFiles: ['hash_files', 'bool'],
  hashPages: ['hash_pages', 'bool'],
  hashKoreader: ['hash_koreader', 'bool'],
  analyzeDimensions: ['analyze_dimensions', 'bool'],
  oneshotsDirectory: ['oneshots_directory', 'text'],
  unavailableDate: ['unavailable_date', 'int'],
  created: ['created', 'int'],
  lastModified: ['last_modified', 'int'],
};

/** A copy whose list the caller may change without touching what is remembered. */
const copyOf = (library: Library): Library => ({ ...library, scanDirectoryExclusions: [...library.scanDirectoryExclusions] });

/**
 * Libraries. Every task of a scan looks its book's library up, several times (analysis, metadata
 * import, file options, the follow-up tasks: about nine reads per book), and every book opened
 * checks the roots of all libraries; there are only a few, so the whole table is remembered once
 * read. Only this repository writes the table, and each write forgets it before the next read, so a
 * changed option applies to the very next task. Nothing read inside a transaction is remembered:
 * if the transaction is rolled back, the table is read again.
 */
export class LibraryRepository {
  private readonly db: Db;
  /** Every row, in findAll's order, as last read outside a transaction. */
  private remembered: readonly Library[] | undefined;
  constructor(db: Db) {
    this.db = db;
  }

  findAll(): Library[] {
    return this.rows().map(copyOf);
  }

  findById(id: string): Library | undefined {
    const library = this.rows().find((l) => l.id === id);
    return library && copyOf(library);
  }

  insert(library: Library): void {
    this.remembered = undefined;
    cachedStatement(this.db, insertSql('library', COLUMNS)).run(objectToParams(COLUMNS, library));
  }

  update(library: Library): void {
    this.remembered = undefined;
    cachedStatement(this.db, updateSql('library', COLUMNS, 'id')).run(objectToParams(COLUMNS, library));
  }

  delete(id: string): void {
    this.remembered = undefined;
    cachedStatement(this.db, 'DELETE FROM library WHERE id = ?').run(id);
  }

  /** Records when a scan of the library finished (kept apart from its settings: no Library field). */
  markScanned(id: string, at: number): void {
    cachedStatement(this.db, 'UPDATE library SET last_scan_date = ? WHERE id = ?').run(at, id);
  }

  /** When each library's last scan finished, for the libraries scanned since that was recorded. */
  lastScanDates(): Map<string, number> {
    const rows = cachedStatement(this.db, 'SELECT id, last_scan_date FROM library WHERE last_scan_date IS NOT NULL').all() as { id: string; last_scan_date: number }[];
    return new Map(rows.map((r) => [r.id, r.last_scan_date]));
  }

  private rows(): readonly Library[] {
    if (this.remembered) return this.remembered;
    const rows = cachedStatement(this.db, 'SELECT * FROM library ORDER BY lower(name)').all() as Record<string, unknown>[];
    const libraries = rows.map((row) => rowToObject(COLUMNS, row));
    if (!this.db.inTransaction) this.remembered = libraries;
    return libraries;
  }
}

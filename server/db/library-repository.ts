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

export class LibraryRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  findAll(): Library[] {
    const rows = cachedStatement(this.db, 'SELECT * FROM library ORDER BY lower(name)').all() as Record<string, unknown>[];
    return rows.map((row) => rowToObject(COLUMNS, row));
  }

  findById(id: string): Library | undefined {
    const row = cachedStatement(this.db, 'SELECT * FROM library WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    return row ? rowToObject(COLUMNS, row) : undefined;
  }

  insert(library: Library): void {
    cachedStatement(this.db, insertSql('library', COLUMNS)).run(objectToParams(COLUMNS, library));
  }

  update(library: Library): void {
    cachedStatement(this.db, updateSql('library', COLUMNS, 'id')).run(objectToParams(COLUMNS, library));
  }

  delete(id: string): void {
    cachedStatement(this.db, 'DELETE FROM library WHERE id = ?').run(id);
  }
}

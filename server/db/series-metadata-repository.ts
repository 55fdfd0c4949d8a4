import type { AlternateTitle, ReadingDirection, SeriesStatus, WebLink } from './stored-values.ts';
import type { Db } from './database.ts';
import { type ColumnMap, insertSql, objectToParams, rowToObject, updateSql } from './columns.ts';
import { cachedStatement } from './statement-cache.ts';
import { SERIES_FOLDS, foldedColumns, withFoldedTitles } from './folded-titles.ts';

export interface SeriesMetadata {
  seriesId: string;
  status: SeriesStatus;
  statusLock: boolean;
  title: string;
  titleLock: boolean;
  titleSort: string;
  titleSortLock: boolean;
  summary: string;
  summaryLock: boolean;
  readingDirection: ReadingDirection | '';
  readingDirectionLock: boolean;
  publisher: string;
  publisherLock: boolean;
  ageRating: number | null;
  ageRatingLock: boolean;
  language: string;
  languageLock: boolean;
  genres: string[];
  genresLock: boolean;
  tags: string[];
  tagsLock: boolean;
  totalBookCount: number | null;
  totalBookCountLock: boolean;
  sharingLabels: string[];
  sharingLabelsLock: boolean;
  links: WebLink[];
  linksLock: boolean;
  alternateTitles: AlternateTitle[];
  alternateTitlesLock: boolean;
  created: number;
  lastModified: number;
}

const COLUMNS: ColumnMap<SeriesMetadata> = {
  seriesId: ['series_id', 'text'],
  status: ['status', 'text'],
  statusLock: ['status_lock', 'bool'],
  title: ['title', 'text'],
  titleLock: ['title_lock', 'bool'],
  titleSort: ['title_sort', 'text'],
  titleSortLock: ['title_sort_lock', 'bool'],
  summary: ['summary', 'text'],
  summaryLock: ['summary_lock', 'bool'],
  readingDirection: ['reading_direction', 'text'],
  readingDirectionLock: ['reading_direction_lock', 'bool'],
  publisher: ['publisher', 'text'],
  publisherLock: ['publisher_lock', 'bool'],
  ageRating: ['age_rating', 'int'],
  ageRatingLock: ['age_rating_lock', 'bool'],
  language: ['language', 'text'],
  languageLock: ['language_lock', 'bool'],
  genres: ['genres', 'json'],
  genresLock: ['genres_lock', 'bool'],
  tags: ['tags', 'json'],
  tagsLock: ['tags_lock', 'bool'],
  totalBookCount: ['total_book_count', 'int'],
  totalBookCountLock: ['total_book_count_lock', 'bool'],
  sharingLabels: ['sharing_labels', 'json'],
  sharingLabelsLock: ['sharing_labels_lock', 'bool'],
  links: ['links', 'json'],
  linksLock: ['links_lock', 'bool'],
  alternateTitles: ['alternate_titles', 'json'],
  alternateTitlesLock: ['alternate_titles_lock', 'bool'],
  created: ['created', 'int'],
  lastModified: ['last_modified', 'int'],
};

/** Fresh metadata for a new series: its title is the folder name, nothing locked. */
export function defaultSeriesMetadata(seriesId: string, title: string, now: number): SeriesMetadata {
  return {
    seriesId,
    status: 'ONGOING',
    statusLock: false,
    title,
    titleLock: false,
    titleSort: title,
    titleSortLock: false,
    summary: '',
    summaryLock: false,
    readingDirection: '',
    readingDirectionLock: false,
    publisher: '',
    publisherLock: false,
    ageRating: null,
    ageRatingLock: false,
    language: '',
    languageLock: false,
    genres: [],
    genresLock: false,
    tags: [],
    tagsLock: false,
    totalBookCount: null,
    totalBookCountLock: false,
    sharingLabels: [],
    sharingLabelsLock: false,
    links: [],
    linksLock: false,
    alternateTitles: [],
    alternateTitlesLock: false,
    created: now,
    lastModified: now,
  };
}

export class SeriesMetadataRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  findBySeriesId(seriesId: string): SeriesMetadata | undefined {
    const row = cachedStatement(this.db, 'SELECT * FROM series_metadata WHERE series_id = ?').get(seriesId) as
      | Record<string, unknown>
      | undefined;
    return row ? rowToObject(COLUMNS, row) : undefined;
  }

  insert(metadata: SeriesMetadata): void {
    cachedStatement(this.db, insertSql('series_metadata', COLUMNS, foldedColumns(SERIES_FOLDS))).run(withFoldedTitles(objectToParams(COLUMNS, metadata), SERIES_FOLDS));
  }

  update(metadata: SeriesMetadata): void {
    cachedStatement(this.db, updateSql('series_metadata', COLUMNS, 'series_id', foldedColumns(SERIES_FOLDS))).run(withFoldedTitles(objectToParams(COLUMNS, metadata), SERIES_FOLDS));
  }

  /** The series' sort title ('' when it has no metadata row). */
  titleSort(seriesId: string): string {
    return String(this.db.prepare('SELECT title_sort FROM series_metadata WHERE series_id = ?').pluck().get(seriesId) ?? '');
  }

  /** Ids of the series not deleted whose title is `title`, without regard to case. */
  findLiveSeriesIdsByTitle(title: string): string[] {
    return cachedStatement(
      this.db,
      `SELECT sm.series_id FROM series_metadata sm JOIN series s ON s.id = sm.series_id
       WHERE s.deleted_date IS NULL AND lower(sm.title) = lower(?)`,
    )
      .pluck()
      .all(title) as string[];
  }
}

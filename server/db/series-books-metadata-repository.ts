import type { Author } from './stored-values.ts';
import type { Db } from './database.ts';
import { type ColumnMap, objectToParams, rowToObject } from './columns.ts';
import { cachedStatement } from './statement-cache.ts';

/** What a series' books say in aggregate (authors, tags, earliest release date, first summary). */
export interface SeriesBooksMetadata {
  seriesId: string;
  authors: Author[];
  tags: string[];
  releaseDate: string | null;
  summary: string;
  summaryNumber: string;
  created: number;
  lastModified: number;
}

const COLUMNS: ColumnMap<SeriesBooksMetadata> = {
  seriesId: ['series_id', 'text'],
  authors: ['authors', 'json'],
  tags: ['tags', 'json'],
  releaseDate: ['release_date', 'text'],
  summary: ['summary', 'text'],
  summaryNumber: ['summary_number', 'text'],
  created: ['created', 'int'],
  lastModified: ['last_modified', 'int'],
};

export class SeriesBooksMetadataRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  findBySeriesId(seriesId: string): SeriesBooksMetadata | undefined {
    const row = cachedStatement(this.db, 'SELECT * FROM series_books_metadata WHERE series_id = ?').get(seriesId) as
      | Record<string, unknown>
      | undefined;
    return row ? rowToObject(COLUMNS, row) : undefined;
  }

  upsert(value: SeriesBooksMetadata): void {
    cachedStatement(this.db, 
        `INSERT INTO series_books_metadata (series_id, authors, tags, release_date, summary, summary_number, created, last_modified)
         VALUES (@series_id, @authors, @tags, @release_date, @summary, @summary_number, @created, @last_modified)
         ON CONFLICT(series_id) DO UPDATE SET authors = excluded.authors, tags = excluded.tags,
           release_date = excluded.release_date, summary = excluded.summary,
           summary_number = excluded.summary_number, last_modified = excluded.last_modified`,
      )
      .run(objectToParams(COLUMNS, value));
  }
}

import type { Db } from './database.ts';
import { ApiKeyRepository } from './api-key-repository.ts';
import { AuthenticationActivityRepository } from './authentication-activity-repository.ts';
import { BookMetadataRepository } from './book-metadata-repository.ts';
import { BookRepository } from './book-repository.ts';
import { ClientSettingRepository } from './client-setting-repository.ts';
import { CollectionRepository } from './collection-repository.ts';
import { HistoryRepository } from './history-repository.ts';
import { LibraryRepository } from './library-repository.ts';
import { MediaRepository } from './media-repository.ts';
import { PageHashRepository } from './page-hash-repository.ts';
import { R2ProgressionRepository } from './r2-progression-repository.ts';
import { ReadListRepository } from './readlist-repository.ts';
import { ReferentialRepository } from './referential-repository.ts';
import { ReadProgressRepository } from './read-progress-repository.ts';
import { SeriesBooksMetadataRepository } from './series-books-metadata-repository.ts';
import { SeriesMetadataRepository } from './series-metadata-repository.ts';
import { SearchRepository } from './search-repository.ts';
import { SeriesRepository } from './series-repository.ts';
import { ServerSettingRepository } from './server-setting-repository.ts';
import { SessionRepository } from './session-repository.ts';
import { StatisticsRepository } from './statistics-repository.ts';
import { TaskRepository } from './task-repository.ts';
import { OwnedThumbnailRepository, ThumbnailRepository } from './thumbnail-repository.ts';
import { UserRepository } from './user-repository.ts';
import { BookSeriesFactsRepository } from './book-series-facts-repository.ts';
import { ServingLookups } from './serving-lookups.ts';

export interface Repositories {
  users: UserRepository;
  sessions: SessionRepository;
  libraries: LibraryRepository;
  series: SeriesRepository;
  seriesMetadata: SeriesMetadataRepository;
  seriesBooksMetadata: SeriesBooksMetadataRepository;
  books: BookRepository;
  bookMetadata: BookMetadataRepository;
  bookSeriesFacts: BookSeriesFactsRepository;
  media: MediaRepository;
  readProgress: ReadProgressRepository;
  r2Progressions: R2ProgressionRepository;
  thumbnails: ThumbnailRepository;
  seriesThumbnails: OwnedThumbnailRepository;
  collectionThumbnails: OwnedThumbnailRepository;
  readListThumbnails: OwnedThumbnailRepository;
  collections: CollectionRepository;
  readLists: ReadListRepository;
  history: HistoryRepository;
  pageHashes: PageHashRepository;
  serverSettings: ServerSettingRepository;
  clientSettings: ClientSettingRepository;
  apiKeys: ApiKeyRepository;
  authActivity: AuthenticationActivityRepository;
  statistics: StatisticsRepository;
  storedTasks: TaskRepository;
  referential: ReferentialRepository;
  search: SearchRepository;
  /** The book, media, page and poster rows of the page and poster routes, remembered until a write changes them. */
  served: ServingLookups;
  /** Runs `work` in one SQLite transaction (nested calls join the outer one); a throw rolls it back. */
  inTransaction<T>(work: () => T): T;
}

export function createRepositories(db: Db): Repositories {
  const books = new BookRepository(db);
  const media = new MediaRepository(db);
  const thumbnails = new ThumbnailRepository(db);
  return {
    users: new UserRepository(db),
    sessions: new SessionRepository(db),
    libraries: new LibraryRepository(db),
    series: new SeriesRepository(db),
    seriesMetadata: new SeriesMetadataRepository(db),
    seriesBooksMetadata: new SeriesBooksMetadataRepository(db),
    books,
    bookMetadata: new BookMetadataRepository(db),
    bookSeriesFacts: new BookSeriesFactsRepository(db),
    media,
    readProgress: new ReadProgressRepository(db),
    r2Progressions: new R2ProgressionRepository(db),
    thumbnails,
    seriesThumbnails: new OwnedThumbnailRepository(db, 'thumbnail_series', 'series_id'),
    collectionThumbnails: new OwnedThumbnailRepository(db, 'thumbnail_collection', 'collection_id'),
    readListThumbnails: new OwnedThumbnailRepository(db, 'thumbnail_readlist', 'readlist_id'),
    collections: new CollectionRepository(db),
    readLists: new ReadListRepository(db),
    history: new HistoryRepository(db),
    pageHashes: new PageHashRepository(db),
    serverSettings: new ServerSettingRepository(db),
    clientSettings: new ClientSettingRepository(db),
    apiKeys: new ApiKeyRepository(db),
    authActivity: new AuthenticationActivityRepository(db),
    statistics: new StatisticsRepository(db),
    storedTasks: new TaskRepository(db),
    referential: new ReferentialRepository(db),
    search: new SearchRepository(db),
    served: new ServingLookups(db, books, media, thumbnails),
    inTransaction: <T>(work: () => T): T => db.transaction(work)(),
  };
}

/**
 * Komga REST API data shapes (contract: shared/komga/openapi.json).
 * One place for both sides: the client reads these, the server's DTO mappers produce them.
 * A `| null` field is one that the OpenAPI document leaves out of `required`.
 */

export type IsoDateTime = string; // yyyy-MM-ddTHH:mm:ssZ
export type IsoDate = string; // yyyy-MM-dd

export const MEDIA_STATUSES = ['READY', 'UNKNOWN', 'OUTDATED', 'ERROR', 'UNSUPPORTED'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

export const READING_DIRECTIONS = ['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT', 'VERTICAL', 'WEBTOON'] as const;
export type ReadingDirection = (typeof READING_DIRECTIONS)[number];

export const SERIES_STATUSES = ['ONGOING', 'ENDED', 'HIATUS', 'ABANDONED'] as const;
export type SeriesStatus = (typeof SERIES_STATUSES)[number];

export const SERIES_COVERS = ['FIRST', 'FIRST_UNREAD_OR_FIRST', 'FIRST_UNREAD_OR_LAST', 'LAST'] as const;
export type SeriesCover = (typeof SERIES_COVERS)[number];

export const SCAN_INTERVALS = ['DISABLED', 'HOURLY', 'EVERY_6H', 'EVERY_12H', 'DAILY', 'WEEKLY'] as const;
export type ScanInterval = (typeof SCAN_INTERVALS)[number];

export const ROLES = ['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC', 'KOREADER_SYNC'] as const;
export type Role = (typeof ROLES)[number] | 'USER';

export type ReadStatus = 'UNREAD' | 'READ' | 'IN_PROGRESS';

/** Spring Data `Page<T>` wrapper returned by every paged list. `number` is 0-based. */
export interface SortObject {
  sorted: boolean;
  unsorted: boolean;
  empty: boolean;
}
export interface Pageable {
  pageNumber: number;
  pageSize: number;
  offset: number;
  paged: boolean;
  unpaged: boolean;
  sort: SortObject;
}
export interface Page<T> {
  content: T[];
  pageable: Pageable;
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
  numberOfElements: number;
  first: boolean;
  last: boolean;
  empty: boolean;
  sort: SortObject;
}

export interface ClaimStatus {
  isClaimed: boolean;
}

export interface AgeRestriction {
  age: number;
  restriction: 'ALLOW_ONLY' | 'EXCLUDE';
}

export interface UserDto {
  id: string;
  email: string;
  roles: Role[];
  sharedAllLibraries: boolean;
  sharedLibrariesIds: string[];
  labelsAllow: string[];
  labelsExclude: string[];
  ageRestriction: AgeRestriction | null;
}

/** Age restriction in user creation/update bodies; `NONE` (or null) removes it. */
export interface AgeRestrictionUpdateDto {
  age: number;
  restriction: 'ALLOW_ONLY' | 'EXCLUDE' | 'NONE';
}
export interface SharedLibrariesUpdateDto {
  all: boolean;
  libraryIds: string[];
}
export interface UserCreationDto {
  email: string;
  password: string;
  roles: Role[];
  ageRestriction?: AgeRestrictionUpdateDto | null;
  labelsAllow?: string[];
  labelsExclude?: string[];
  sharedLibraries?: SharedLibrariesUpdateDto;
}
/** PATCH /api/v2/users/{id}: only the keys present are applied. */
export interface UserUpdateDto {
  roles?: Role[];
  ageRestriction?: AgeRestrictionUpdateDto | null;
  labelsAllow?: string[];
  labelsExclude?: string[];
  sharedLibraries?: SharedLibrariesUpdateDto;
}
export interface PasswordUpdateDto {
  password: string;
}
/** `key` is the real key only in the creation answer; lists show it redacted. */
export interface ApiKeyDto {
  id: string;
  userId: string;
  key: string;
  comment: string;
  createdDate: string;
  lastModifiedDate: string;
}
export interface AuthenticationActivityDto {
  userId: string | null;
  email: string | null;
  apiKeyId: string | null;
  apiKeyComment: string | null;
  ip: string | null;
  userAgent: string | null;
  success: boolean;
  error: string | null;
  dateTime: IsoDateTime;
  source: string | null;
}
/** Violations of a rejected request body (400). */
export interface ValidationErrorBody {
  violations: { fieldName: string; message: string }[];
}

export interface LibraryDto {
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
  unavailable: boolean;
}

/** Body of POST /api/v1/libraries: only name and root are required, the rest take Komga's defaults. */
export type LibraryCreationDto = Pick<LibraryDto, 'name' | 'root'> &
  Partial<Omit<LibraryDto, 'id' | 'name' | 'root' | 'unavailable'>>;

export interface AuthorDto {
  name: string;
  role: string;
}
export interface WebLinkDto {
  label: string;
  url: string;
}
export interface AlternateTitleDto {
  label: string;
  title: string;
}

export interface SeriesMetadataDto {
  status: SeriesStatus;
  statusLock: boolean;
  title: string;
  titleLock: boolean;
  titleSort: string;
  titleSortLock: boolean;
  summary: string;
  summaryLock: boolean;
  /** '' when unset. */
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
  links: WebLinkDto[];
  linksLock: boolean;
  alternateTitles: AlternateTitleDto[];
  alternateTitlesLock: boolean;
  created: IsoDateTime;
  lastModified: IsoDateTime;
}

export interface BookMetadataAggregationDto {
  authors: AuthorDto[];
  tags: string[];
  releaseDate: IsoDate | null;
  summary: string;
  summaryNumber: string;
  created: IsoDateTime;
  lastModified: IsoDateTime;
}

export interface SeriesDto {
  id: string;
  libraryId: string;
  name: string;
  url: string;
  created: IsoDateTime;
  lastModified: IsoDateTime;
  fileLastModified: IsoDateTime;
  booksCount: number;
  booksReadCount: number;
  booksUnreadCount: number;
  booksInProgressCount: number;
  metadata: SeriesMetadataDto;
  booksMetadata: BookMetadataAggregationDto;
  deleted: boolean;
  oneshot: boolean;
}

export interface MediaDto {
  status: MediaStatus;
  mediaType: string;
  pagesCount: number;
  /** Error codes (ERR_xxxx) and notes from analysis. */
  comment: string;
  epubDivinaCompatible: boolean;
  epubIsKepub: boolean;
  mediaProfile: 'DIVINA' | 'PDF' | 'EPUB' | '';
}

export interface BookMetadataDto {
  title: string;
  titleLock: boolean;
  summary: string;
  summaryLock: boolean;
  number: string;
  numberLock: boolean;
  numberSort: number;
  numberSortLock: boolean;
  releaseDate: IsoDate | null;
  releaseDateLock: boolean;
  authors: AuthorDto[];
  authorsLock: boolean;
  tags: string[];
  tagsLock: boolean;
  isbn: string;
  isbnLock: boolean;
  links: WebLinkDto[];
  linksLock: boolean;
  created: IsoDateTime;
  lastModified: IsoDateTime;
}

export interface ReadProgressDto {
  /** 1-based. */
  page: number;
  completed: boolean;
  readDate: IsoDateTime;
  created: IsoDateTime;
  lastModified: IsoDateTime;
  deviceId: string;
  deviceName: string;
}

export interface BookDto {
  id: string;
  seriesId: string;
  seriesTitle: string;
  libraryId: string;
  name: string;
  url: string;
  number: number;
  created: IsoDateTime;
  lastModified: IsoDateTime;
  fileLastModified: IsoDateTime;
  sizeBytes: number;
  size: string;
  media: MediaDto;
  metadata: BookMetadataDto;
  readProgress: ReadProgressDto | null;
  deleted: boolean;
  fileHash: string;
  oneshot: boolean;
}

export interface PageDto {
  /** 1-based. */
  number: number;
  fileName: string;
  mediaType: string;
  width: number | null;
  height: number | null;
  sizeBytes: number | null;
  size: string;
}

export interface ReadProgressUpdateDto {
  page?: number;
  completed?: boolean;
}

/** Spring Boot error body; `message` is always filled by the server. */
export interface ErrorBody {
  timestamp: IsoDateTime;
  status: number;
  error: string;
  message: string;
  path: string;
}

/** Readium locator (R2Locator): a place in a publication, as Komga's clients exchange it. */
export interface R2Locator {
  href: string;
  type: string;
  title?: string;
  locations?: {
    fragments?: string[];
    position?: number;
    progression?: number;
    totalProgression?: number;
    cssSelector?: string;
  };
  text?: { after?: string; before?: string; highlight?: string };
}

/** Where a user is in a book (R2Progression), saved per user by PUT /api/v1/books/{id}/progression. */
export interface R2Progression {
  /** ISO date-time; the server refuses one older than what it has (409). */
  modified: string;
  device: { id: string; name: string };
  locator: R2Locator;
}

/** GET /api/v1/books/{id}/positions. */
export interface R2Positions {
  total: number;
  positions: R2Locator[];
}

/** GET /api/v1/client-settings/user/list: the signed-in user's client settings (ClientSettingDto per key). */
export type UserClientSettings = Record<string, { value: string }>;

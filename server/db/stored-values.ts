/**
 * The value types the database stores: enumerations kept as text columns and the objects kept in
 * JSON columns. They belong to storage, not to the wire: server/http/dto produces the Komga DTOs
 * (the client's API types) from them, and tests/unit/server/stored-values.test.ts checks that
 * every enumeration here holds exactly the values Komga's contract allows.
 */

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

/** Roles an administrator grants (stored in `user.roles`); the pseudo-role USER is implied. */
export const GRANTED_ROLES = ['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC', 'KOREADER_SYNC'] as const;
export type GrantedRole = (typeof GRANTED_ROLES)[number];
/** A role as checked and reported: a granted one or USER, which every account has. */
export type Role = GrantedRole | 'USER';

/** One credited person of a book or series (JSON column `authors`); `role` is free text, lower case. */
export interface Author {
  name: string;
  role: string;
}

/** A labelled link of a book or series (JSON column `links`). */
export interface WebLink {
  label: string;
  url: string;
}

/** Another title of a series, e.g. in another language (JSON column `alternate_titles`). */
export interface AlternateTitle {
  label: string;
  title: string;
}

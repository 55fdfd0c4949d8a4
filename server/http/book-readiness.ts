import type { Media } from '../db/media-repository.ts';
import type { MediaStatus } from '../db/stored-values.ts';
import { notFound } from './errors.ts';

/** Why a book's pages cannot be listed or served, per media status (REFERENCE §2.5). */
const NOT_READY_MESSAGES: Record<Exclude<MediaStatus, 'READY'>, string> = {
  UNKNOWN: 'Book has not been analyzed yet',
  OUTDATED: 'Book is outdated and must be re-analyzed',
  ERROR: 'Book analysis failed',
  UNSUPPORTED: 'Book format is not supported',
};

/** A book whose analysis has not made it READY has no pages to give: 404 saying why, as Komga. */
export function requirePagesReady(media: Pick<Media, 'status'>): void {
  if (media.status !== 'READY') throw notFound(NOT_READY_MESSAGES[media.status] ?? NOT_READY_MESSAGES.ERROR);
}

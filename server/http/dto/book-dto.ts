import { basename } from 'node:path';
import type { BookDto, PageDto, ReadProgressDto } from '../../../src/api/types.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import type { ReadProgress } from '../../db/read-progress-repository.ts';
import type { FolioContext } from '../../domain/context.ts';
import { mediaProfileOf } from '../../media/readers.ts';
import { formatDateTime, humanSize } from '../format.ts';

export function toReadProgressDto(p: ReadProgress): ReadProgressDto {
  return {
    page: p.page,
    completed: p.completed,
    readDate: formatDateTime(p.readDate),
    created: formatDateTime(p.created),
    lastModified: formatDateTime(p.lastModified),
    deviceId: p.deviceId,
    deviceName: p.deviceName,
  };
}

/** BookDto for one caller (readProgress is theirs; `url` is the bare file name for non-admins). */
export function toBookDto(ctx: FolioContext, bookId: string, userId: string, admin: boolean): BookDto | undefined {
  const book = ctx.repos.books.findById(bookId);
  const metadata = ctx.repos.bookMetadata.findByBookId(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || !metadata || !media) return undefined;
  const seriesTitle = ctx.repos.seriesMetadata.findBySeriesId(book.seriesId)?.title ?? '';
  const progress = ctx.repos.readProgress.find(bookId, userId);
  const { bookId: _id, created, lastModified, ...fields } = metadata;
  return {
    id: book.id,
    seriesId: book.seriesId,
    seriesTitle,
    libraryId: book.libraryId,
    name: book.name,
    url: admin ? book.url : basename(book.url),
    number: book.number,
    created: formatDateTime(book.created),
    lastModified: formatDateTime(book.lastModified),
    fileLastModified: formatDateTime(book.fileLastModified),
    sizeBytes: book.fileSize,
    size: humanSize(book.fileSize),
    media: {
      status: media.status,
      mediaType: media.mediaType ?? '',
      pagesCount: media.pageCount,
      comment: media.comment ?? '',
      epubDivinaCompatible: media.epubDivinaCompatible,
      epubIsKepub: media.epubIsKepub,
      mediaProfile: mediaProfileOf(media.mediaType) ?? '',
    },
    metadata: { ...fields, created: formatDateTime(created), lastModified: formatDateTime(lastModified) },
    readProgress: progress ? toReadProgressDto(progress) : null,
    deleted: book.deletedDate !== null,
    fileHash: book.fileHash,
    oneshot: book.oneshot,
  };
}

export function toPageDto(page: MediaPage): PageDto {
  return {
    number: page.number,
    fileName: page.fileName,
    mediaType: page.mediaType,
    width: page.width,
    height: page.height,
    sizeBytes: page.fileSize,
    size: humanSize(page.fileSize),
  };
}

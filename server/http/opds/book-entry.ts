import { basename } from 'node:path';
import type { FolioContext } from '../../domain/context.ts';
import { formatDateTime } from '../format.ts';
import type { Entry, Link } from './atom.ts';

/** Page types every OPDS-PSE reader shows as they are; anything else is streamed as JPEG. */
const PSE_NATIVE = new Set(['image/jpeg', 'image/png', 'image/gif']);

const PSE_STREAM = 'http://vaemendis.net/opds-pse/stream';
const ACQUISITION_REL = 'http://opds-spec.org/acquisition';

/**
 * The OPDS 1.2 acquisition entry of one book, as the caller sees it: poster links, the download
 * link and, for a book with page images, the OPDS-PSE page-streaming link.
 *
 * - Every link is one of Komga's OPDS 1.2 book addresses (its OpdsController writes them so), so
 *   a reader given only the /opds paths can follow them: the poster, the small poster as the
 *   thumbnail, the file, and the pages, which count from 0 there.
 * - The download URL ends with the book's file name (`/file/<name>`, served by the download
 *   routes): Chunky, KyBook and other readers name the saved file after the last path segment
 *   and pick the format from its extension; a bare `/file` saved every book as "file".
 * - `pse:lastRead`/`pse:lastReadDate` carry the caller's read progress (its 1-based page, as
 *   Komga writes it), so Panels, Chunky and KOReader offer to resume where the reader stopped.
 * - The stream type is the pages' own type when they all share one a PSE reader can show;
 *   otherwise pages are converted to JPEG and the link says so.
 */
export function opdsBookEntry(ctx: FolioContext, userId: string, bookId: string, titlePrefix = ''): Entry | undefined {
  const book = ctx.repos.books.findById(bookId);
  const meta = ctx.repos.bookMetadata.findByBookId(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || !meta || !media) return undefined;
  const at = `/opds/v1.2/books/${encodeURIComponent(bookId)}`;
  const links: Link[] = [
    { rel: 'http://opds-spec.org/image', href: `${at}/thumbnail`, type: 'image/jpeg' },
    { rel: 'http://opds-spec.org/image/thumbnail', href: `${at}/thumbnail/small`, type: 'image/jpeg' },
    {
      rel: ACQUISITION_REL,
      href: `${at}/file/${encodeURIComponent(basename(book.url))}`,
      type: media.mediaType ?? 'application/octet-stream',
    },
  ];
  // A text EPUB has no page images (media_page rows) whatever its page count: nothing to stream.
  const pages = media.status === 'READY' ? ctx.repos.media.findPages(bookId) : [];
  if (pages.length > 0) {
    const types = new Set(pages.map((p) => p.mediaType));
    const [only] = types;
    const native = types.size === 1 && only !== undefined && PSE_NATIVE.has(only);
    const progress = ctx.repos.readProgress.find(bookId, userId);
    const attributes: Record<string, string | number> = { 'pse:count': pages.length };
    if (progress) {
      attributes['pse:lastRead'] = progress.page;
      attributes['pse:lastReadDate'] = formatDateTime(progress.readDate);
    }
    links.push({
      rel: PSE_STREAM,
      // PSE readers substitute {pageNumber}, counted from 0, as this address counts them.
      href: `${at}/pages/{pageNumber}${native ? '' : '?convert=jpeg'}`,
      type: native ? only : 'image/jpeg',
      attributes,
    });
  }
  return {
    id: `book-${bookId}`,
    title: `${titlePrefix}${meta.title}`,
    updated: formatDateTime(book.lastModified),
    content: meta.summary,
    authors: meta.authors.map((a) => a.name),
    issued: meta.releaseDate,
    links,
  };
}

import { isTransientFailure } from '../../media/transient-errors.ts';
import type { BookMetadata } from '../../db/book-metadata-repository.ts';
import type { SeriesMetadata } from '../../db/series-metadata-repository.ts';
import type { EpubMetadata, OpfPackage } from '../../media/epub-opf.ts';
import { readPackage } from '../../media/epub-reader.ts';
import type { FolioContext } from '../context.ts';
import { bookArchive } from '../book-archive.ts';
import type { AnalysedBook } from '../analysis/analysed-book.ts';

const EPUB_MEDIA_TYPE = 'application/epub+zip';

/**
 * Library options importEpubBook / importEpubSeries: what an EPUB's package document (OPF) says
 * about itself fills the book's metadata (title, summary, authors, ISBN, release date, subjects as
 * tags, position in its series) and its series' (series name from calibre or an EPUB 3
 * collection, publisher, language, right-to-left progression). Locked fields are left alone.
 * Returns true when the EPUB could be read.
 */
export async function importEpubMetadata(ctx: FolioContext, bookId: string, known?: AnalysedBook): Promise<boolean> {
  const book = known?.book ?? ctx.repos.books.findById(bookId);
  const library = book && ctx.repos.libraries.findById(book.libraryId);
  if (!book || !library || !(library.importEpubBook || library.importEpubSeries)) return false;
  if ((known?.media ?? ctx.repos.media.findByBookId(bookId))?.mediaType !== EPUB_MEDIA_TYPE) return false;
  let pkg: OpfPackage;
  try {
    pkg = await readPackage(await bookArchive(ctx, book));
  } catch (error) {
    // A busy server says nothing about the file: the caller tries again rather than lose the import.
    if (isTransientFailure(error)) throw error;
    ctx.log(`cannot read the EPUB package of ${book.url}`, error);
    return false;
  }
  const now = Date.now();
  ctx.db.transaction(() => {
    if (library.importEpubBook) {
      const meta = ctx.repos.bookMetadata.findByBookId(bookId);
      if (meta) {
        const next = bookPatch(meta, pkg.metadata);
        if (JSON.stringify(next) !== JSON.stringify(meta)) ctx.repos.bookMetadata.update({ ...next, lastModified: now });
      }
    }
    if (library.importEpubSeries) {
      const meta = ctx.repos.seriesMetadata.findBySeriesId(book.seriesId);
      if (meta) {
        const next = seriesPatch(meta, pkg);
        if (JSON.stringify(next) !== JSON.stringify(meta)) {
          ctx.repos.seriesMetadata.update({ ...next, lastModified: now });
          ctx.events.emit({ name: 'SeriesChanged', data: { seriesId: book.seriesId, libraryId: book.libraryId } });
        }
      }
    }
  })();
  return true;
}

function bookPatch(meta: BookMetadata, epub: EpubMetadata): BookMetadata {
  const next = { ...meta };
  if (epub.title && !meta.titleLock) next.title = epub.title;
  if (epub.description && !meta.summaryLock) next.summary = epub.description;
  if (epub.authors.length > 0 && !meta.authorsLock) next.authors = epub.authors.map((a) => ({ name: a.name, role: a.role }));
  // Book metadata holds a 13-digit ISBN (SPEC §9); an ISBN-10 is not converted.
  if (epub.isbn && epub.isbn.length === 13 && !meta.isbnLock) next.isbn = epub.isbn;
  if (epub.releaseDate && !meta.releaseDateLock) next.releaseDate = epub.releaseDate;
  if (epub.tags.length > 0 && !meta.tagsLock) next.tags = [...new Set(epub.tags)];
  const index = epub.series?.index;
  if (index !== undefined && index !== null) {
    if (!meta.numberLock) next.number = String(index);
    if (!meta.numberSortLock) next.numberSort = index;
  }
  return next;
}

function seriesPatch(meta: SeriesMetadata, pkg: OpfPackage): SeriesMetadata {
  const epub = pkg.metadata;
  const next = { ...meta };
  if (epub.series) {
    if (!meta.titleLock) next.title = epub.series.name;
    if (!meta.titleSortLock) next.titleSort = epub.series.name;
  }
  if (epub.publisher && !meta.publisherLock) next.publisher = epub.publisher;
  if (epub.language && !meta.languageLock) next.language = epub.language;
  if (pkg.pageProgression === 'rtl' && !meta.readingDirectionLock) next.readingDirection = 'RIGHT_TO_LEFT';
  return next;
}

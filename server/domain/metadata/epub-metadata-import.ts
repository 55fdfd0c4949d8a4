import { isTransientFailure } from '../../media/transient-errors.ts';
import type { BookMetadata } from '../../db/book-metadata-repository.ts';
import type { Book } from '../../db/book-repository.ts';
import type { BookSeriesFacts } from '../../db/book-series-facts-repository.ts';
import type { EpubMetadata, OpfPackage } from '../../media/epub-opf.ts';
import { bookPackage } from '../../media/epub-reader.ts';
import type { FolioContext } from '../context.ts';
import { bookArchive } from '../book-archive.ts';
import type { AnalysedBook } from '../analysis/analysed-book.ts';
import { recombineSeriesMetadata } from './series-facts-vote.ts';
import { boundedImport } from './bounded-import.ts';

const EPUB_MEDIA_TYPE = 'application/epub+zip';

/**
 * Library options importEpubBook / importEpubSeries: what an EPUB's package document (OPF) says
 * about itself fills the book's metadata (title, summary, authors, ISBN, release date, subjects as
 * tags, position in its series) and its series' (series name from calibre or an EPUB 3
 * collection, publisher, language, page progression; each book's are kept and combined over
 * the series' books, see recombineSeriesMetadata). Locked fields are left alone. Returns true when the EPUB could be read.
 */
export async function importEpubMetadata(ctx: FolioContext, bookId: string, known?: AnalysedBook): Promise<boolean> {
  const book = known?.book ?? ctx.repos.books.findById(bookId);
  const library = book && ctx.repos.libraries.findById(book.libraryId);
  if (!book || !library || !(library.importEpubBook || library.importEpubSeries)) return false;
  if ((known?.media ?? ctx.repos.media.findByBookId(bookId))?.mediaType !== EPUB_MEDIA_TYPE) return false;
  let pkg: OpfPackage;
  try {
    pkg = await readBoundedPackage(ctx, book);
  } catch (error) {
    // A busy server says nothing about the file: the caller tries again rather than lose the import.
    if (isTransientFailure(error)) throw error;
    ctx.log(`cannot read the EPUB package of ${book.url}`, error);
    return false;
  }
  if (library.importEpubSeries) await recordSiblingFacts(ctx, book.seriesId, bookId);
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
      ctx.repos.bookSeriesFacts.save(seriesFacts(bookId, pkg));
      recombineSeriesMetadata(ctx, book.seriesId, now);
    }
  })();
  return true;
}

/**
 * Books imported before each EPUB's series facts were kept (a database from an older Folio) would
 * not vote, and the first import after the upgrade would decide the series alone: their package
 * documents are read once here and their facts recorded.
 */
async function recordSiblingFacts(ctx: FolioContext, seriesId: string, importing: string): Promise<void> {
  for (const id of ctx.repos.bookSeriesFacts.findBookIdsWithoutFacts(seriesId, EPUB_MEDIA_TYPE, 'EPUB')) {
    const sibling = id === importing ? undefined : ctx.repos.books.findById(id);
    if (!sibling) continue;
    try {
      ctx.repos.bookSeriesFacts.save(seriesFacts(id, await readBoundedPackage(ctx, sibling)));
    } catch (error) {
      if (isTransientFailure(error)) throw error;
      // An unreadable sibling simply does not vote; its own import reports the problem.
      ctx.log(`cannot read the EPUB package of ${sibling.url} for its series' metadata`, error);
    }
  }
}

/** The book's package document, its metadata within the import limits (the rest is the reader's). */
async function readBoundedPackage(ctx: FolioContext, book: Book): Promise<OpfPackage> {
  const pkg = await bookPackage(await bookArchive(ctx, book));
  return { ...pkg, metadata: boundedImport(ctx, pkg.metadata, `the EPUB package document of ${book.url}`) };
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

function seriesFacts(bookId: string, pkg: OpfPackage): BookSeriesFacts {
  const epub = pkg.metadata;
  return {
    bookId,
    source: 'EPUB',
    seriesTitle: epub.series?.name || null,
    publisher: epub.publisher || null,
    language: epub.language || null,
    // An EPUB that states no progression is read left to right by Folio's reader (EPUB's
    // "default"), so it votes for that: an English book beside a manga keeps its direction.
    readingDirection: pkg.pageProgression === 'rtl' ? 'RIGHT_TO_LEFT' : 'LEFT_TO_RIGHT',
    genres: [],
    ageRating: null,
    totalBookCount: null,
  };
}

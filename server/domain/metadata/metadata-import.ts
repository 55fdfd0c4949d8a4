import type { FolioContext } from '../context.ts';
import { bookArchive } from '../book-archive.ts';
import type { AnalysedBook } from '../analysis/analysed-book.ts';
import { newId } from '../../db/ids.ts';
import { collectPrefix } from '../../media/book-reader.ts';
import { type ComicInfoPatch, MalformedComicInfoError, readComicInfo } from './comicinfo.ts';
import { decodeXmlText } from '../../media/xml-text.ts';
import { boundedImport } from './bounded-import.ts';
import { isTransientFailure } from '../../media/transient-errors.ts';
import { refreshSeriesAggregation } from './series-aggregation.ts';
import { recombineSeriesMetadata } from './series-facts-vote.ts';
import type { BookSeriesFacts } from '../../db/book-series-facts-repository.ts';
import type { Book } from '../../db/book-repository.ts';

/** Real ComicInfo.xml files are a few KB (a <Pages> list of 1,000 pages, ~120 KB). */
const MAX_COMICINFO_BYTES = 1024 * 1024;
/** ComicInfo.xml's name, lower-cased: archives are matched without regard to case. */
const COMICINFO = 'comicinfo.xml';

/**
 * Imports ComicInfo.xml (if the book has one at its root and the library asks for it) into the
 * book's and the series' metadata. Locked fields are left alone (REFERENCE §2.11).
 */
export async function importComicInfo(ctx: FolioContext, bookId: string, known?: AnalysedBook): Promise<boolean> {
  const book = known?.book ?? ctx.repos.books.findById(bookId);
  if (!book) return false;
  const library = ctx.repos.libraries.findById(book.libraryId);
  const wanted =
    library &&
    (library.importComicInfoBook ||
      library.importComicInfoSeries ||
      library.importComicInfoCollection ||
      library.importComicInfoReadList);
  if (!library || !wanted) return false;
  const entry = (known?.files ?? ctx.repos.media.findFiles(bookId)).find((f) => f.fileName.toLowerCase() === COMICINFO);
  if (!entry) {
    // The file no longer has a ComicInfo.xml: what it said about its series stops counting.
    if (library.importComicInfoSeries) {
      ctx.db.transaction(() => {
        if (ctx.repos.bookSeriesFacts.delete(bookId, 'COMICINFO')) recombineSeriesMetadata(ctx, book.seriesId, Date.now());
      })();
    }
    return false;
  }
  let patch: ComicInfoPatch | null;
  try {
    patch = await readBookComicInfo(ctx, book, entry.fileName);
  } catch (error) {
    if (error instanceof MalformedComicInfoError) {
      setComicInfoWarning(ctx, bookId, `${COMICINFO_SKIPPED} ${error.message}`);
      return false;
    }
    // A busy server says nothing about the file: the caller tries again rather than lose the import.
    if (isTransientFailure(error)) throw error;
    ctx.log(`cannot read ComicInfo.xml of ${book.url}`, error);
    return false;
  }
  setComicInfoWarning(ctx, bookId, null);
  if (!patch) return false;
  if (library.importComicInfoSeries) await recordSiblingFacts(ctx, book.seriesId, bookId, library.importComicInfoSeriesAppendVolume);
  const now = Date.now();
  ctx.db.transaction(() => {
    if (library.importComicInfoBook) applyBookPatch(ctx, bookId, patch.book, now);
    if (library.importComicInfoSeries) {
      // Kept per book and combined over the series' books: the last book imported no longer wins.
      ctx.repos.bookSeriesFacts.save(seriesFacts(bookId, patch.series, library.importComicInfoSeriesAppendVolume));
      recombineSeriesMetadata(ctx, book.seriesId, now);
    }
    refreshSeriesAggregation(ctx, book.seriesId, now);
    if (library.importComicInfoCollection) importCollections(ctx, book.seriesId, patch.collections ?? [], now);
    if (library.importComicInfoReadList) importReadLists(ctx, bookId, patch.readLists ?? [], now);
  })();
  return true;
}

async function readBookComicInfo(ctx: FolioContext, book: Book, entryName: string): Promise<ComicInfoPatch | null> {
  const archive = await bookArchive(ctx, book);
  // One byte past the limit tells a larger entry from one of exactly the limit.
  const bytes = await collectPrefix(await archive.openEntry(entryName), MAX_COMICINFO_BYTES + 1);
  if (bytes.length > MAX_COMICINFO_BYTES) {
    // Its prefix would only read as not well-formed, after a parse of a whole MiB for nothing.
    const reason = `larger than ${MAX_COMICINFO_BYTES} bytes, more than any real one`;
    throw new MalformedComicInfoError(reason, 0, `ComicInfo.xml is ${reason}`);
  }
  const patch = await readComicInfo(decodeXmlText(bytes), `ComicInfo.xml of ${book.url}`);
  return patch && boundedImport(ctx, patch, `ComicInfo.xml of ${book.url}`);
}

/**
 * Books imported before each ComicInfo.xml's series facts were kept (a database from an older
 * Folio) would not vote, and the first import after the upgrade would decide the series alone:
 * their ComicInfo.xml is read once here and their facts recorded.
 */
async function recordSiblingFacts(ctx: FolioContext, seriesId: string, importing: string, appendVolume: boolean): Promise<void> {
  for (const id of ctx.repos.bookSeriesFacts.findBookIdsWithFileWithoutFacts(seriesId, COMICINFO, 'COMICINFO')) {
    const sibling = id === importing ? undefined : ctx.repos.books.findById(id);
    const entry = sibling && ctx.repos.media.findFiles(id).find((f) => f.fileName.toLowerCase() === COMICINFO);
    if (!sibling || !entry) continue;
    try {
      const patch = await readBookComicInfo(ctx, sibling, entry.fileName);
      if (patch) ctx.repos.bookSeriesFacts.save(seriesFacts(id, patch.series, appendVolume));
    } catch (error) {
      if (isTransientFailure(error)) throw error;
      // A sibling whose ComicInfo.xml cannot be read simply does not vote; its own import reports why.
      ctx.log(`cannot read ComicInfo.xml of ${sibling.url} for its series' metadata`, error);
    }
  }
}

/**
 * The media comment's first words when ComicInfo.xml was skipped; the web client recognises them to
 * show the warning in the reader's language.
 */
export const COMICINFO_SKIPPED = 'ComicInfo.xml skipped:';

/** Puts (or clears) the skipped-ComicInfo warning in the book's media comment, beside any error code. */
function setComicInfoWarning(ctx: FolioContext, bookId: string, warning: string | null): void {
  const media = ctx.repos.media.findByBookId(bookId);
  if (!media) return;
  const kept = (media.comment ?? '').split(COMICINFO_SKIPPED)[0]!.trim();
  const comment = [kept, warning].filter(Boolean).join(' ') || null;
  if (comment !== media.comment) ctx.repos.media.update({ ...media, comment });
}

function applyBookPatch(ctx: FolioContext, bookId: string, p: ComicInfoPatch['book'], now: number): void {
  const meta = ctx.repos.bookMetadata.findByBookId(bookId);
  if (!meta) return;
  const next = { ...meta };
  if (p.title !== undefined && !meta.titleLock) next.title = p.title;
  if (p.summary !== undefined && !meta.summaryLock) next.summary = p.summary;
  if (p.number !== undefined && !meta.numberLock) next.number = p.number;
  if (p.numberSort !== undefined && !meta.numberSortLock) next.numberSort = p.numberSort;
  if (p.releaseDate !== undefined && !meta.releaseDateLock) next.releaseDate = p.releaseDate;
  if (p.authors !== undefined && !meta.authorsLock) next.authors = p.authors;
  if (p.tags !== undefined && !meta.tagsLock) next.tags = p.tags;
  if (p.isbn !== undefined && !meta.isbnLock) next.isbn = p.isbn;
  if (p.links !== undefined && !meta.linksLock) next.links = p.links;
  if (JSON.stringify(next) !== JSON.stringify(meta)) ctx.repos.bookMetadata.update({ ...next, lastModified: now });
}

/** What one ComicInfo.xml says about its series; the title carries the volume when the library asks. */
function seriesFacts(bookId: string, p: ComicInfoPatch['series'], appendVolume: boolean): BookSeriesFacts {
  const title = p.title !== undefined && appendVolume && p.volume !== undefined && p.volume > 1 ? `${p.title} (${p.volume})` : p.title;
  return {
    bookId,
    source: 'COMICINFO',
    seriesTitle: title ?? null,
    publisher: p.publisher ?? null,
    language: p.language ?? null,
    readingDirection: p.readingDirection ?? null,
    genres: p.genres ?? [],
    ageRating: p.ageRating ?? null,
    totalBookCount: p.totalBookCount ?? null,
  };
}

/** SeriesGroup → collections (created on first sight, matched by name without regard to case). */
function importCollections(ctx: FolioContext, seriesId: string, names: string[], now: number): void {
  for (const name of names) {
    let collection = ctx.repos.collections.findByName(name);
    if (!collection) {
      collection = { id: newId(now), name, ordered: false, seriesIds: [seriesId], created: now, lastModified: now };
      ctx.repos.collections.save(collection);
      ctx.events.emit({ name: 'CollectionAdded', data: { collectionId: collection.id, seriesIds: collection.seriesIds } });
    } else if (ctx.repos.collections.addSeries(collection.id, seriesId)) {
      ctx.events.emit({ name: 'CollectionChanged', data: { collectionId: collection.id, seriesIds: [...collection.seriesIds, seriesId] } });
    }
  }
}

/** StoryArc / AlternateSeries → ordered read lists, the book placed at its arc number. */
function importReadLists(ctx: FolioContext, bookId: string, entries: { name: string; number?: number }[], now: number): void {
  for (const entry of entries) {
    let list = ctx.repos.readLists.findByName(entry.name);
    if (!list) {
      list = { id: newId(now), name: entry.name, summary: '', ordered: true, bookIds: [], created: now, lastModified: now };
      ctx.repos.readLists.save(list);
      ctx.repos.readLists.placeBook(list.id, bookId, entry.number);
      ctx.events.emit({ name: 'ReadListAdded', data: { readListId: list.id, bookIds: [bookId] } });
    } else {
      ctx.repos.readLists.placeBook(list.id, bookId, entry.number);
      ctx.events.emit({ name: 'ReadListChanged', data: { readListId: list.id, bookIds: ctx.repos.readLists.findById(list.id)?.bookIds ?? [] } });
    }
  }
}

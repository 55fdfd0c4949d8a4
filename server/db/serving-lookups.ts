import type { Book, BookRepository } from './book-repository.ts';
import type { Db } from './database.ts';
import type { Media, MediaPage, MediaRepository } from './media-repository.ts';
import type { BookThumbnail, ThumbnailRepository } from './thumbnail-repository.ts';
import { LruMap } from '../lru-map.ts';
import { BOOK_COLUMNS, contentRestriction } from './search/content-restriction.ts';
import type { User } from './user-repository.ts';
import { type WriteGeneration, writeGeneration } from './write-generation.ts';

/** Entries per cache: a few thousand books (or pages) being read at once; each entry is a few hundred bytes. */
const MAX_ENTRIES = 4096;

/**
 * The rows every page and poster request reads (book, media, page, selected poster), remembered
 * under the database's write generation: each lookup runs one SQLite statement, whose read lock
 * and row decoding cost 10-30 µs, a tenth of a poster's time. Any write that may change such a row
 * (write-generation.ts) makes every remembered one be read again, so a deleted or moved book, a
 * new analysis or another poster is seen by the very next request. Values are frozen: callers
 * share them. Access checks are not cached here; they run on every request against these rows.
 */
export class ServingLookups {
  private readonly generation: WriteGeneration | undefined;
  private readonly books: BookRepository;
  private readonly media: MediaRepository;
  private readonly thumbnails: ThumbnailRepository;
  private readonly bookRows = new LruMap<string, Remembered<{ book: Book; media: Media | undefined } | undefined>>(MAX_ENTRIES);
  private readonly pages = new LruMap<string, Remembered<MediaPage | undefined>>(MAX_ENTRIES);
  private readonly posters = new LruMap<string, Remembered<BookPoster | undefined>>(MAX_ENTRIES);
  private readonly visibility = new LruMap<string, Remembered<boolean>>(MAX_ENTRIES);

  constructor(db: Db, books: BookRepository, media: MediaRepository, thumbnails: ThumbnailRepository) {
    this.generation = writeGeneration(db);
    this.books = books;
    this.media = media;
    this.thumbnails = thumbnails;
  }

  /** A book with its media row (undefined before analysis); undefined for an unknown book. */
  bookWithMedia(bookId: string): { book: Book; media: Media | undefined } | undefined {
    return this.remembered(this.bookRows, bookId, () => {
      const book = this.books.findById(bookId);
      return book && { book: Object.freeze(book), media: frozen(this.media.findByBookId(bookId)) };
    });
  }

  /** One page of a book (1-based), as `MediaRepository.findPage`. */
  page(bookId: string, number: number): MediaPage | undefined {
    return this.remembered(this.pages, `${number}\u0000${bookId}`, () => frozen(this.media.findPage(bookId, number)));
  }

  /** As `ThumbnailRepository.findBookPoster`. */
  bookPoster(bookId: string): BookPoster | undefined {
    return this.remembered(this.posters, bookId, () => {
      const found = this.thumbnails.findBookPoster(bookId);
      return found && Object.freeze({ libraryId: found.libraryId, poster: frozen(found.poster) });
    });
  }

  /**
   * As `BookRepository.isVisible` for a restricted viewer (the content guard asks it on every
   * request of one): remembered per book and per restriction, its SQL and its values (libraries,
   * age, labels) being the key, so a user whose restrictions change is asked about afresh, and a
   * write to a book or to its series' age rating or labels (series_metadata) forgets every answer.
   */
  bookVisible(bookId: string, viewer: User): boolean {
    const restriction = contentRestriction(viewer, BOOK_COLUMNS, 'item');
    const key = restriction ? `${bookId}\u0000${restriction.sql}\u0000${JSON.stringify(restriction.params)}` : bookId;
    return this.remembered(this.visibility, key, () => this.books.isVisible(bookId, viewer));
  }

  private remembered<V>(cache: LruMap<string, Remembered<V>>, key: string, read: () => V): V {
    const generation = this.generation?.value;
    if (generation === undefined) return read();
    const hit = cache.get(key);
    if (hit !== undefined && hit.generation === generation) return hit.value;
    const value = read();
    cache.set(key, { generation, value });
    return value;
  }
}

export type BookPoster = { readonly libraryId: string; readonly poster: BookThumbnail | undefined };

interface Remembered<V> {
  generation: number;
  value: V;
}

function frozen<T extends object>(value: T | undefined): T | undefined {
  return value && Object.freeze(value);
}

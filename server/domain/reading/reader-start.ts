import type { Repositories } from '../../db/repositories.ts';
import type { Book } from '../../db/book-repository.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import type { User } from '../../db/user-repository.ts';
import { mediaProfileOf } from '../../media/readers.ts';
import { canSeeBook } from '../content-restrictions.ts';

/**
 * Image types every current browser decodes (the web client's list, src/engine/mediaTypes.ts): pages
 * of other types are read converted, under another address.
 */
const BROWSER_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

export interface ReaderStart {
  book: Book;
  page: MediaPage;
}

/**
 * The page the web reader will open `bookId` at for `user`, when that page is an image the browser
 * shows as stored: `requested` (the address's ?page=) when it is a page of the book, else the page
 * of a book in progress, else page 1 — the client's rule (REFERENCE §5.2). Undefined whenever the
 * reader would not fetch such a page first: a book the user may not read pages of (role, shared
 * libraries, age rating, labels), not READY, a text EPUB (read in the EPUB reader), a page to convert.
 */
export function readerStart(repos: Repositories, user: User, bookId: string, requested: number | null): ReaderStart | undefined {
  if (!user.roles.includes('PAGE_STREAMING')) return undefined;
  const book = repos.books.findById(bookId);
  if (!book) return undefined;
  if (!(user.sharedAllLibraries || user.sharedLibraryIds.includes(book.libraryId))) return undefined;
  if (!canSeeBook(repos, user, book.id)) return undefined;
  const media = repos.media.findByBookId(book.id);
  if (!media || media.status !== 'READY' || media.pageCount < 1) return undefined;
  if (mediaProfileOf(media.mediaType) === 'EPUB' && !media.epubDivinaCompatible) return undefined;
  const number = startPageNumber(repos, user, book.id, media.pageCount, requested);
  const page = repos.media.findPage(book.id, number);
  if (!page || !BROWSER_IMAGE_TYPES.has(page.mediaType.toLowerCase())) return undefined;
  return { book, page };
}

function startPageNumber(repos: Repositories, user: User, bookId: string, pageCount: number, requested: number | null): number {
  if (requested !== null && Number.isInteger(requested) && requested >= 1 && requested <= pageCount) return requested;
  const progress = repos.readProgress.find(bookId, user.id);
  if (progress && !progress.completed && progress.page >= 1 && progress.page <= pageCount) return progress.page;
  return 1;
}

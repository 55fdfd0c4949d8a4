import { Readable } from 'node:stream';
import type { Book } from '../../db/book-repository.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import type { PooledBook, WholeEntry } from '../../media/archive-pool.ts';
import type { MediaWork } from '../../media/work-callers.ts';
import type { FolioContext } from '../context.ts';
import { bookArchive } from '../book-archive.ts';
import { readAhead } from './entry-body.ts';
import { type PageRenderOptions, renderedPage } from './rendered-pages.ts';

/** How to draw a page (PDF), and whom its reading is for (worker pools share by caller). */
export type PageReadOptions = PageRenderOptions & MediaWork;

export interface PageContent {
  page: MediaPage;
  stream: Readable;
  /** Exactly what `stream` yields when that is known (see EntryBody); never just the size analysis recorded. */
  length: number | null;
}

/**
 * Opens the stored bytes of one page (1-based) straight from the book's archive entry. The entry
 * name recorded at analysis is only looked up inside the archive, never used as a path.
 * Formats that draw their pages (PDF) get them drawn per `options`, cached on disk; `page` then
 * describes the drawn image. Undefined when the page does not exist. Callers that already hold the
 * book (the page routes looked it up for the access check) pass it, saving a second lookup per page.
 */
export async function openBookPage(
  ctx: FolioContext,
  bookOrId: Book | string,
  number: number,
  options: PageReadOptions = {},
): Promise<PageContent | undefined> {
  const bookId = typeof bookOrId === 'string' ? bookOrId : bookOrId.id;
  const book = typeof bookOrId === 'string' ? ctx.repos.books.findById(bookOrId) : bookOrId;
  const page = ctx.repos.media.findPage(bookId, number);
  if (!book || !page) return undefined;
  return openFrom(ctx, book, page, await bookArchive(ctx, book, options), options);
}

async function openFrom(ctx: FolioContext, book: Book, page: MediaPage, archive: PooledBook, options: PageRenderOptions): Promise<PageContent> {
  const render = archive.renderPage?.bind(archive);
  if (render) return renderedPage(ctx, book, page, (request) => render(page.fileName, request), options);
  if (archive.isInMemory(page.fileName) && page.fileSize !== null) {
    // Its bytes are in memory anyway: counted against the pool's budget until the stream is done.
    const whole = await archive.readWholeEntry(page.fileName, page.fileSize);
    if (whole) {
      const stream = Readable.from([whole.bytes], { objectMode: false });
      stream.once('close', whole.release);
      return { page, stream, length: whole.bytes.length };
    }
  }
  const body = await readAhead(await archive.openEntry(page.fileName), `page ${page.number} (${page.fileName}) of ${book.url}`);
  return { page, ...body };
}

/** A page to send: its bytes in memory when they could be read whole, else its stream. */
export type ServedPage = PageContent | { page: MediaPage; whole: WholeEntry };

/**
 * One page as the page route sends it unchanged: a stored image whose size is known is read whole,
 * in one positional read into a buffer of its size (no stream stages per chunk), as long as the
 * archive pool's budget of bytes held allows; otherwise, and for drawn pages, as `openBookPage`.
 * The caller releases `whole` once the response is done.
 */
export async function servedPage(ctx: FolioContext, book: Book, number: number, options: PageReadOptions = {}): Promise<ServedPage | undefined> {
  const page = ctx.repos.served.page(book.id, number);
  if (!page) return undefined;
  const archive = await bookArchive(ctx, book, options);
  if (!archive.renderPage && page.fileSize !== null) {
    const whole = await archive.readWholeEntry(page.fileName, page.fileSize);
    if (whole) return { page, whole };
  }
  return openFrom(ctx, book, page, archive, options);
}

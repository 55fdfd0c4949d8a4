import { Readable } from 'node:stream';
import type { Book } from '../../db/book-repository.ts';
import { MediaError } from '../../media/book-reader.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import type { PooledBook, WholeEntry } from '../../media/archive-pool.ts';
import type { FolioContext } from '../context.ts';
import { bookArchive } from '../book-archive.ts';
import { type PageRenderOptions, renderedPage } from './rendered-pages.ts';

export interface PageContent {
  page: MediaPage;
  stream: Readable;
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
  options: PageRenderOptions = {},
): Promise<PageContent | undefined> {
  const bookId = typeof bookOrId === 'string' ? bookOrId : bookOrId.id;
  const book = typeof bookOrId === 'string' ? ctx.repos.books.findById(bookOrId) : bookOrId;
  const page = ctx.repos.media.findPage(bookId, number);
  if (!book || !page) return undefined;
  return openFrom(ctx, book, page, await bookArchive(ctx, book), options);
}

async function openFrom(ctx: FolioContext, book: Book, page: MediaPage, archive: PooledBook, options: PageRenderOptions): Promise<PageContent> {
  const render = archive.renderPage?.bind(archive);
  if (render) return renderedPage(ctx, book, page, (request) => render(page.fileName, request), options);
  return { page, stream: await primed(await archive.openEntry(page.fileName)) };
}

/** A page to send: its bytes in memory when they could be read whole, else its stream. */
export type ServedPage = PageContent | { page: MediaPage; whole: WholeEntry };

/**
 * One page as the page route sends it unchanged: a stored image whose size is known is read whole,
 * in one positional read into a buffer of its size (no stream stages per chunk), as long as the
 * archive pool's budget of bytes held allows; otherwise, and for drawn pages, as `openBookPage`.
 * The caller releases `whole` once the response is done.
 */
export async function servedPage(ctx: FolioContext, book: Book, number: number, options: PageRenderOptions = {}): Promise<ServedPage | undefined> {
  const page = ctx.repos.media.findPage(book.id, number);
  if (!page) return undefined;
  const archive = await bookArchive(ctx, book);
  if (!archive.renderPage && page.fileSize !== null) {
    const whole = await archive.readWholeEntry(page.fileName, page.fileSize);
    if (whole) return { page, whole };
  }
  return openFrom(ctx, book, page, archive, options);
}

/**
 * The entry's stream once its first bytes have been read, so that a damaged entry fails here,
 * while the route can still answer with an error, instead of after a 200 went out. Destroying the
 * returned stream destroys the entry's stream (and so releases the archive handle).
 */
async function primed(stream: Readable): Promise<Readable> {
  const chunks = stream[Symbol.asyncIterator]();
  let first: IteratorResult<Buffer>;
  try {
    first = await chunks.next();
  } catch (error) {
    stream.destroy();
    throw error instanceof MediaError ? error : new MediaError('ERR_1007', `page entry cannot be read: ${String(error)}`, { cause: error });
  }
  async function* rest(): AsyncGenerator<Buffer> {
    if (first.done) return;
    yield first.value;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  const output = Readable.from(rest(), { objectMode: false });
  output.once('close', () => stream.destroy());
  return output;
}

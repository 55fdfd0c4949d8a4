import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Book } from '../../db/book-repository.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import type { PageRenderRequest } from '../../media/book-reader.ts';
import type { FolioContext } from '../context.ts';
import { isMissingFile, rethrowUnless } from '../../fs-errors.ts';
import { keepInCache } from './cache-files.ts';
import { fileSlots } from '../../media/file-slots.ts';

function mediaTypeOf(request: PageRenderRequest): string {
  return request.format === 'png' ? 'image/png' : 'image/jpeg';
}

/** What a caller may ask of a drawn page (PDF): output format and a size to fit. */
export interface PageRenderOptions {
  format?: 'jpeg' | 'png';
  maxWidth?: number;
  maxHeight?: number;
}

const inFlight = new Map<string, Promise<{ bytes: Buffer; cached: boolean }>>();

/**
 * A drawn page (PDF), cached on disk under <data dir>/cache/rendered-pages/<book>/<file version>/
 * keyed by page, size hint and format: drawing is the expensive part, reading a file back is not.
 * A changed book file gets a new version folder and older ones of that book are dropped.
 */
export async function renderedPage(
  ctx: FolioContext,
  book: Book,
  page: MediaPage,
  render: (request: PageRenderRequest) => Promise<Buffer>,
  options: PageRenderOptions,
): Promise<{ page: MediaPage; stream: Readable; length: number }> {
  const request: PageRenderRequest = { format: options.format ?? 'jpeg', maxWidth: options.maxWidth, maxHeight: options.maxHeight };
  const version = createHash('sha1').update(`${book.fileSize}:${book.fileLastModified}:${book.url}`).digest('hex').slice(0, 16);
  const bookDir = join(ctx.dataDir, 'cache', 'rendered-pages', book.id);
  const dir = join(bookDir, version);
  const ext = request.format === 'png' ? 'png' : 'jpg';
  const file = join(dir, `${page.number}-w${request.maxWidth ?? ''}-h${request.maxHeight ?? ''}.${ext}`);
  const hinted = request.maxWidth !== undefined || request.maxHeight !== undefined;
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    rethrowUnless(error, isMissingFile); // not drawn yet
    let pending = inFlight.get(file);
    if (!pending) {
      pending = (async () => {
        const bytes = await render(request);
        if (hinted && (await hintedFileCount(dir)) >= MAX_HINTED_FILES) return { bytes, cached: false };
        return { bytes, cached: await keepInCache(ctx, bookDir, version, file, bytes) };
      })().finally(() => inFlight.delete(file));
      inFlight.set(file, pending);
    }
    const drawn = await pending;
    // Not kept on disk: sent from memory.
    if (!drawn.cached) return { page: { ...page, mediaType: mediaTypeOf(request), fileSize: drawn.bytes.length }, stream: Readable.from([drawn.bytes]), length: drawn.bytes.length };
    size = drawn.bytes.length;
  }
  // Our own file, only ever replaced whole (written then renamed): its size is its length.
  return { page: { ...page, mediaType: mediaTypeOf(request), fileSize: size }, stream: await fileSlots.openReadStream(file), length: size };
}

/**
 * Drawings at a size hint kept per book file: a reader's few screen sizes for every page fit,
 * while a client asking width after width (or many clients with as many windows) cannot fill the
 * disk; past it, hinted pages are drawn and served without being kept. Pages without a hint
 * (one per page and format) are always kept.
 */
export const MAX_HINTED_FILES = 512;

async function hintedFileCount(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    rethrowUnless(error, isMissingFile); // nothing drawn for this version yet
    return 0;
  }
  return names.filter((name) => !/-w-h\.(jpg|png)$/.test(name) && !name.endsWith('.partial')).length;
}

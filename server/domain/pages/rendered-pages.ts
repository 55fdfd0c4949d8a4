import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Book } from '../../db/book-repository.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import type { PageRenderRequest } from '../../media/book-reader.ts';
import type { FolioContext } from '../context.ts';
import { isMissingFile, rethrowUnless } from '../../fs-errors.ts';
import { fileSlots } from '../../media/file-slots.ts';

/** What a caller may ask of a drawn page (PDF): output format and a size to fit. */
export interface PageRenderOptions {
  format?: 'jpeg' | 'png';
  maxWidth?: number;
  maxHeight?: number;
}

const inFlight = new Map<string, Promise<number>>();

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
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    rethrowUnless(error, isMissingFile); // not drawn yet
    let pending = inFlight.get(file);
    if (!pending) {
      pending = (async () => {
        const bytes = await render(request);
        await dropOtherVersions(bookDir, version);
        await mkdir(dir, { recursive: true });
        // Write then rename, so a concurrent reader never sees half a file.
        const partial = `${file}.${process.pid}.partial`;
        await fileSlots.withSlot(() => writeFile(partial, bytes));
        await rename(partial, file);
        return bytes.length;
      })().finally(() => inFlight.delete(file));
      inFlight.set(file, pending);
    }
    size = await pending;
  }
  const mediaType = request.format === 'png' ? 'image/png' : 'image/jpeg';
  // Our own file, only ever replaced whole (written then renamed): its size is its length.
  return { page: { ...page, mediaType, fileSize: size }, stream: await fileSlots.openReadStream(file), length: size };
}

/** Removes every version folder of a book's cache but `keep`. */
export async function dropOtherVersions(bookDir: string, keep: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(bookDir);
  } catch (error) {
    rethrowUnless(error, isMissingFile); // nothing cached yet
    return;
  }
  await Promise.all(names.filter((n) => n !== keep).map((n) => rm(join(bookDir, n), { recursive: true, force: true })));
}

import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { detectReader } from '../../media/analyse-container.ts';
import { copyBookToZip } from '../../media/archive-rewrite.ts';
import type { OpenedBook } from '../../media/book-reader.ts';
import { zipReader } from '../../media/zip-reader.ts';
import { syncFile, syncFolder } from './durable-writes.ts';
import type { FolioContext } from '../context.ts';
import { renameWithoutReplacing } from './extension-repair.ts';
import { entryInsideLibrary } from '../library/library-paths.ts';
import { hashStream } from '../hashing/stream-hash.ts';

/** Archive formats whose entries can be copied into a CBZ as they are (RAR 4 and RAR 5). */
export const CONVERTIBLE_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/x-rar-compressed; version=4',
  'application/x-rar-compressed; version=5',
]);

/** True when `copy` holds exactly the file entries of `original`: same names, sizes and bytes. */
async function sameEntries(original: OpenedBook, copy: OpenedBook): Promise<boolean> {
  const files = (book: OpenedBook) => book.entries().filter((e) => !e.isDirectory);
  const copied = new Map(files(copy).map((e) => [e.name, e]));
  if (copied.size !== files(original).length) return false;
  for (const entry of files(original)) {
    const other = copied.get(entry.name);
    if (!other || other.uncompressedSize !== entry.uncompressedSize) return false;
    const [a, b] = await Promise.all([hashStream(await original.openEntry(entry.name)), hashStream(await copy.openEntry(entry.name))]);
    if (a !== b) return false;
  }
  return true;
}

/**
 * Library option convertToCbz: after analysis a RAR book is rewritten as a CBZ beside itself
 * (hidden temporary file, fsynced, checked entry by entry against the original), moved to
 * `<name>.cbz` without replacing anything there, and only then is the original removed. The book
 * row keeps its id (metadata, read progress, posters stay), a BookConverted history event records
 * the former file, and the book is analysed again as a zip. Returns true when converted.
 */
export async function convertBookToCbz(ctx: FolioContext, bookId: string): Promise<boolean> {
  const book = ctx.repos.books.findById(bookId);
  const library = book && ctx.repos.libraries.findById(book.libraryId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || !library?.convertToCbz || book.deletedDate !== null) return false;
  if (media?.status !== 'READY' || !CONVERTIBLE_MEDIA_TYPES.has(media.mediaType ?? '')) return false;

  let path: string;
  try {
    path = await entryInsideLibrary(library.root, book.url);
  } catch (error) {
    ctx.log(`cannot convert ${book.url}`, error);
    return false;
  }
  const target = join(dirname(path), `${basename(path, extname(path))}.cbz`);
  const temp = join(dirname(path), `.${basename(target)}.${randomBytes(6).toString('hex')}.folio-tmp`);
  let source: OpenedBook | undefined;
  let copy: OpenedBook | undefined;
  try {
    const before = await stat(path);
    // The file changed since analysis: the next scan re-analyses it, conversion waits for that.
    if (before.size !== book.fileSize || Math.floor(before.mtimeMs) !== book.fileLastModified) return false;
    source = await (await detectReader(path)).open(path);
    await copyBookToZip(source, temp, before.mode & 0o777);
    await syncFile(temp);
    copy = await zipReader.open(temp);
    if (!(await sameEntries(source, copy))) throw new Error('the CBZ copy does not match the original');
    copy.close();
    copy = undefined;
    // A RAR wrongly named .cbz is replaced in place; otherwise never overwrite a neighbour.
    if (target === path) await rename(temp, target);
    else await renameWithoutReplacing(temp, target);
    await syncFolder(dirname(path));
  } catch (error) {
    await rm(temp, { force: true });
    ctx.log(`cannot convert ${book.url} to CBZ`, error);
    return false;
  } finally {
    copy?.close();
    source?.close();
  }

  const info = await stat(target);
  const now = Date.now();
  const url = join(dirname(book.url), basename(target));
  ctx.archives.forget(book.url);
  try {
    ctx.db.transaction(() => {
      const current = ctx.repos.books.findById(bookId) ?? book;
      ctx.repos.books.update({ ...current, url, fileSize: info.size, fileLastModified: Math.floor(info.mtimeMs), fileHash: '', lastModified: now });
      const currentMedia = ctx.repos.media.findByBookId(bookId);
      if (currentMedia) ctx.repos.media.update({ ...currentMedia, status: 'OUTDATED', lastModified: now });
      ctx.repos.history.insert({
        type: 'BookConverted',
        bookId,
        seriesId: book.seriesId,
        timestamp: now,
        properties: { name: url, 'former file': book.url },
      });
    })();
  } catch (error) {
    // A scan running meanwhile registered the new file as a book of its own: give up the
    // conversion and keep the original (that book goes away with the file at the next scan).
    // A RAR converted in place has no original left, so its new file stays.
    if (target !== path) await rm(target, { force: true });
    ctx.log(`cannot record the conversion of ${book.url}`, error);
    return false;
  }
  if (target !== path) await rm(path, { force: true });
  ctx.events.emit({ name: 'BookChanged', data: { bookId, seriesId: book.seriesId, libraryId: book.libraryId } });
  ctx.tasks.request('AnalyzeBook', { bookId });
  return true;
}

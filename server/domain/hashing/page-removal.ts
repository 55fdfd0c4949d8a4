import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { openZipForRewrite } from '../../media/archive-rewrite.ts';
import { syncFile, syncFolder } from '../book-files/durable-writes.ts';
import type { FolioContext } from '../context.ts';
import type { TaskFailureReason } from '../events.ts';
import { putOffReason } from '../tasks/put-off.ts';
import { entryInsideLibrary } from '../library/library-paths.ts';
import { hashStream } from './stream-hash.ts';

export interface PageToRemove {
  fileName: string;
  hash: string;
}

/** Pages can only be removed from CBZ/ZIP books: other formats cannot be rewritten faithfully. */
export const canRemovePages = (mediaType: string | null | undefined) => mediaType === 'application/zip';

/**
 * Queues the removal of pages from a book (kept across restarts). The key names the pages: two
 * requests for different pages of a book are both kept (removal itself is serialised per book).
 */
export function submitPageRemoval(ctx: FolioContext, bookId: string, pages: { number: number; fileName: string; hash: string }[]): void {
  if (!canRemovePages(ctx.repos.media.findByBookId(bookId)?.mediaType)) return;
  const key = `RemoveHashedPages:${bookId}:${pages.map((p) => `${p.fileName}@${p.hash}`).join(',')}`;
  ctx.tasks.submit('RemoveHashedPages', key, () => removeOrSayWhyNot(ctx, bookId, pages), 1, { bookId, pages });
}

/**
 * The task: removes the pages, or tells the administrators' screens why it did not (TaskFailed),
 * since nothing else would: no book changed, so no event comes, and "Delete matches" waited for
 * ever. A failure the queue puts off (a lock, a shortage) is not the end: it runs again.
 */
async function removeOrSayWhyNot(ctx: FolioContext, bookId: string, pages: PageToRemove[]): Promise<void> {
  let outcome: RemovalOutcome;
  try {
    outcome = await removePagesFromBook(ctx, bookId, pages);
  } catch (error) {
    if (putOffReason(error) === undefined) reportNotRemoved(ctx, bookId, pages, 'failed');
    throw error;
  }
  if (outcome !== 'removed') reportNotRemoved(ctx, bookId, pages, outcome);
}

function reportNotRemoved(ctx: FolioContext, bookId: string, pages: PageToRemove[], reason: TaskFailureReason): void {
  const pageHashes = [...new Set(pages.map((p) => p.hash))];
  ctx.events.emit({ name: 'TaskFailed', data: { taskType: 'RemoveHashedPages', bookId, pageHashes, reason }, adminOnly: true });
}

/** What a removal did: removed pages, or why it removed none. */
export type RemovalOutcome = 'removed' | TaskFailureReason;

/** One rewrite of a given book at a time, whatever task asked for it. */
const running = new Map<string, Promise<unknown>>();

/**
 * Removes pages (identified by entry name and content hash) from a CBZ book. The archive is
 * rewritten safely: a new file is written next to the original (hidden, so a concurrent scan skips
 * it), fsynced, then renamed over the original, so a crash leaves either the old or the new book,
 * never half of one. Nothing is removed when the file changed since analysis, when an entry's
 * bytes do not hash to the expected value, or when no page would be left. Each removed page is
 * recorded as a DuplicatePageDeleted event; the book is then re-analysed.
 */
export function removePagesFromBook(ctx: FolioContext, bookId: string, pages: PageToRemove[]): Promise<RemovalOutcome> {
  const previous = running.get(bookId) ?? Promise.resolve();
  const next = previous.then(() => removeNow(ctx, bookId, pages));
  const settled = next.catch(() => undefined);
  running.set(bookId, settled);
  void settled.then(() => {
    if (running.get(bookId) === settled) running.delete(bookId);
  });
  return next;
}

async function removeNow(ctx: FolioContext, bookId: string, pages: PageToRemove[]): Promise<RemovalOutcome> {
  const book = ctx.repos.books.findById(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  const library = book && ctx.repos.libraries.findById(book.libraryId);
  // Gone, in the trash or no longer a zip since the removal was asked for: changed since analysis.
  if (!book || !library || book.deletedDate !== null || !canRemovePages(media?.mediaType)) return 'book-changed';
  const path = await entryInsideLibrary(library.root, book.url);
  const before = await stat(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  });
  if (!before || before.size !== book.fileSize || Math.floor(before.mtimeMs) !== book.fileLastModified) return 'book-changed';

  const wanted = new Map(pages.map((p) => [p.fileName, p.hash]));
  const zip = await openZipForRewrite(path);
  const removed: { name: string; hash: string }[] = [];
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.folio-tmp`);
  try {
    for (const entry of zip.entries) {
      const expected = wanted.get(entry.name);
      if (expected && (await hashStream(await zip.openEntry(entry))) === expected) removed.push({ name: entry.name, hash: expected });
    }
    // No entry of that name still holds those bytes: the file is not the one analysed.
    if (removed.length === 0) return 'book-changed';
    if (removed.length >= media.pageCount) return 'last-pages';
    await zip.writeWithout(new Set(removed.map((r) => r.name)), temp, before.mode & 0o777);
    await syncFile(temp);
    await rename(temp, path);
    await syncFolder(dirname(path));
  } catch (error) {
    await rm(temp, { force: true });
    // A lock or a shortage is put off and run again; anything else is this book's failure.
    if (putOffReason(error) !== undefined) throw error;
    ctx.log(`cannot remove pages from ${path}`, error);
    return 'failed';
  } finally {
    zip.close();
  }

  const now = Date.now();
  const after = await stat(path);
  ctx.archives.forget(path);
  const current = ctx.repos.books.findById(bookId) ?? book;
  ctx.repos.books.update({
    ...current,
    fileSize: after.size,
    fileLastModified: Math.floor(after.mtimeMs),
    fileHash: '',
    lastModified: now,
  });
  const currentMedia = ctx.repos.media.findByBookId(bookId);
  if (currentMedia) ctx.repos.media.update({ ...currentMedia, status: 'OUTDATED', lastModified: now });

  const history = ctx.repos.history;
  const hashes = ctx.repos.pageHashes;
  const byName = new Map(ctx.repos.media.findPages(bookId).map((p) => [p.fileName, p]));
  for (const { name, hash } of removed) {
    const page = byName.get(name);
    history.insert({
      type: 'DuplicatePageDeleted',
      bookId,
      seriesId: book.seriesId,
      timestamp: now,
      properties: {
        name: book.url,
        'page file name': name,
        'page file hash': hash,
        ...(page ? { 'page number': String(page.number), 'page media type': page.mediaType } : {}),
        ...(page?.fileSize != null ? { 'page file size': String(page.fileSize) } : {}),
      },
    });
    hashes.addDeleted(hash, 1, now);
  }
  ctx.events.emit({ name: 'BookChanged', data: { bookId, seriesId: book.seriesId, libraryId: book.libraryId } });
  ctx.tasks.request('AnalyzeBook', { bookId });
  return 'removed';
}

import type { FolioContext } from '../context.ts';

export class ReadProgressError extends Error {}

/** A body field breaking its own rule (Komga's bean validation): answered as a violation naming the field. */
export class ReadProgressFieldError extends ReadProgressError {
  readonly fieldName: string;
  readonly rule: string;
  constructor(fieldName: string, rule: string) {
    super(`${fieldName} ${rule}`);
    this.fieldName = fieldName;
    this.rule = rule;
  }
}

/** What a ReadProgressUpdateDto asks for, once its body rules hold. */
export type ReadProgressRequest = { completed: true } | { completed: false; page: number };

/**
 * The body rules of a ReadProgressUpdateDto (REFERENCE §2.10), checked before the book is looked
 * up: Komga validates the body (`@Positive page`, and a page unless `completed` is true) before its
 * handler runs, so a bad body is a 400 even for a book that does not exist.
 */
export function readProgressRequest(update: { page?: number | null; completed?: boolean | null }): ReadProgressRequest {
  // `@Positive page` holds whatever `completed` says: {page: 0, completed: true} is refused too.
  if (typeof update.page === 'number' && (!Number.isInteger(update.page) || update.page < 1)) throw new ReadProgressFieldError('page', 'must be greater than 0');
  if (update.completed === true) return { completed: true };
  if (typeof update.page === 'number') return { completed: false, page: update.page };
  if (update.completed === false) throw new ReadProgressError('A page must be given when completed is false');
  throw new ReadProgressError('Either page or completed must be given');
}

/**
 * Applies a read progress request: `completed` marks the book read at its last page; otherwise
 * `page` (1..pagesCount) is stored and completion means "on the last page".
 */
export function updateReadProgress(ctx: FolioContext, userId: string, bookId: string, request: ReadProgressRequest): void {
  const book = ctx.repos.books.findById(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || !media) throw new ReadProgressError('Book not found');
  const pagesCount = media.pageCount;
  let page: number;
  let completed: boolean;
  if (request.completed) {
    page = Math.max(1, pagesCount);
    completed = true;
  } else {
    if (request.page > pagesCount) throw new ReadProgressError(`Page number must be between 1 and ${pagesCount}`);
    page = request.page;
    completed = page === pagesCount;
  }
  const now = Date.now();
  const existing = ctx.repos.readProgress.find(bookId, userId);
  ctx.repos.readProgress.upsert({
    bookId,
    userId,
    page,
    completed,
    readDate: now,
    deviceId: '',
    deviceName: '',
    created: existing?.created ?? now,
    lastModified: now,
  });
  ctx.events.emit({ name: 'ReadProgressChanged', data: { bookId, userId }, userId });
  ctx.events.emit({ name: 'ReadProgressSeriesChanged', data: { seriesId: book.seriesId, userId }, userId });
}

export function deleteReadProgress(ctx: FolioContext, userId: string, bookId: string): void {
  const book = ctx.repos.books.findById(bookId);
  if (!book) return;
  if (ctx.repos.readProgress.delete(bookId, userId)) {
    ctx.events.emit({ name: 'ReadProgressDeleted', data: { bookId, userId }, userId });
    ctx.events.emit({ name: 'ReadProgressSeriesChanged', data: { seriesId: book.seriesId, userId }, userId });
  }
}

/**
 * Marks every live, analysed book of a series read (POST /series/{id}/read-progress). The series
 * event is sent even when every book was already read, as Komga sends it.
 */
export function markSeriesRead(ctx: FolioContext, userId: string, seriesId: string): void {
  const announced = markBooksRead(ctx, userId, ctx.repos.books.findBySeries(seriesId).map((b) => b.id));
  if (!announced.has(seriesId)) {
    ctx.events.emit({ name: 'ReadProgressSeriesChanged', data: { seriesId, userId }, userId });
  }
}

/**
 * Marks books read at their last page (skipping deleted, unanalysed and already finished ones),
 * announcing each change and each series touched. Returns the series it announced.
 */
export function markBooksRead(ctx: FolioContext, userId: string, bookIds: string[]): Set<string> {
  const now = Date.now();
  const changed: { bookId: string; seriesId: string }[] = [];
  ctx.db.transaction(() => {
    for (const bookId of bookIds) {
      const book = ctx.repos.books.findById(bookId);
      if (!book || book.deletedDate !== null) continue;
      const media = ctx.repos.media.findByBookId(book.id);
      if (!media || media.pageCount < 1) continue;
      const existing = ctx.repos.readProgress.find(book.id, userId);
      if (existing?.completed) continue;
      ctx.repos.readProgress.upsert({
        bookId: book.id,
        userId,
        page: media.pageCount,
        completed: true,
        readDate: now,
        deviceId: '',
        deviceName: '',
        created: existing?.created ?? now,
        lastModified: now,
      });
      changed.push({ bookId: book.id, seriesId: book.seriesId });
    }
  })();
  for (const { bookId } of changed) ctx.events.emit({ name: 'ReadProgressChanged', data: { bookId, userId }, userId });
  const touched = new Set(changed.map((c) => c.seriesId));
  for (const seriesId of touched) {
    ctx.events.emit({ name: 'ReadProgressSeriesChanged', data: { seriesId, userId }, userId });
  }
  return touched;
}

/**
 * Forgets the user's progress on every book of a series (DELETE /series/{id}/read-progress). The
 * series event is sent even when there was nothing to forget, as Komga sends it.
 */
export function markSeriesUnread(ctx: FolioContext, userId: string, seriesId: string): void {
  const removed = ctx.db.transaction(() =>
    ctx.repos.books.findBySeries(seriesId).filter((book) => ctx.repos.readProgress.delete(book.id, userId)),
  )();
  for (const book of removed) ctx.events.emit({ name: 'ReadProgressDeleted', data: { bookId: book.id, userId }, userId });
  ctx.events.emit({ name: 'ReadProgressSeriesDeleted', data: { seriesId, userId }, userId });
}

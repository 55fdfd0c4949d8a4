import type { FolioContext } from '../context.ts';
import { submitBarcodeSearch, submitBookAnalysis, submitBookHash, submitEmptyTrash, submitLibraryScan, submitMetadataRefresh } from './library-tasks.ts';
import { submitPageHashing } from '../hashing/page-hashing.ts';
import { submitPageRemoval } from '../hashing/page-removal.ts';
import type { TaskPayload, TaskType } from './task-queue.ts';

const text = (p: TaskPayload, k: string) => (typeof p[k] === 'string' ? (p[k] as string) : undefined);

/**
 * The task registry: how each persistent task type is queued from its payload, after a restart
 * and whenever a worker asks for one through `ctx.tasks.request`. The submit helpers
 * re-check their own conditions (the book may be gone, the library may no longer hash), so a
 * restored task that no longer makes sense is simply not queued.
 */
const RESUBMIT: Partial<Record<TaskType, (ctx: FolioContext, payload: TaskPayload) => void>> = {
  ScanLibrary: (ctx, p) => {
    const id = text(p, 'libraryId');
    if (id) submitLibraryScan(ctx, id, p.deep === true);
  },
  AnalyzeBook: (ctx, p) => {
    const id = text(p, 'bookId');
    if (id) submitBookAnalysis(ctx, id);
  },
  HashBook: (ctx, p) => {
    const id = text(p, 'bookId');
    if (id) submitBookHash(ctx, id);
  },
  RefreshBookMetadata: (ctx, p) => {
    const id = text(p, 'bookId');
    if (id && p.barcodeOnly === true) submitBarcodeSearch(ctx, id);
    else if (id) submitMetadataRefresh(ctx, id);
  },
  EmptyTrash: (ctx, p) => {
    const id = text(p, 'libraryId');
    if (id) submitEmptyTrash(ctx, id);
  },
  HashBookPages: (ctx, p) => {
    const id = text(p, 'bookId');
    if (id) submitPageHashing(ctx, id);
  },
  RemoveHashedPages: (ctx, p) => {
    const id = text(p, 'bookId');
    const pages = Array.isArray(p.pages) ? (p.pages as { number: number; fileName: string; hash: string }[]) : [];
    if (id && pages.length > 0) submitPageRemoval(ctx, id, pages);
  },
};

/**
 * Makes the task queue persistent: tasks queued with a payload are kept in SQLite until they have
 * run, and the ones left by the previous run (stopped or crashed) are queued again now. Registers
 * the task types first, so workers can request them. Returns how many stored tasks were found.
 */
export function enableTaskPersistence(ctx: FolioContext): number {
  for (const [type, queue] of Object.entries(RESUBMIT)) ctx.tasks.define(type as TaskType, (payload) => queue(ctx, payload));
  const store = ctx.repos.storedTasks;
  const stored = store.all();
  // The helpers write fresh rows for what they queue; rows they decline must not linger.
  store.clear();
  ctx.tasks.persistTo(store);
  for (const task of stored) {
    try {
      RESUBMIT[task.type]?.(ctx, (task.payload ?? {}) as TaskPayload);
    } catch (error) {
      ctx.log(`cannot restore task ${task.key}`, error);
    }
  }
  return stored.length;
}

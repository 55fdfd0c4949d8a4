import { noteDatabaseFailure } from '../db/lock-refusal.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { openDatabase, openReadOnlyDatabase } from '../db/database.ts';
import { type Repositories, createRepositories } from '../db/repositories.ts';
import type { Logger } from '../logging.ts';
import { MediaError } from '../media/book-reader.ts';
import { ArchivePool, type ArchivePoolOptions, type Handle, openByContent } from '../media/archive-pool.ts';
import type { MediaWork } from '../media/work-callers.ts';
import type { FolioContext } from './context.ts';
import { EventBus } from './events.ts';
import { OutsideLibraryError, assertInsideItsLibrary, openInsideItsLibrary } from './library/library-paths.ts';
import { TaskQueue } from './tasks/task-queue.ts';
import { publishTaskQueueStatus } from './tasks/task-queue-status.ts';
import { PagesWithoutBars } from './metadata/pages-without-bars.ts';
import { NeedsPrimary } from './needs-primary.ts';

export interface ContextOptions {
  /** Folder of the database and generated files (absolute). */
  dataDir: string;
  logger: Logger;
  /** Background task workers (scan/analysis). Default 2. */
  taskWorkers?: number;
  /** Open-archive pool sizing (default: from the process's descriptor limit). */
  archivePool?: ArchivePoolOptions;
}

/**
 * The services every part of the server shares, built once per server: the database and its
 * repositories, the event bus, the task queue and the pool of open archives. Task-queue changes
 * are published as TaskQueueStatus events. `closeFolioContext` releases them.
 */
export function createFolioContext(options: ContextOptions): FolioContext {
  const { logger } = options;
  const unlock = lockDataDir(options.dataDir);
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(options.dataDir);
  } catch (error) {
    unlock();
    throw error;
  }
  const repos = createRepositories(db);
  const ctx: FolioContext = {
    db,
    dataDir: options.dataDir,
    repos,
    events: new EventBus((error, event) => logger.error({ err: error, event: event.name }, 'event subscriber failed')),
    // The server's own opener (openByContent) says what it opened; a test's is looked at by path.
    archives: new ArchivePool({ ...options.archivePool, open: containedOpen(repos, options.archivePool?.open), openGivesIdentity: !options.archivePool?.open }),
    pagesWithoutBars: new PagesWithoutBars(),
    // A task put off for another process's lock also makes the next writes refuse at once (lock-refusal.ts).
    tasks: new TaskQueue(options.taskWorkers ?? 2, (task, error) => {
      noteDatabaseFailure(db, error);
      logger.error({ err: error, task }, 'task failed');
    }),
    logger,
    log: (message, error) => logger.warn({ err: error }, message),
  };
  publishTaskQueueStatus(ctx.tasks, ctx.events);
  dataDirLocks.set(ctx, unlock);
  return ctx;
}

/**
 * Books a serving process reads itself: zip-based ones (CBZ, EPUB), whose entries are streamed on
 * its own thread. RAR, 7z and PDF run in worker threads with their own memory and time limits,
 * which stay one set for the whole server in the primary.
 */
const SERVED_BY_EVERY_PROCESS = new Set(['application/zip', 'application/epub+zip']);

/**
 * The services of a serving process (README "Serving processes"): the primary's database opened
 * read-only (no lock, no migration: the primary holds and upgraded it), an archive pool of its own
 * within the descriptor share it is given, no task workers and no events anybody listens to.
 */
export function createServingContext(options: ContextOptions): FolioContext {
  const { logger } = options;
  const db = openReadOnlyDatabase(options.dataDir);
  const repos = createRepositories(db);
  const roots = () => repos.libraries.findAll().map((l) => l.root);
  const open = async (path: string, work?: MediaWork): Promise<Handle> => {
    const handle = await openByContent(path, (file) => openInsideItsLibrary(roots(), file), work);
    if (SERVED_BY_EVERY_PROCESS.has(handle.reader.mediaType)) return handle;
    await handle.book.close();
    throw new NeedsPrimary(`a ${handle.reader.mediaType} book, read in the primary's worker threads`);
  };
  return {
    db,
    dataDir: options.dataDir,
    repos,
    events: new EventBus((error, event) => logger.error({ err: error, event: event.name }, 'event subscriber failed')),
    archives: new ArchivePool({ ...options.archivePool, open, openGivesIdentity: true }),
    pagesWithoutBars: new PagesWithoutBars(),
    tasks: refusingTaskQueue(),
    logger,
    log: (message, error) => logger.warn({ err: error }, message),
    servingOnly: true,
  };
}

/** A serving process runs no task: asking for one hands the request to the primary (which queues it). */
function refusingTaskQueue(): TaskQueue {
  const queue = new TaskQueue(1);
  queue.submit = (type) => {
    throw new NeedsPrimary(`queueing a ${type} task`);
  };
  queue.request = (type) => {
    throw new NeedsPrimary(`queueing a ${type} task`);
  };
  return queue;
}

/** Each context's hold on its data directory, let go once its database is closed. */
const dataDirLocks = new WeakMap<FolioContext, () => void>();

/**
 * Waits for running tasks (at most `taskGraceMs`), closes every open archive, then the database.
 * A task still running then (hashing a book of many gigabytes, a scan of a slow share) must not
 * keep a stopping server up until a process manager kills it: it is left unfinished and logged.
 * Closing the database is safe meanwhile: its writes are synchronous transactions, so none is
 * open while the task waits on a read. Stored tasks run again at the next start.
 */
export async function closeFolioContext(ctx: FolioContext, taskGraceMs?: number): Promise<void> {
  const unfinished = await ctx.tasks.close(taskGraceMs);
  if (unfinished.length > 0) {
    ctx.logger.warn({ tasks: unfinished.map((t) => t.key) }, 'stopped without waiting for running tasks: stored ones run again at the next start');
  }
  ctx.archives.closeAll();
  ctx.db.close();
  dataDirLocks.get(ctx)?.();
}

/**
 * Every book read goes through the archive pool: a file whose real path leaves its library (a
 * symlink to /etc/passwd named x.cbz) is refused as unreadable. The server's own opener opens the
 * file first and checks the descriptor it got (openInsideItsLibrary), so no link swapped in after a
 * check is followed; readers that take over that descriptor (zip-based books) read nothing else.
 * An opener given by a test is checked by path first, as before.
 */
function containedOpen(repos: Repositories, open?: (path: string, work?: MediaWork) => Promise<Handle>): (path: string, work?: MediaWork) => Promise<Handle> {
  const roots = () => repos.libraries.findAll().map((l) => l.root);
  if (!open) return (path, work) => openByContent(path, (file) => openInsideItsLibrary(roots(), file), work);
  return async (path, work) => {
    try {
      await assertInsideItsLibrary(roots(), path);
    } catch (error) {
      if (error instanceof OutsideLibraryError) throw new MediaError('ERR_1000', error.message, { cause: error });
      throw error;
    }
    return open(path, work);
  };
}

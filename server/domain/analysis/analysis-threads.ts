import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { MediaError } from '../../media/book-reader.ts';
import { bookExtension } from '../../media/readers.ts';
import type { ThreadAnalysis, ThreadFailure, ThreadOutcome, ThreadTask } from './analysis-thread-protocol.ts';

export type { ThreadAnalysis } from './analysis-thread-protocol.ts';

/** Extensions whose books are read in an analysis thread (their content decides in the end). */
const THREAD_EXTENSIONS = new Set(['cbz', 'zip', 'epub']);
/** An idle thread goes after this long, so an idle server holds none. */
const IDLE_THREAD_MS = 30_000;

/**
 * Threads that analyse zip-based books (their listing and every page's header) off the main
 * thread. On the main thread, each of the dozen small reads of an analysis costs a trip through
 * libuv's pool (~25 µs of main-thread time each here) and yauzl's parsing runs between requests;
 * in a thread of its own the reads are synchronous and the main thread is left the database work.
 * A 2,000-book scan's READY window spent ~1.2 s of its 4.2 s main-thread time in archive reading.
 *
 * Threads start on first use and stop when idle. Each analysis opens and closes its own
 * descriptor: the caller counts it against the archive pool (ArchivePool.withBorrowedCapacity).
 */
export class AnalysisThreads {
  private pool: Piscina | undefined;
  private readonly maxThreads: number;
  private closed = false;

  constructor(maxThreads = Math.min(4, availableParallelism())) {
    this.maxThreads = Math.max(1, maxThreads);
  }

  /** Analyses the threads have finished (for tests and the benchmark's figures). */
  get analysed(): number {
    return this.pool?.completed ?? 0;
  }

  /** Whether a book at `filePath` is worth sending to a thread (by extension; content decides). */
  handles(filePath: string): boolean {
    return !this.closed && THREAD_EXTENSIONS.has(bookExtension(filePath));
  }

  /**
   * The book's analysis (the file checked against the library roots first), or undefined when its content is not a zip-based format after all (the
   * caller then analyses it on its own path). File failures throw MediaError as analysis in this
   * thread would; a system error keeps its errno `code`, so transient ones stay transient.
   */
  async analyse(task: ThreadTask): Promise<ThreadAnalysis | undefined> {
    const outcome = (await this.threads().run(task)) as ThreadOutcome;
    if ('analysis' in outcome) return outcome.analysis;
    if ('notHere' in outcome) return undefined;
    throw rebuild(outcome.failure);
  }

  /** Stops the threads (server shutdown); analyses in flight are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  private threads(): Piscina {
    if (this.closed) throw new Error('the analysis threads were stopped');
    this.pool ??= new Piscina({
      filename: new URL('./analysis-thread.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: this.maxThreads,
      idleTimeout: IDLE_THREAD_MS,
      // One book at a time per thread: its reads are synchronous.
      concurrentTasksPerWorker: 1,
    });
    return this.pool;
  }
}

/** An errno failure as Node reports one (the `code` is what isTransientFailure looks at). */
function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

function rebuild(failure: ThreadFailure): Error {
  switch (failure.kind) {
    case 'media':
      return new MediaError(failure.code ?? 'ERR_1005', failure.message, failure.causeCode ? { cause: errnoError(failure.causeCode, failure.message) } : undefined);
    case 'errno':
      return errnoError(failure.code ?? 'EIO', failure.message);
    case 'other':
      return new Error(`analysis thread: ${failure.message}`);
  }
}

import { AnalysisTooCostly } from './book-reader.ts';
import { TimedOutInputs } from './timed-out-inputs.ts';
import { OperationTimeout } from './transient-errors.ts';
import { BACKGROUND_CALLER } from './work-callers.ts';

/**
 * Bounds on all the work the analysis of one archive book may make its unpacker do (unrar for RAR,
 * 7-Zip for 7z), past which the book is ERROR (AnalysisTooCostly, ERR_1008: the file's doing).
 * The unpacker runs in a small pool of workers per format, so a book that costs hours holds one of
 * them for hours, every other book's page reads of that format sharing what is left. A small
 * hostile file can make the work huge: members declaring up to 128 MiB of zeros each, or a solid
 * block that every member read unpacks again.
 *  - 16 GiB unpacked: four times the largest omnibus comic we know of (about 4 GB).
 *  - 5 minutes of the unpacker's own time (not time queued): even then such a book unpacks at
 *    55 MB/s, a rate both beat several times over on a loaded machine. A call ended by its time
 *    limit counts as the whole limit: the worker was busy with this book all that time. Such a
 *    call is made again at once, not put off to a later attempt (which would start the count
 *    afresh, so a file that always runs out of time would be tried for ever, never ERROR): a
 *    loaded machine gets another chance, and a file that always runs out ends ERROR after
 *    workMs / limit + 1 time-outs (6 of 7-Zip's 60 s, 11 of unrar's 30 s).
 * Work the server cut short (worker stopped, queue full, descriptors) is not the book's doing: it
 * is never counted, and the analysis is put off with nothing recorded. Tests lower these.
 */
export const analysisBounds = { unpackedBytes: 16 * 1024 ** 3, workMs: 5 * 60_000 };

/** What the analysis of one opened book has cost so far, against analysisBounds. */
export class AnalysisBudget {
  private unpacked = 0;
  private workMs = 0;
  private timeOuts = 0;
  private readonly book: string;
  private readonly unpacker: string;

  /** `book` names it in errors ("RAR book /lib/a.cbr"); `unpacker` whose time is counted ("unrar"). */
  constructor(book: string, unpacker: string) {
    this.book = book;
    this.unpacker = unpacker;
  }

  /** Throws AnalysisTooCostly if unpacking `bytes` more would go past the bound (nothing counted then). */
  checkUnpack(bytes: number): void {
    if (this.unpacked + bytes > analysisBounds.unpackedBytes) this.overBytes(this.unpacked + bytes, 'would unpack');
  }

  /** Counts a call's work; past a bound, the analysis ends (AnalysisTooCostly). */
  spend(unpacked: number, workMs: number): void {
    this.unpacked += unpacked;
    this.workMs += workMs;
    if (this.unpacked > analysisBounds.unpackedBytes) this.overBytes(this.unpacked, 'unpacked');
    if (this.workMs > analysisBounds.workMs) {
      const ranOut = this.timeOuts > 0 ? ` (${this.timeOuts} call${this.timeOuts === 1 ? '' : 's'} ran out of their time limit)` : '';
      throw new AnalysisTooCostly(
        `${this.book}: analysis took ${Math.round(this.workMs)} ms of ${this.unpacker}'s time${ranOut}, over the ${analysisBounds.workMs} ms limit for one book`,
      );
    }
  }

  /** A call ended by its time limit: the worker spent all of it on this book (at least 1 ms, so retries end). */
  spendTimeOut(limitMs: number): void {
    this.timeOuts++;
    this.spend(0, Math.max(1, limitMs));
  }

  private overBytes(total: number, verb: string): never {
    throw new AnalysisTooCostly(`${this.book}: analysis ${verb} ${total} bytes, over the ${analysisBounds.unpackedBytes}-byte limit for one book`);
  }
}

/**
 * Listings of one archive book (opening it: unrar's or 7-Zip's walk of every header) that may run
 * out of their time limit in a row. A listing that ran out was put off as a transient failure, to
 * a later attempt and then to every scan, each holding a worker for a whole limit: a file whose
 * listing always runs out was tried for ever and never ERROR. It is now made again at once (one
 * time-out on a loaded machine costs one more call) and, after this many, the book is ERROR
 * (AnalysisTooCostly, ERR_1008): three in a row is no busy machine, and 90 s of unrar's time (3 min
 * of 7-Zip's) is already more than any real book's header walk. Tests change it.
 */
export const listingBounds = { timeOuts: 3 };

/** Listings that ran out of time for a reader's request: asked again, they fail at once for a while. */
const requestListingsTimedOut = new TimedOutInputs();

/**
 * A book's listing made for `caller`. For the background (analysis, posters) as listWithinBounds.
 * For a reader's request (a page of a READY book whose handle was closed) one call: the request
 * waited three time limits in a row (90 s of unrar's, 3 min of 7-Zip's) and then had a 422 calling
 * the book damaged. A time-out is the server's, not the book's (503 with Retry-After, nothing
 * stored), and for TIMED_OUT_FOR_MS that listing fails at once instead of holding a worker again
 * for each page asked. `key` names the file's state (device, inode, size, date); `limitMs` the
 * unpacker's time limit, for the message.
 */
export function listForCaller<T>(book: string, key: string, caller: string | undefined, limitMs: number, list: () => Promise<T>): Promise<T> {
  if (caller === undefined || caller === BACKGROUND_CALLER) return listWithinBounds(book, list);
  return requestListingsTimedOut.run(key, `listing of ${book}`, limitMs, list);
}

/** `list` made again while it runs out of time, up to listingBounds.timeOuts times; `book` names it in the error. */
export async function listWithinBounds<T>(book: string, list: () => Promise<T>): Promise<T> {
  for (let timeOuts = 1; ; timeOuts++) {
    try {
      return await list();
    } catch (error) {
      if (!(error instanceof OperationTimeout)) throw error;
      if (timeOuts >= listingBounds.timeOuts) {
        throw new AnalysisTooCostly(`${book}: listing its members or pages ran out of the ${error.limitMs} ms time limit ${timeOuts} times in a row`);
      }
    }
  }
}

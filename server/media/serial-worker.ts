import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MediaError } from './book-reader.ts';
import { OperationTimeout, ServerBusy } from './transient-errors.ts';
import { BACKGROUND_CALLER } from './work-callers.ts';

/**
 * Workers of an archive unpacker's pool (unrar, 7-Zip): one per core, at least two (with one, a
 * single hostile page holds every reader of that format for its whole time limit) and at most
 * three, since each may hold a page of up to 128 MiB and its library's working memory.
 */
export const ARCHIVE_WORKERS = Math.min(3, Math.max(2, availableParallelism()));
/** Calls of one caller, or on one book, that may wait for an archive unpacker at once. */
export const ARCHIVE_WAITING_PER_LANE = 16;

/** Distributive Omit, so each request variant keeps its own fields. */
export type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** What a worker posts back for the call `id`: its result, or the media error it ended with. */
export type WorkerAnswer<Result> = (
  | { id: number; result: Result; error?: undefined }
  | { id: number; error: { code: string; message: string }; result?: undefined }
) & {
  /** The worker holds more memory than it should keep (a wasm heap only grows): end it after this call. */
  recycle?: boolean;
};

export interface SerialWorkerOptions<Request> {
  /** The worker's module. */
  script: URL;
  /** Names the library in errors ("PDF", "7-Zip"). */
  name: string;
  /** Longest one call may run before its worker is ended. */
  timeLimitMs: number;
  /** Calls waiting for a worker; beyond this the server is busy (503 + Retry-After), not broken. */
  maxWaiting: number;
  /** What a ServerBusy says when the queue is full ("too many PDF pages are being drawn at once"). */
  busy: string;
  /** Says what a call was doing, for the time-out error. */
  describe: (request: WithoutId<Request>) => string;
  /** Workers at most (default 1: calls run one at a time). */
  workers?: number;
  /**
   * The book a call works on (file identity), when the pool should share its workers out by book
   * as well as by caller (see SerialWorker).
   */
  bookOf?: (request: WithoutId<Request>) => string;
  /** Calls of one caller, or on one book, that may wait at once (default maxWaiting). */
  maxWaitingPerLane?: number;
  /** Given to each worker as its workerData (its bounds). */
  workerData?: Record<string, unknown>;
}

interface Job<Request, Result> {
  request: WithoutId<Request>;
  /** Who and what the call is for: `caller:…`, and `book:…` when the pool shares by book. */
  lanes: string[];
  /** Run by this slot's worker only (callEach); dropped if that worker is gone by then. */
  pinned?: { slot: Slot<Request, Result>; worker: Worker };
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

interface Running<Request, Result> extends Job<Request, Result> {
  id: number;
  timer: NodeJS.Timeout;
}

/** One worker of the pool and the call it runs, if any. */
interface Slot<Request, Result> {
  worker: Worker | undefined;
  running: Running<Request, Result> | undefined;
}

/**
 * The main-thread side of workers that wrap a synchronous, CPU-bound library (mupdf, 7-Zip,
 * unrar): a worker cannot run two calls at once, so calls wait in a bounded queue for one of at
 * most `workers` workers, each call within a time limit. Past it the call's worker is ended, the
 * call fails as a time-out (OperationTimeout: not recorded against the book) and that worker's
 * next call gets a fresh one. If a worker dies (a wasm abort on a hostile file), its call in
 * flight fails with ERR_1008. Workers start with the calls that need them and are unref'd while
 * idle, so they never keep the process alive.
 *
 * With more than one worker, no caller (work-callers.ts: a user, or the background) and no book
 * runs on more than workers - 1 of them at once, and each may have at most maxWaitingPerLane calls
 * waiting: one user asking for many hostile pages (each holding its worker for the whole time
 * limit) waits behind their own calls on one worker, while other users' pages go through the
 * other, instead of everyone waiting minutes behind them; a scan's analyses cannot take them all
 * either. The first waiting call whose caller and book are under that share runs next.
 */
export class SerialWorker<Request extends { id: number }, Result> {
  /** Limit of one call (tests lower it). */
  timeLimitMs: number;
  /** Calls started since the process began (tests count them). */
  calls = 0;
  /** Workers started since the process began (tests count them). */
  started = 0;
  /** What each worker started from now on is given (tests lower its bounds). */
  workerData: Record<string, unknown> | undefined;
  private readonly options: SerialWorkerOptions<Request>;
  private readonly slots: Slot<Request, Result>[];
  /** A caller's or book's share of the workers. */
  private readonly perLane: number;
  private readonly waiting: Job<Request, Result>[] = [];
  /**
   * Calls among `waiting` (callEach's pinned housekeeping left out): what maxWaiting bounds. Closes
   * pinned to a worker busy with a long page piled up behind it, one per book closed, and counted
   * as calls they made the pool refuse a reader's page as busy while it had nothing else to do.
   */
  private waitingCalls = 0;
  /** Calls waiting and running per lane. */
  private readonly waitingIn = new Map<string, number>();
  private readonly runningIn = new Map<string, number>();
  private nextId = 1;

  constructor(options: SerialWorkerOptions<Request>) {
    this.options = options;
    this.timeLimitMs = options.timeLimitMs;
    this.workerData = options.workerData;
    const workers = Math.max(1, Math.floor(options.workers ?? 1));
    this.slots = Array.from({ length: workers }, () => ({ worker: undefined, running: undefined }));
    this.perLane = Math.max(1, workers - 1);
  }

  /** Workers the pool may run at once. */
  get size(): number {
    return this.slots.length;
  }

  /** Runs `request` in a worker, counted against `caller`'s share (work-callers.ts). */
  call(request: WithoutId<Request>, caller: string = BACKGROUND_CALLER): Promise<Result> {
    const lanes = [`caller:${caller}`];
    if (this.options.bookOf) lanes.push(`book:${this.options.bookOf(request)}`);
    const perLane = this.options.maxWaitingPerLane ?? this.options.maxWaiting;
    if (this.waitingCalls >= this.options.maxWaiting || lanes.some((lane) => (this.waitingIn.get(lane) ?? 0) >= perLane)) {
      return Promise.reject(new ServerBusy(this.options.busy));
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, lanes, resolve, reject });
      this.waitingCalls++;
      count(this.waitingIn, lanes, 1);
      this.pump();
    });
  }

  /**
   * Runs `request` once in each worker started now, after the calls it is running or already
   * given: for what every worker keeps its own of (the PDF workers' open documents). A worker
   * ended meanwhile holds nothing any more, so its call is skipped (resolved undefined). No worker
   * is started for it, and it is not counted against any caller's or book's share.
   */
  callEach(request: WithoutId<Request>): Promise<(Result | undefined)[]> {
    const calls = this.slots.flatMap((slot) => {
      const worker = slot.worker;
      if (!worker) return [];
      return [
        new Promise<Result | undefined>((resolve, reject) => {
          this.waiting.push({ request, lanes: [], resolve, reject, pinned: { slot, worker } });
        }),
      ];
    });
    this.pump();
    return Promise.all(calls);
  }

  isRunning(): boolean {
    return this.slots.some((slot) => slot.worker !== undefined);
  }

  /** A call is in a worker now (tests wait for one to check what the main thread does meanwhile). */
  inFlight(): boolean {
    return this.slots.some((slot) => slot.running !== undefined);
  }

  /** Calls in workers now. */
  runningCalls(): number {
    return this.slots.filter((slot) => slot.running !== undefined).length;
  }

  /** Stops the workers (tests, server shutdown). Later calls start new ones. */
  async stop(): Promise<void> {
    const workers: Worker[] = [];
    for (const slot of this.slots) {
      if (slot.worker) workers.push(slot.worker);
      slot.worker = undefined;
      // The call in flight is cut short, not the book's fault: it may be asked again.
      if (slot.running) this.finish(slot, slot.running.id, new ServerBusy(`the ${this.options.name} worker was stopped`));
    }
    this.dropOrphaned();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private start(slot: Slot<Request, Result>): Worker {
    const worker = new Worker(this.options.script, { workerData: this.workerData });
    this.started++;
    worker.unref();
    worker.on('message', (answer: WorkerAnswer<Result>) => {
      if (answer.recycle && slot.worker === worker) {
        // Ended before the slot's next call is given out (by finish): that call gets a fresh one.
        slot.worker = undefined;
        void worker.terminate();
      }
      this.finish(slot, answer.id, answer.error ? new MediaError(answer.error.code, answer.error.message) : answer.result);
    });
    const fail = (why: unknown) => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      if (slot.running) this.finish(slot, slot.running.id, new MediaError('ERR_1008', `${this.options.name} worker stopped: ${String(why)}`, { cause: why }));
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(`exit code ${code}`));
    return worker;
  }

  /**
   * The first waiting call for `slot`: one pinned to it, or one whose caller and book are under
   * their share of the workers. Calls pinned to a worker that was ended are dropped (see callEach).
   */
  private takeNext(slot: Slot<Request, Result>): Job<Request, Result> | undefined {
    this.dropOrphaned();
    const at = this.waiting.findIndex((job) =>
      job.pinned ? job.pinned.slot === slot : job.lanes.every((lane) => (this.runningIn.get(lane) ?? 0) < this.perLane),
    );
    if (at < 0) return undefined;
    const [job] = this.waiting.splice(at, 1);
    if (!job!.pinned) this.waitingCalls--;
    count(this.waitingIn, job!.lanes, -1);
    return job;
  }

  /** Resolves and drops the calls pinned to a worker that was ended (it holds nothing any more). */
  private dropOrphaned(): void {
    for (let at = this.waiting.length - 1; at >= 0; at--) {
      const job = this.waiting[at]!;
      if (!job.pinned || job.pinned.worker === job.pinned.slot.worker) continue;
      this.waiting.splice(at, 1);
      job.resolve(undefined as Result);
    }
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.running) continue;
      const job = this.takeNext(slot);
      if (!job) {
        slot.worker?.unref();
        continue;
      }
      this.run(slot, job);
    }
  }

  private run(slot: Slot<Request, Result>, job: Job<Request, Result>): void {
    const worker = (slot.worker ??= this.start(slot));
    worker.ref();
    const id = this.nextId++;
    this.calls++;
    const limit = this.timeLimitMs;
    const timer = setTimeout(() => {
      if (slot.running?.id !== id) return;
      // The worker goes first, so the slot's next call (started by finish) gets a fresh one.
      slot.worker = undefined;
      void worker.terminate();
      this.finish(slot, id, new OperationTimeout(this.options.describe(job.request), limit));
    }, limit);
    slot.running = { ...job, id, timer };
    count(this.runningIn, job.lanes, 1);
    worker.postMessage({ ...job.request, id });
  }

  private finish(slot: Slot<Request, Result>, id: number, outcome: Result | Error): void {
    const job = slot.running;
    if (!job || job.id !== id) return;
    clearTimeout(job.timer);
    slot.running = undefined;
    count(this.runningIn, job.lanes, -1);
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
    this.pump();
  }
}

/** Adds `by` to each lane's count, dropping lanes back at zero (the maps stay as small as the queue). */
function count(counts: Map<string, number>, lanes: readonly string[], by: number): void {
  for (const lane of lanes) {
    const next = (counts.get(lane) ?? 0) + by;
    if (next <= 0) counts.delete(lane);
    else counts.set(lane, next);
  }
}

import { Worker } from 'node:worker_threads';
import { MediaError } from './book-reader.ts';
import { OperationTimeout, ServerBusy } from './transient-errors.ts';

/** Distributive Omit, so each request variant keeps its own fields. */
export type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** What a worker posts back for the call `id`: its result, or the media error it ended with. */
export type WorkerAnswer<Result> =
  | { id: number; result: Result; error?: undefined }
  | { id: number; error: { code: string; message: string }; result?: undefined };

export interface SerialWorkerOptions<Request> {
  /** The worker's module. */
  script: URL;
  /** Names the library in errors ("PDF", "7-Zip"). */
  name: string;
  /** Longest one call may run before its worker is ended. */
  timeLimitMs: number;
  /** Calls waiting for the worker; beyond this the server is busy (503 + Retry-After), not broken. */
  maxWaiting: number;
  /** What a ServerBusy says when the queue is full ("too many PDF pages are being drawn at once"). */
  busy: string;
  /** Says what a call was doing, for the time-out error. */
  describe: (request: WithoutId<Request>) => string;
}

interface Job<Request, Result> {
  request: WithoutId<Request>;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

/**
 * The main-thread side of a worker that wraps a synchronous, CPU-bound library (mupdf, 7-Zip):
 * the worker could not run two calls at once anyway, so calls run one at a time from a bounded
 * queue, each within a time limit. Past it the worker is ended, the call fails as a time-out
 * (OperationTimeout: not recorded against the book) and the next call gets a fresh worker. If the
 * worker dies (a wasm abort on a hostile file), the call in flight fails with ERR_1008. The worker
 * starts with the first call and is unref'd while idle, so it never keeps the process alive.
 */
export class SerialWorker<Request extends { id: number }, Result> {
  /** Limit of one call (tests lower it). */
  timeLimitMs: number;
  /** Calls started since the process began (tests count them). */
  calls = 0;
  private readonly options: SerialWorkerOptions<Request>;
  private worker: Worker | undefined;
  private running: (Job<Request, Result> & { id: number; timer: NodeJS.Timeout }) | undefined;
  private readonly waiting: Job<Request, Result>[] = [];
  private nextId = 1;

  constructor(options: SerialWorkerOptions<Request>) {
    this.options = options;
    this.timeLimitMs = options.timeLimitMs;
  }

  call(request: WithoutId<Request>): Promise<Result> {
    if (this.waiting.length >= this.options.maxWaiting) {
      return Promise.reject(new ServerBusy(this.options.busy));
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.pump();
    });
  }

  isRunning(): boolean {
    return this.worker !== undefined;
  }

  /** A call is in the worker now (tests wait for one to check what the main thread does meanwhile). */
  inFlight(): boolean {
    return this.running !== undefined;
  }

  /** Stops the worker (tests, server shutdown). A later call starts a new one. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    // The call in flight is cut short, not the book's fault: it may be asked again.
    if (this.running) this.finish(this.running.id, new ServerBusy(`the ${this.options.name} worker was stopped`));
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const worker = new Worker(this.options.script);
    worker.unref();
    worker.on('message', (answer: WorkerAnswer<Result>) => {
      this.finish(answer.id, answer.error ? new MediaError(answer.error.code, answer.error.message) : answer.result);
    });
    const fail = (why: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.running) this.finish(this.running.id, new MediaError('ERR_1008', `${this.options.name} worker stopped: ${String(why)}`, { cause: why }));
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(`exit code ${code}`));
    return worker;
  }

  private pump(): void {
    if (this.running) return;
    const job = this.waiting.shift();
    if (!job) {
      this.worker?.unref();
      return;
    }
    const worker = (this.worker ??= this.start());
    worker.ref();
    const id = this.nextId++;
    this.calls++;
    const limit = this.timeLimitMs;
    const timer = setTimeout(() => {
      if (this.running?.id !== id) return;
      // The worker goes first, so the next call (started by finish) gets a fresh one.
      this.worker = undefined;
      void worker.terminate();
      this.finish(id, new OperationTimeout(this.options.describe(job.request), limit));
    }, limit);
    this.running = { ...job, id, timer };
    worker.postMessage({ ...job.request, id });
  }

  private finish(id: number, outcome: Result | Error): void {
    const job = this.running;
    if (!job || job.id !== id) return;
    clearTimeout(job.timer);
    this.running = undefined;
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
    this.pump();
  }
}

import { Worker } from 'node:worker_threads';
import { MediaError } from './book-reader.ts';
import type { PdfRequest, PdfResponse, PdfResult } from './pdf-protocol.ts';
import { OperationTimeout, ServerBusy } from './transient-errors.ts';

/** Distributive Omit, so each request variant keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Job {
  request: WithoutId<PdfRequest>;
  resolve: (result: PdfResult) => void;
  reject: (error: Error) => void;
}

/**
 * Longest one PDF call may run before its worker is ended. A page can cost mupdf far more than its
 * size says: a 2 KB page drawing a form that draws the next form twice, twenty deep, takes a minute,
 * thirty deep a day, and every PDF read waits behind it.
 */
const CALL_TIME_LIMIT_MS = 30_000;
/** Calls waiting for the worker; beyond this the server is busy (503 + Retry-After), not broken. */
const MAX_WAITING = 64;

/**
 * Main-thread side of the PDF worker. The worker (and with it mupdf) starts on the first PDF
 * request, not at server start; it is unref'd so an idle one never keeps the process alive. Calls
 * run one at a time (mupdf's are synchronous: the worker could not run two at once anyway) from a
 * bounded queue, each within a time limit: past it the worker is ended, the call fails as a time
 * out (OperationTimeout: not recorded against the book) and the next call gets a fresh worker. If
 * the worker dies (a wasm abort on a hostile file), the call in flight fails with ERR_1008.
 */
class PdfWorkerClient {
  /** Limit of one call (tests lower it). */
  timeLimitMs = CALL_TIME_LIMIT_MS;
  private worker: Worker | undefined;
  private running: (Job & { id: number; timer: NodeJS.Timeout }) | undefined;
  private readonly waiting: Job[] = [];
  private nextId = 1;
  /** Calls started since the process began (tests count them). */
  calls = 0;

  private start(): Worker {
    const worker = new Worker(new URL('./pdf-render-worker.ts', import.meta.url));
    worker.unref();
    worker.on('message', (response: PdfResponse) => {
      this.finish(response.id, response.error ? new MediaError(response.error.code, response.error.message) : response.result);
    });
    const fail = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.running) this.finish(this.running.id, new MediaError('ERR_1008', `PDF worker stopped: ${String(error)}`, { cause: error }));
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(`exit code ${code}`));
    return worker;
  }

  call(request: WithoutId<PdfRequest>): Promise<PdfResult> {
    if (this.waiting.length >= MAX_WAITING) return Promise.reject(new ServerBusy('too many PDF pages are being drawn at once'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.running) return;
    const job = this.waiting.shift();
    if (!job) {
      // An idle worker never keeps the process alive.
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
      this.finish(id, new OperationTimeout(`PDF ${job.request.op} of ${job.request.path}`, limit));
    }, limit);
    this.running = { ...job, id, timer };
    worker.postMessage({ ...job.request, id } as PdfRequest);
  }

  private finish(id: number, outcome: PdfResult | Error): void {
    const job = this.running;
    if (!job || job.id !== id) return;
    clearTimeout(job.timer);
    this.running = undefined;
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
    this.pump();
  }

  isRunning(): boolean {
    return this.worker !== undefined;
  }

  /** Stops the worker (tests, server shutdown). A later call starts a new one. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    // The call in flight is cut short, not the book's fault: it may be asked again.
    if (this.running) this.finish(this.running.id, new ServerBusy('the PDF worker was stopped'));
    if (worker) await worker.terminate();
  }
}

export const pdfWorker = new PdfWorkerClient();

/** Page sizes in points, in page order. */
export async function describePdf(path: string, version: string): Promise<[number, number][]> {
  const result = await pdfWorker.call({ op: 'describe', path, version });
  if (!result || !('sizes' in result)) throw new MediaError('ERR_1008', 'unexpected PDF worker answer');
  return result.sizes;
}

/**
 * Pages whose drawing ran out of time lately (file, version, page → when): asked again within
 * TIMED_OUT_FOR_MS they fail at once instead of taking the worker for another whole time limit
 * (every reader scrolling past the book's poster would, one after the other). Memory only: a time
 * out is never recorded against the book, and the page is tried again later.
 */
const timedOut = new Map<string, number>();
const TIMED_OUT_FOR_MS = 10 * 60_000;
const TIMED_OUT_MAX = 1024;

/** One page (0-based) drawn as JPEG or PNG, fitting the hint or at the default size. */
export async function renderPdfPage(
  path: string,
  version: string,
  page: number,
  options: { maxWidth?: number; maxHeight?: number; format: 'jpeg' | 'png' },
): Promise<Buffer> {
  const key = `${version}\u0000${page}\u0000${path}`;
  const failedAt = timedOut.get(key);
  if (failedAt !== undefined && Date.now() - failedAt < TIMED_OUT_FOR_MS) {
    throw new OperationTimeout(`PDF render of ${path} page ${page + 1} (ran out of time lately)`, pdfWorker.timeLimitMs);
  }
  let result: PdfResult;
  try {
    result = await pdfWorker.call({
      op: 'render',
      path,
      version,
      page,
      maxWidth: options.maxWidth,
      maxHeight: options.maxHeight,
      format: options.format,
    });
  } catch (error) {
    if (error instanceof OperationTimeout) {
      if (timedOut.size >= TIMED_OUT_MAX) timedOut.clear();
      timedOut.set(key, Date.now());
    }
    throw error;
  }
  if (!result || !('bytes' in result)) throw new MediaError('ERR_1008', 'unexpected PDF worker answer');
  return Buffer.from(result.bytes);
}

/** One page (0-based) as a standalone one-page PDF. */
export async function extractPdfPage(path: string, version: string, page: number): Promise<Buffer> {
  const result = await pdfWorker.call({ op: 'extract', path, version, page });
  if (!result || !('bytes' in result)) throw new MediaError('ERR_1008', 'unexpected PDF worker answer');
  return Buffer.from(result.bytes);
}

/** Lets the worker close its handle on a file (the book was closed or changed). */
export function closePdf(path: string): void {
  // Only bother a worker that exists; closing must not start mupdf.
  if (pdfWorker.isRunning()) void pdfWorker.call({ op: 'close', path }).catch(() => undefined);
}

import * as Comlink from 'comlink';
import type { Box, DecodeFailureReason, DecodeMethod, DecodeWorkerApi, WorkerDecodeRequest } from './decode-protocol.ts';
import { pageBytesKey } from './pageBytesKey.ts';
import type { PrefetchedBytes, StreamedDownload } from './PrefetchedBytes.ts';
import { DECODE_MEASURE, recordDecodeMeasure } from './decodeMeasures.ts';
import { decodeBlob } from './decodeBlob.ts';
import { scaledDecodeOf } from './scaledDecode.ts';

export interface PoolDecodeRequest {
  url: string;
  /** Exact device-pixel size of the result. */
  size?: Box;
  /** The image's own size, when known: lets a JPEG decode at a reduced scale. */
  natural?: Box;
  /** Or: natural size, shrunk to fit this box (reports the natural size back). */
  fitWithin?: Box;
  /** Lower runs first; equal priorities run in the order asked. */
  priority?: number;
  /** How to decode (the benchmark compares them); default 'auto'. */
  method?: DecodeMethod;
}

export interface PoolDecoded {
  bitmap: ImageBitmap;
  naturalWidth: number | null;
  naturalHeight: number | null;
}

/** A page that could not be fetched or decoded; `reason` says which, `status` carries the HTTP code. */
export class PageDecodeError extends Error {
  readonly reason: Exclude<DecodeFailureReason, 'aborted'> | 'worker';
  readonly status: number | undefined;
  readonly url: string;

  constructor(reason: PageDecodeError['reason'], message: string, url: string, status?: number) {
    super(message);
    this.name = 'PageDecodeError';
    this.reason = reason;
    this.status = status;
    this.url = url;
  }
}

export interface DecodePoolOptions {
  /** Number of workers; defaults to the core count, kept within 2..4. */
  size?: number;
  /** Jobs a worker runs at once: one fetching while another decodes keeps both busy. */
  perWorker?: number;
  /**
   * Jobs running across the pool at most. Browsers open about six HTTP/1.1 connections per server;
   * four for pages leaves room for the API calls (progress saves, thumbnails) beside them.
   */
  maxRunning?: number;
  /** Extra request headers, e.g. the XHR marker that stops 401s from opening a login dialog. */
  headers?: Record<string, string>;
  createWorker?: () => Worker;
  /** Bytes fetched ahead on the main thread (the first page of a book being opened); used once each. */
  prefetched?: PrefetchedBytes;
  /**
   * A decode ahead of a page being fetched on the main thread (`prefetched`: no worker was up when its
   * download started, a cold load) runs on the main thread, on the bytes as they arrive (see
   * decodeAhead). Off by default: the tests of the pool's scheduling count what its workers do.
   */
  decodeAheadOnMainThread?: boolean;
}

interface Job {
  id: number;
  seq: number;
  request: WorkerDecodeRequest;
  priority: number;
  resolve: (value: PoolDecoded) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  slot: Slot | null;
  /** The worker that holds this page's download started ahead: the job runs there, and only there. */
  pinned: Slot | null;
  settled: boolean;
}

/** A decode started before anybody asked for it (see decodeAhead), waiting to be claimed. */
interface AheadDecode {
  size: Box;
  method: DecodeMethod | undefined;
  controller: AbortController;
  result: Promise<PoolDecoded>;
  /** The page's bytes, for a request that turns out to want another size. */
  bytes: Promise<Blob | null> | undefined;
  claimed: boolean;
}

/** An unclaimed decode ahead is freed after this long (the reader that was to ask never came). */
const AHEAD_KEPT_MS = 30_000;

/** A download ahead nobody decoded is forgotten after this long (the worker frees it then too). */
const DOWNLOAD_KEPT_MS = 60_000;

/** Sizes computed twice (a measured fit and a predicted one) may round a pixel apart. */
function sameSize(a: Box, b: Box | undefined): boolean {
  return b !== undefined && Math.abs(a.width - b.width) <= 1 && Math.abs(a.height - b.height) <= 1;
}

interface Slot {
  worker: Worker;
  remote: Comlink.Remote<DecodeWorkerApi>;
  running: Set<Job>;
  /** Its script has run and it answers: a download given to it starts at once. */
  ready: boolean;
  /** Settles when it answers (or fails to start). */
  started: Promise<void>;
}

export function defaultPoolSize(): number {
  const cores = typeof navigator === 'undefined' ? 2 : (navigator.hardwareConcurrency ?? 2);
  return Math.min(4, Math.max(2, cores));
}

function createDecodeWorker(): Worker {
  return new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module', name: 'folio-decode' });
}

/**
 * Each decode that produced a bitmap is a User Timing measure named `folio:decode` (its detail: the
 * URL and size), from the moment it went to a worker: the benchmark's waterfall and the tests read
 * when, and how often, a page was decoded (decodeMeasures.ts bounds how many are kept).
 */
function markDecode(request: WorkerDecodeRequest, startedAt: number): void {
  recordDecodeMeasure(
    { url: request.url, size: request.size ?? null, prefetched: request.blob !== undefined, fetchedAhead: request.fetchedAhead !== undefined },
    startedAt,
  );
}

export { DECODE_MEASURE };
export const WORKER_READY_MARK = 'folio:decode-worker-ready';

/** `blob` decoded on this thread as a worker would (decodeBlob); a failure is the page's decode error. */
async function decodeWhole(blob: Blob, request: PoolDecodeRequest & { url: string; size: Box }): Promise<PoolDecoded> {
  try {
    return await decodeBlob(blob, { url: request.url, size: request.size, natural: request.natural, method: request.method });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new PageDecodeError('decode', `${request.url} is not a decodable image: ${detail}`, request.url);
  }
}

function abortError(): DOMException {
  return new DOMException('Decode cancelled', 'AbortError');
}

/**
 * Decodes pages on a small pool of workers behind a plain async API. Callers never see messages:
 * they await `decode`, and abort its signal to cancel (a queued job is dropped, a running one has its
 * fetch aborted inside the worker). Workers start lazily, on the first jobs that need them.
 */
export class DecodePool {
  readonly size: number;
  #perWorker: number;
  #maxRunning: number;
  #headers: Record<string, string> | undefined;
  #createWorker: () => Worker;
  #prefetched: PrefetchedBytes | undefined;
  #aheadOnMainThread: boolean;
  #slots: Slot[] = [];
  #queue: Job[] = [];
  #nextId = 1;
  #terminated = false;
  #ahead = new Map<string, AheadDecode>();
  /** Which worker downloads a page fetched ahead (fetchAhead), by pageBytesKey; until a decode takes it. */
  #downloading = new Map<string, { slot: Slot; at: number }>();

  constructor(options: DecodePoolOptions = {}) {
    this.size = Math.max(1, options.size ?? defaultPoolSize());
    this.#perWorker = Math.max(1, options.perWorker ?? 2);
    this.#maxRunning = Math.max(1, options.maxRunning ?? 4);
    this.#headers = options.headers;
    this.#createWorker = options.createWorker ?? createDecodeWorker;
    this.#prefetched = options.prefetched;
    this.#aheadOnMainThread = options.decodeAheadOnMainThread ?? false;
  }

  get queued(): number {
    return this.#queue.length;
  }

  get running(): number {
    return this.#slots.reduce((sum, slot) => sum + slot.running.size, 0);
  }

  get workers(): number {
    return this.#slots.length;
  }

  decode(request: PoolDecodeRequest, signal?: AbortSignal): Promise<PoolDecoded> {
    if (this.#terminated) return Promise.reject(new Error('The decode pool was terminated'));
    if (signal?.aborted) return Promise.reject(abortError());
    const url = new URL(request.url, globalThis.location?.href).href;
    const ahead = this.#ahead.get(url);
    if (ahead) {
      this.#ahead.delete(url);
      if (request.size && sameSize(request.size, ahead.size) && request.method === ahead.method) {
        this.#releaseDownload(url);
        return this.#claim(ahead, signal);
      }
      // Another size after all (the view measured differently): the bytes are kept, the decode dropped.
      ahead.controller.abort();
      return this.#submit(request, signal, ahead.bytes);
    }
    return this.#submit(request, signal, this.#prefetched?.take(url));
  }

  /**
   * Starts decoding a page nobody has asked for yet, at the exact size a view is about to ask for
   * (the first page of a book being opened, before the reader's view exists): the decode starts the
   * moment the bytes arrive instead of when the view is built. The view's own `decode` of the same
   * URL at the same size then takes this result; at another size it gets a decode of its own from the
   * same bytes. A result nobody claims is freed after a while. Runs ahead of every other job.
   */
  decodeAhead(request: PoolDecodeRequest & { size: Box }): void {
    if (this.#terminated) return;
    const url = new URL(request.url, globalThis.location?.href).href;
    if (this.#ahead.has(url)) return;
    const controller = new AbortController();
    const download = this.#prefetched?.takeDownload(url);
    const bytes = download?.blob;
    const job = { ...request, url, priority: Number.NEGATIVE_INFINITY };
    const ahead: AheadDecode = {
      size: request.size,
      method: request.method,
      controller,
      bytes,
      claimed: false,
      result:
        download && this.#aheadOnMainThread
          ? this.#decodeAheadHere(job, controller.signal, download)
          : this.#submit(job, controller.signal, bytes, { keepDownload: true }),
    };
    this.#ahead.set(url, ahead);
    const forget = () => {
      if (this.#ahead.get(url) === ahead) this.#ahead.delete(url);
    };
    ahead.result.then(
      (decoded) => {
        setTimeout(() => {
          if (ahead.claimed) return;
          forget();
          this.#releaseDownload(url);
          decoded.bitmap.close();
        }, AHEAD_KEPT_MS);
      },
      forget,
    );
  }

  /**
   * A decode ahead on a page downloading on the main thread: there was no worker up when its download
   * started (a cold load of a reader's address, where the worker's script, thread and decoder come
   * after the book's descriptions, and a worker's first decode is its slowest). The decoder takes the
   * bytes as they arrive, so it works through the page beside its download and ends soon after the
   * last byte, where a worker could only start once all of it was in. The app is held meanwhile
   * (openingPaint.ts) and ImageDecoder decodes off the main thread; only the final resize is drawn
   * here. Where the scaled decode does not apply (not a JPEG, size unknown), the whole page is decoded
   * here once it is in (createImageBitmap, off the main thread too). A download that failed goes to a
   * worker, which fetches the page itself and reports that failure.
   */
  async #decodeAheadHere(request: PoolDecodeRequest & { url: string; size: Box }, signal: AbortSignal, download: StreamedDownload): Promise<PoolDecoded> {
    const type = await download.type;
    if (type === null || this.#terminated) return this.#submit(request, signal, download.blob, { keepDownload: true });
    if (signal.aborted) throw abortError();
    const startedAt = performance.now();
    let outcome: PoolDecoded | null = null;
    if (request.method !== 'bitmap') {
      try {
        const scaled = await scaledDecodeOf(() => download.replay(), type, request.size, request.natural);
        if (scaled) outcome = { bitmap: scaled.bitmap, naturalWidth: null, naturalHeight: null };
      } catch (error) {
        // The bytes stopped coming, or the decoder refused them: the whole page (or its failure) tells.
        console.warn(`${request.url} could not be decoded as it arrived`, error);
      }
    }
    if (!outcome) {
      const blob = await download.blob;
      if (!blob) return this.#submit(request, signal, Promise.resolve(null), { keepDownload: true });
      if (signal.aborted) throw abortError();
      outcome = await decodeWhole(blob, request);
    }
    recordDecodeMeasure({ url: request.url, size: request.size, prefetched: true, fetchedAhead: false, mainThread: true }, startedAt);
    if (signal.aborted) {
      outcome.bitmap.close();
      throw abortError();
    }
    return outcome;
  }

  /**
   * A decode ahead of `url` that nobody is going to claim after all (the book it was for is no longer
   * the one about to be read): cancelled if it is still running, its bitmap freed now rather than
   * when AHEAD_KEPT_MS runs out. The page's bytes stay, for a reader that opens it anyway. A decode
   * already taken by its view is left alone.
   */
  dropAhead(url: string): void {
    const absolute = new URL(url, globalThis.location?.href).href;
    const ahead = this.#ahead.get(absolute);
    if (!ahead || ahead.claimed) return;
    this.#ahead.delete(absolute);
    ahead.controller.abort();
    ahead.result.then(
      (decoded) => decoded.bitmap.close(),
      () => {}, // cancelled, or failed: nothing to free, and nobody to tell
    );
  }

  /**
   * The result of a decode ahead of `url` without claiming it: a first frame may be painted from it
   * while the view it is for has yet to ask (the view then takes the same bitmap). Undefined when no
   * decode ahead of that page is waiting.
   */
  peekAhead(url: string): Promise<PoolDecoded> | undefined {
    return this.#ahead.get(new URL(url, globalThis.location?.href).href)?.result;
  }

  /**
   * Starts downloading a page now, before anybody can ask for its decode (the page a book opens at is
   * known from the address or the book's screen before its size is). When a worker is up, the
   * download is that worker's, and the decode runs there, on bytes that went from the network
   * straight to the decoder without a stop on the main thread. While no worker has started yet (a
   * cold load), waiting for one would hold the request back by the worker script's load, so the bytes
   * are fetched on the main thread (`prefetched`) and handed over as before. A page already
   * downloading is not asked again.
   */
  fetchAhead(url: string): void {
    if (this.#terminated) return;
    const absolute = new URL(url, globalThis.location?.href).href;
    const key = pageBytesKey(absolute);
    const known = this.#downloading.get(key);
    if (known && this.#slots.includes(known.slot) && Date.now() - known.at < DOWNLOAD_KEPT_MS) return;
    if (this.#prefetched?.has(absolute)) return;
    const ready = this.#slots.filter((slot) => slot.ready);
    if (ready.length === 0 && this.#prefetched) {
      this.#prefetched.prefetch(absolute, this.#headers);
      return;
    }
    // The least busy worker that is up (else a new one): its decoder is the first free.
    const slot = ready.length > 0 ? ready.reduce((best, other) => (other.running.size < best.running.size ? other : best)) : this.#addSlot();
    this.#downloading.set(key, { slot, at: Date.now() });
    void slot.remote.fetchAhead(absolute, this.#headers);
  }

  /** The worker downloading `url` ahead, if one still is: `take` (a decode will use the bytes) forgets it. */
  #downloadHolder(url: string, take: boolean): Slot | null {
    const key = pageBytesKey(url);
    const known = this.#downloading.get(key);
    if (!known) return null;
    if (take || !this.#slots.includes(known.slot) || Date.now() - known.at >= DOWNLOAD_KEPT_MS) this.#downloading.delete(key);
    return this.#slots.includes(known.slot) && Date.now() - known.at < DOWNLOAD_KEPT_MS ? known.slot : null;
  }

  /** Nobody will decode `url` from its download ahead again: the worker frees the bytes. */
  #releaseDownload(url: string): void {
    const holder = this.#downloadHolder(url, true);
    if (holder) void holder.remote.releaseAhead(url);
  }

  /** The caller takes over a decode ahead: its result, or its cancellation through `signal`. */
  #claim(ahead: AheadDecode, signal: AbortSignal | undefined): Promise<PoolDecoded> {
    ahead.claimed = true;
    signal?.addEventListener('abort', () => ahead.controller.abort(), { once: true });
    return ahead.result;
  }

  /** `keepDownload`: a decode ahead leaves a download ahead to a decode at another size (see decode). */
  #submit(
    request: PoolDecodeRequest,
    signal: AbortSignal | undefined,
    early: Promise<Blob | null> | undefined,
    { keepDownload = false } = {},
  ): Promise<PoolDecoded> {
    return new Promise<PoolDecoded>((resolve, reject) => {
      const id = this.#nextId++;
      const url = new URL(request.url, globalThis.location?.href).href;
      const holder = early ? null : this.#downloadHolder(url, !keepDownload);
      const job: Job = {
        id,
        seq: id,
        request: {
          url,
          size: request.size,
          natural: request.natural,
          fitWithin: request.fitWithin,
          headers: this.#headers,
          method: request.method,
          ...(holder ? { fetchedAhead: keepDownload ? 'keep' : 'take' } : {}),
        },
        priority: request.priority ?? 0,
        resolve,
        reject,
        signal,
        onAbort: () => this.#cancel(job),
        slot: null,
        pinned: holder,
        settled: false,
      };
      signal?.addEventListener('abort', job.onAbort, { once: true });
      if (!early) {
        this.#enqueue(job);
        return;
      }
      // The bytes are on their way already: the job waits for them rather than fetching again, and
      // goes to a worker with them (or, if that download failed, fetches them itself).
      void early.then((blob) => {
        if (job.settled || this.#terminated) return;
        if (blob) job.request.blob = blob;
        this.#enqueue(job);
      });
    });
  }

  #enqueue(job: Job): void {
    this.#queue.push(job);
    this.#pump();
  }

  /**
   * Starts every worker now. The reader calls this while it fetches the book's description, so
   * loading the worker scripts overlaps those requests instead of delaying the first page.
   */
  warmUp(): void {
    while (!this.#terminated && this.#slots.length < this.size) this.#addSlot();
  }

  /**
   * Resolves once a worker answers (starting the pool if none is), so that a download meant for a
   * worker (fetchAhead) goes to one instead of through the main thread. Rejects if none could start.
   */
  whenReady(): Promise<void> {
    if (this.#terminated) return Promise.reject(new Error('The decode pool was terminated'));
    if (this.#slots.some((slot) => slot.ready)) return Promise.resolve();
    this.warmUp();
    return Promise.any(this.#slots.map((slot) => slot.started)).catch((error: unknown) => {
      throw new Error('No decode worker started', { cause: error });
    });
  }

  terminate(): void {
    this.#terminated = true;
    for (const job of this.#queue) this.#settle(job, () => job.reject(new Error('The decode pool was terminated')));
    this.#queue = [];
    for (const slot of this.#slots) {
      for (const job of slot.running) this.#settle(job, () => job.reject(new Error('The decode pool was terminated')));
      slot.remote[Comlink.releaseProxy]();
      slot.worker.terminate();
    }
    this.#slots = [];
  }

  #settle(job: Job, action: () => void): void {
    if (job.settled) return;
    job.settled = true;
    job.signal?.removeEventListener('abort', job.onAbort);
    action();
  }

  #cancel(job: Job): void {
    const queuedAt = this.#queue.indexOf(job);
    if (queuedAt >= 0) this.#queue.splice(queuedAt, 1);
    // A running job frees its caller at once; the worker slot frees when the worker answers.
    if (job.slot) void job.slot.remote.cancel(job.id);
    this.#settle(job, () => job.reject(abortError()));
  }

  /** `urgent` jobs (negative priority: small previews) may run one above the per-worker limit. */
  #freeSlot(urgent: boolean): Slot | null {
    if (this.running >= this.#maxRunning + (urgent ? 1 : 0)) return null;
    const limit = this.#perWorker + (urgent ? 1 : 0);
    let best: Slot | null = null;
    for (const slot of this.#slots) {
      if (slot.running.size < limit && (!best || slot.running.size < best.running.size)) best = slot;
    }
    // Prefer starting another worker to doubling up on a busy one.
    if ((!best || best.running.size > 0) && this.#slots.length < this.size) return this.#addSlot();
    return best;
  }

  #addSlot(): Slot {
    const worker = this.#createWorker();
    const remote = Comlink.wrap<DecodeWorkerApi>(worker);
    // A worker whose script fails never answers: its error settles `started` instead.
    let failedToStart!: (error: Error) => void;
    const failure = new Promise<never>((_, reject) => (failedToStart = reject));
    const started = Promise.race([remote.ready(), failure]).then(() => {
      slot.ready = true;
      // For the benchmark's waterfall and the tests: from here on, pages fetched ahead are a worker's.
      if (typeof performance?.mark === 'function') performance.mark(WORKER_READY_MARK);
    });
    const slot: Slot = { worker, remote, running: new Set(), ready: false, started };
    started.catch((error: unknown) => console.warn('A decode worker did not start', error));
    worker.addEventListener('error', (event) => {
      // Handled here: the jobs fail with this message, so the browser need not report it again.
      event.preventDefault();
      failedToStart(new Error(event.message || 'The decode worker failed'));
      this.#workerFailed(slot, event.message || 'The decode worker failed');
    });
    this.#slots.push(slot);
    return slot;
  }

  /** A crashed worker takes its running jobs down; they fail and the worker is replaced on demand. */
  #workerFailed(slot: Slot, message: string): void {
    this.#slots = this.#slots.filter((other) => other !== slot);
    for (const job of slot.running) {
      this.#settle(job, () => job.reject(new PageDecodeError('worker', message, job.request.url)));
    }
    slot.running.clear();
    slot.worker.terminate();
    this.#pump();
  }

  #mostUrgent(): Job | undefined {
    let best: Job | undefined;
    for (const job of this.#queue) {
      if (!best || job.priority < best.priority || (job.priority === best.priority && job.seq < best.seq)) best = job;
    }
    return best;
  }

  #takeNext(): Job | undefined {
    const job = this.#mostUrgent();
    if (job) this.#queue.splice(this.#queue.indexOf(job), 1);
    return job;
  }

  #pump(): void {
    while (this.#queue.length > 0 && !this.#terminated) {
      // A job on a download ahead runs in the worker that has the bytes, whatever its load: the
      // download holds a connection already and waits for nothing else.
      const pinned = this.#queue.find((job) => job.pinned);
      if (pinned) {
        this.#queue.splice(this.#queue.indexOf(pinned), 1);
        if (pinned.pinned && this.#slots.includes(pinned.pinned)) {
          this.#run(pinned.pinned, pinned);
          continue;
        }
        // Its worker failed meanwhile: an ordinary job, which fetches the page itself.
        pinned.pinned = null;
        delete pinned.request.fetchedAhead;
        this.#queue.push(pinned);
      }
      const slot = this.#freeSlot((this.#mostUrgent()?.priority ?? 0) < 0);
      if (!slot) return;
      const job = this.#takeNext();
      if (!job) return;
      this.#run(slot, job);
    }
  }

  #run(slot: Slot, job: Job): void {
    job.slot = slot;
    slot.running.add(job);
    const startedAt = performance.now();
    slot.remote.decode(job.id, job.request).then(
      (outcome) => {
        slot.running.delete(job);
        if (outcome.ok) {
          markDecode(job.request, startedAt);
          if (job.settled) outcome.bitmap.close();
          else this.#settle(job, () => job.resolve(outcome));
        } else if (outcome.reason === 'aborted') {
          this.#settle(job, () => job.reject(abortError()));
        } else {
          const error = new PageDecodeError(outcome.reason, outcome.message, job.request.url, outcome.status);
          this.#settle(job, () => job.reject(error));
        }
        this.#pump();
      },
      (error: unknown) => {
        slot.running.delete(job);
        const message = error instanceof Error ? error.message : String(error);
        this.#settle(job, () => job.reject(new PageDecodeError('worker', message, job.request.url)));
        this.#pump();
      },
    );
  }
}

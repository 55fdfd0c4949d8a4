import { Worker } from 'node:worker_threads';
import { MediaError } from './book-reader.ts';
import type { SevenZipMember, SevenZipRequest, SevenZipResponse, SevenZipResult } from './sevenzip-protocol.ts';
import { OperationTimeout, ServerBusy } from './transient-errors.ts';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Job {
  request: WithoutId<SevenZipRequest>;
  resolve: (result: SevenZipResult) => void;
  reject: (error: Error) => void;
}

/** Longest one 7-Zip call may run before its worker is ended (a hostile or huge solid archive). */
const CALL_TIME_LIMIT_MS = 60_000;
/** Calls waiting for the worker; beyond this the server is busy (503 + Retry-After), not broken. */
const MAX_WAITING = 64;

/**
 * Main-thread side of sevenzip-worker.ts: one worker, one call at a time (7-Zip's calls are
 * synchronous and CPU-bound; two at once would only share the same core), a bounded queue, and a
 * time limit per call that terminates the worker and starts a fresh one for the next call.
 */
export class SevenZipClient {
  /** Limits of this client; the shared one uses the constants above (tests make their own). */
  timeLimitMs: number;
  private readonly maxWaiting: number;
  private worker: Worker | undefined;
  private running: (Job & { id: number; timer: NodeJS.Timeout }) | undefined;
  private readonly waiting: Job[] = [];
  private nextId = 1;
  /** 7-Zip calls started since the process began (tests count them). */
  calls = 0;

  constructor(options: { timeLimitMs?: number; maxWaiting?: number } = {}) {
    this.timeLimitMs = options.timeLimitMs ?? CALL_TIME_LIMIT_MS;
    this.maxWaiting = options.maxWaiting ?? MAX_WAITING;
  }

  call(request: WithoutId<SevenZipRequest>): Promise<SevenZipResult> {
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(new ServerBusy('too many 7z books are being read at once'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.pump();
    });
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
      this.finish(id, new OperationTimeout('7-Zip call', limit));
    }, limit);
    this.running = { ...job, id, timer };
    worker.postMessage({ ...job.request, id } as SevenZipRequest);
  }

  private finish(id: number, outcome: SevenZipResult | Error): void {
    const job = this.running;
    if (!job || job.id !== id) return;
    clearTimeout(job.timer);
    this.running = undefined;
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
    this.pump();
  }

  private start(): Worker {
    const worker = new Worker(new URL('./sevenzip-worker.ts', import.meta.url));
    worker.on('message', (response: SevenZipResponse) => {
      this.finish(response.id, response.error ? new MediaError(response.error.code, response.error.message) : response.result);
    });
    const fail = (why: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      // A wasm abort or a crash ends the call in flight; the next one gets a fresh worker.
      if (this.running) this.finish(this.running.id, new MediaError('ERR_1008', `7-Zip worker stopped: ${String(why)}`, { cause: why }));
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(`exit code ${code}`));
    return worker;
  }

  /** Stops the worker (tests, server shutdown); a later call starts a new one. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}

export const sevenZip = new SevenZipClient();

export async function listSevenZip(path: string, maxMembers: number): Promise<SevenZipMember[]> {
  const result = await sevenZip.call({ op: 'list', path, maxMembers });
  if (!('members' in result)) throw new MediaError('ERR_1008', 'unexpected 7-Zip worker answer');
  return result.members;
}

/** The first bytes of each named member (up to the bounds); a member that unpacked to nothing is absent. */
export async function extractSevenZip(
  path: string,
  names: string[],
  keepPerMember: number,
  keepTotal: number,
): Promise<Map<string, Buffer>> {
  const result = await sevenZip.call({ op: 'extract', path, names, keepPerMember, keepTotal });
  if (!('bytes' in result)) throw new MediaError('ERR_1008', 'unexpected 7-Zip worker answer');
  return new Map(Object.entries(result.bytes).map(([name, bytes]) => [name, Buffer.from(bytes)]));
}

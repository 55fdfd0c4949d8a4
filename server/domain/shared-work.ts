import { ServerBusy } from '../media/transient-errors.ts';
import { type MediaWork, isRequestWork } from '../media/work-callers.ts';

/**
 * How long a request waits for work it shares with others (tests lower it). The same 15 s as a
 * request's wait for a file slot, an archive handle or decode bytes: past it the answer is 503 with
 * Retry-After, whoever started the work.
 */
export const sharedWorkWaits = { requestMs: 15_000 };

/**
 * Work done once for everyone who asks for the same thing at the same time (a page thumbnail, a
 * book's poster): the first caller starts it, later ones join it. Each request waits for it at most
 * sharedWorkWaits.requestMs, then gets ServerBusy (503, Retry-After) while the work goes on for the
 * others and is kept as usual: a request that joined a background task's decode of a slow page
 * otherwise waited as long as the task did, past every request limit the server keeps. Background
 * callers wait as long as it takes.
 */
export class SharedWork<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  run(key: string, start: () => Promise<T>, work: MediaWork, what: string): Promise<T> {
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = start().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return isRequestWork(work) ? within(pending, sharedWorkWaits.requestMs, what) : pending;
  }
}

function within<T>(pending: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ServerBusy(`${what} is taking longer than ${ms} ms`)), ms);
  });
  // The race handles `pending`'s rejection too: leaving it early leaves no unhandled rejection.
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}

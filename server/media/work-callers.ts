/**
 * Who media work is for: the signed-in user (or the address) of the HTTP request that asked for it,
 * or the server itself for work with no request behind it (scans, analysis, background posters),
 * which all shares one caller. Worker pools (serial-worker.ts) share their workers out by caller,
 * so one caller cannot take every worker, however many hostile pages they ask for.
 *
 * The caller is passed down explicitly (`MediaWork.caller`) from the route that starts the work to
 * SerialWorker.call. Not through an AsyncLocalStorage: on Node 22 one turns on promise hooks for
 * every promise of the process (about 85 ns more per promise on this machine), paid by every route.
 */

/** The caller of background work (no HTTP request behind it). */
export const BACKGROUND_CALLER = 'background';

/** Options of media operations that may run in a worker pool on someone's behalf. */
export interface MediaWork {
  /** Who the work is for (default: the background caller). */
  caller?: string;
}

/**
 * Work asked for by an HTTP request (someone waits for the answer): its reads get one try and a
 * 503 when 7-Zip runs out of time. Analysis and other background work keep their own bounds.
 */
export function isRequestWork(work: MediaWork): boolean {
  return work.caller !== undefined && work.caller !== BACKGROUND_CALLER;
}

/** The caller of a request's work: its signed-in user, or else its address. */
export function requestCaller(userId: string | undefined, address: string): string {
  return userId !== undefined ? `user:${userId}` : `address:${address}`;
}

/** How long a benchmark waits for the server before giving up (a hung run must fail, not stall). */
export const BENCH_WAIT_MS = Number(process.env.BENCH_WAIT_MS ?? 20 * 60_000);

/** Polls `check` every `everyMs` until it holds; throws once `timeoutMs` have passed. */
export async function waitUntil(what: string, check: () => Promise<boolean>, everyMs = 200, timeoutMs = BENCH_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Polls `check` until it holds, for timing how long that took from `since` (a performance.now()):
 * a fixed interval adds up to a whole interval to the figure (100 ms was most of a 30-book scan),
 * and a fine one all the way through puts load on what is being timed. So the wait between checks
 * is a twentieth of the time gone so far, 10 to 100 ms: the end is seen within about 5 % of the time
 * measured (10 ms, plus a check's round trip, for short runs), and a run of seconds is checked about
 * as often as at a fixed 100 ms.
 */
export async function waitUntilTimed(what: string, check: () => Promise<boolean>, since: number, timeoutMs = BENCH_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    const everyMs = Math.min(100, Math.max(10, (performance.now() - since) / 20));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** `promise`, or a rejection naming `what` once `timeoutMs` have passed. */
export async function withTimeLimit<T>(what: string, promise: Promise<T>, timeoutMs = BENCH_WAIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`gave up after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

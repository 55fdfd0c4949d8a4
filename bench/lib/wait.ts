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

/** Pacing for the load drivers: pauses that a stop signal cuts short, and task lists run a few lanes at a time. */

/** Waits `ms`, or less when `stop` fires; its abort listener goes with it, so thousands of pauses pile nothing on the signal. */
export function pause(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      stop.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    stop.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs `tasks` in order, at most `lanes` at a time, as a browser (six connections a host) or OkHttp (five) does. */
export async function limited(lanes: number, tasks: (() => Promise<unknown>)[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, tasks.length) }, async () => {
      while (next < tasks.length) await tasks[next++]!();
    }),
  );
}

/**
 * The one place test code waits on the real clock: it polls a condition until it holds or a time
 * limit passes, and fails naming what it waited for. Tests never sleep a fixed time; they wait
 * for the thing they need (a scan finished, a server listening, the clock past a stored instant).
 * tests/unit/no-fixed-sleeps.test.ts allows timers in this file only.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeoutMs = 30_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms, in vain, for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}


/**
 * Resolves once the clock has moved on from now: whatever is stamped next (by this process or by a
 * server on this machine) gets a strictly later millisecond than anything stamped before the call.
 */
export async function clockTick(): Promise<void> {
  const now = Date.now();
  await pollUntil(`the clock to move on from ${new Date(now).toISOString()}`, () => Date.now() > now, { intervalMs: 1 });
}

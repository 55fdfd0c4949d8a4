import type { FolioContext } from './context.ts';

/**
 * Work a serving process must not do (README "Serving processes"): it writes (a poster drawn and
 * stored, a session refreshed), runs in a worker pool the primary owns (RAR, 7z, PDF, decoding),
 * or keeps state that must be one for the whole server (login throttles, authentication activity).
 * Thrown before any of it starts; the serving process then hands the whole request to the primary,
 * which answers it as if it had come to it directly. Never seen by a client.
 */
export class NeedsPrimary extends Error {
  constructor(what: string) {
    super(`a serving process hands this to the primary: ${what}`);
    this.name = 'NeedsPrimary';
  }
}

/** Throws NeedsPrimary in a serving process, before `what` (work that writes) starts. */
export function requireWriter(ctx: FolioContext, what: string): void {
  if (ctx.servingOnly) throw new NeedsPrimary(what);
}

import { getCurrentUser } from '../../api/auth.ts';
import { getLibraries } from '../../api/libraries.ts';
import type { LibraryDto, UserDto } from '../../api/types.ts';

/**
 * The session's restore (the current user, then the library list), started by the boot module on a
 * cold load of a reader's address, where the app is held until the book's first frame is up (see
 * openingPaint.ts): the startup screen then finds both answers in hand instead of asking after the
 * app has run. Taken once, and only while fresh; anything else asks the server itself.
 */
interface EarlyRestore {
  at: number;
  user: Promise<UserDto>;
  libraries: Promise<LibraryDto[]>;
}

const FRESH_MS = 10_000;

let early: EarlyRestore | null = null;

export function restoreSessionEarly(): void {
  if (early) return;
  const user = getCurrentUser();
  // Only a signed-in visitor may list the libraries: an anonymous one would just get a second 401.
  const libraries = user.then(() => getLibraries());
  // Both are awaited by the startup screen, which reports what failed; unclaimed, they are dropped.
  user.catch(() => {});
  libraries.catch(() => {});
  early = { at: performance.now(), user, libraries };
}

/** The early restore's two answers, if one was started a short while ago; nobody else gets them. */
export function takeEarlySessionRestore(): Pick<EarlyRestore, 'user' | 'libraries'> | null {
  const taken = early;
  early = null;
  return taken && performance.now() - taken.at < FRESH_MS ? taken : null;
}

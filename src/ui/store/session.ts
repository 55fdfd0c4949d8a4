import { proxy } from 'valtio';
import { logout } from '../../api/auth.ts';
import { getLibraries } from '../../api/libraries.ts';
import type { LibraryDto, UserDto } from '../../api/types.ts';

/** Who is logged in and which libraries they see. `me` with an id = authenticated (SPEC §3). */
export interface SessionState {
  me: UserDto | null;
  libraries: LibraryDto[];
  /** Set when the session ended for a reason the login screen should explain. */
  endedReason: string | null;
}

export const session = proxy<SessionState>({ me: null, libraries: [], endedReason: null });

export function isAuthenticated(me: Pick<UserDto, 'id'> | null | undefined): boolean {
  return !!me?.id;
}

export function isAdmin(me: { readonly roles: readonly string[] } | null | undefined): boolean {
  return !!me?.roles.includes('ADMIN');
}

function byName(a: LibraryDto, b: LibraryDto): number {
  return a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });
}

/** `fetched`: the list already asked for (see sessionRestore.ts). */
export async function loadLibraries(fetched?: Promise<LibraryDto[]>): Promise<void> {
  const libraries = await (fetched ?? getLibraries());
  session.libraries = [...libraries].sort(byName);
}

export function addLibraryToSession(library: LibraryDto): void {
  session.libraries = [...session.libraries.filter((l) => l.id !== library.id), library].sort(byName);
}

export function startSession(user: UserDto): void {
  session.me = user;
  session.endedReason = null;
}

/** Logout clears the user even when the server call fails (SPEC §4). */
export async function endSession(reason: string | null = null): Promise<void> {
  try {
    await logout();
  } catch (error) {
    // The local session ends regardless; a dead server must not keep the user "logged in".
    console.warn('The server did not confirm the logout; the session ends here anyway', error);
  } finally {
    session.me = null;
    session.libraries = [];
    session.endedReason = reason;
  }
}

import { proxy, subscribe } from 'valtio';
import { logout } from '../../api/auth.ts';
import { getLibraries } from '../../api/libraries.ts';
import type { LibraryDto, UserDto } from '../../api/types.ts';
import { currentLocale } from '../i18n.ts';
import { localeChoice } from './localeChoice.ts';

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

/**
 * Libraries in the interface language's alphabetical order, not the browser's: "Ärzte" after "Zeitung"
 * in Swedish, between "Apfel" and "Bücher" in German; "Band 10" after "Band 9" everywhere.
 */
function sortedByName(libraries: readonly LibraryDto[]): LibraryDto[] {
  const collator = new Intl.Collator(currentLocale(), { sensitivity: 'base', numeric: true });
  return [...libraries].sort((a, b) => collator.compare(a.name, b.name));
}

/** `fetched`: the list already asked for (see sessionRestore.ts). */
export async function loadLibraries(fetched?: Promise<LibraryDto[]>): Promise<void> {
  const libraries = await (fetched ?? getLibraries());
  session.libraries = sortedByName(libraries);
}

export function addLibraryToSession(library: LibraryDto): void {
  session.libraries = sortedByName([...session.libraries.filter((l) => l.id !== library.id), library]);
}

// A change of language changes the order too.
subscribe(localeChoice, () => {
  const sorted = sortedByName(session.libraries);
  if (sorted.some((library, index) => library !== session.libraries[index])) session.libraries = sorted;
});

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

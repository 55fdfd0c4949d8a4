import { inject } from 'vitest';
import { commands } from 'vitest/browser';
import type { UserDto } from '../../../src/api/types.ts';
import type { SeedSeries } from './folio-commands.ts';

declare module 'vitest/browser' {
  interface BrowserCommands {
    seedLibrary: (name: string, series: SeedSeries[]) => Promise<string>;
    makeFolder: (name: string) => Promise<string>;
    writeImportFolder: (name: string, books: SeedSeries['books'], broken: string[]) => Promise<string>;
    failRequests: (pattern: string, status: number, body: string, method?: string) => Promise<void>;
    restoreRequests: (pattern: string, method?: string) => Promise<void>;
    failedRequests: (pattern: string, method?: string) => Promise<number>;
    logInElsewhere: (email: string, password: string) => Promise<string>;
    actAs: (token: string | null) => Promise<void>;
    callFromNode: (method: string, path: string, body?: string, token?: string) => Promise<{ status: number; body: string }>;
  }
}

/**
 * The browser tests' side of the run's real Folio server (folio-global-setup.ts): it answers on
 * this page's own origin, under /api.
 */

/** Logs this page in as the run's administrator (the session cookie lands on this origin). */
export async function logInAsAdmin(): Promise<UserDto> {
  const { email, password } = inject('folioAdmin');
  const response = await fetch('/api/v2/users/me', {
    headers: { Authorization: `Basic ${btoa(`${email}:${password}`)}`, 'X-Requested-With': 'XMLHttpRequest' },
  });
  if (!response.ok) throw new Error(`logging in as ${email}: HTTP ${response.status}`);
  return (await response.json()) as UserDto;
}

/** A REST call with this page's session, for seeding and checking what the UI did; throws unless 2xx. */
export async function rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { 'X-Requested-With': 'XMLHttpRequest', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A library of generated archives on the server (see folio-commands.ts), analysed: its id. */
export function seedLibrary(name: string, series: SeedSeries[]): Promise<string> {
  return commands.seedLibrary(name, series);
}

/** An empty folder on the server's disk (see folio-commands.ts): its absolute path. */
export function makeFolder(name: string): Promise<string> {
  return commands.makeFolder(name);
}

/** A folder outside the libraries with generated books and broken archives (see folio-commands.ts). */
export function writeImportFolder(name: string, books: SeedSeries['books'], broken: string[]): Promise<string> {
  return commands.writeImportFolder(name, books, broken);
}

/**
 * Answers this file's requests matching `pattern` (and `method`, when given) with `status` and
 * `body`, in the browser, until `restore()`: for answers the real server cannot be made to give on
 * demand. Status 0 gives no answer (the connection is refused). Say in the test why the real server
 * would not do.
 */
export async function failRequests(
  pattern: RegExp,
  status: number,
  body: unknown,
  method?: string,
): Promise<{ answered: () => Promise<number>; restore: () => Promise<void> }> {
  await commands.failRequests(pattern.source, status, JSON.stringify(body), method);
  return {
    answered: () => commands.failedRequests(pattern.source, method),
    restore: () => commands.restoreRequests(pattern.source, method),
  };
}

/**
 * A user of this test file's own, logged in apart from the session every browser file shares
 * (folio-commands.ts `actAs`): until `release()`, this file's requests to the server carry that
 * user's session, so ending it (expiry, logout) leaves the other files logged in.
 */
export async function actAsNewUser(email: string, password: string, roles: string[] = []): Promise<{ user: UserDto; token: string; release: () => Promise<void> }> {
  const user = await rest<UserDto>('POST', '/api/v2/users', { email, password, roles });
  const token = await commands.logInElsewhere(email, password);
  await commands.actAs(token);
  return { user, token, release: () => commands.actAs(null) };
}

/**
 * A REST call sent from Node rather than this page: as the administrator, or as the session
 * `token`. For a file acting as its own user, whose page calls carry that user's session.
 */
export async function callFromNode(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<{ status: number; body: string }> {
  return commands.callFromNode(method, path, options.body === undefined ? undefined : JSON.stringify(options.body), options.token);
}

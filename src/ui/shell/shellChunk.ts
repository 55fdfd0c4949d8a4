import { lazyScreen } from '../routing/lazyScreen.tsx';

/**
 * The app shell and its screens, loaded on demand: the reader's address (and the login page) need
 * none of them, and on a cold load of a book's address evaluating them only competed with the first
 * page's decode. Every other address asks for the chunk before the first render (main.tsx), so its
 * first paint shows the screen as before, never a loading step.
 */
export const ShellOrNotFound = lazyScreen(() => import('./ShellOrNotFound.tsx').then((m) => m.ShellOrNotFound));

/** Addresses rendered without the shell: the reader, the login and start-up pages. */
const WITHOUT_SHELL = /^\/(book\/[^/]+\/read|login|startup)\/?$/;

export function needsShell(pathname: string): boolean {
  return !WITHOUT_SHELL.test(pathname);
}

/** Loads the shell's code now; a failure is logged here and shown by the screen when it renders. */
export function preloadShell(): Promise<void> {
  return ShellOrNotFound.preload().then(
    () => undefined,
    (error: unknown) => console.warn('The app shell could not be loaded ahead of time', error),
  );
}

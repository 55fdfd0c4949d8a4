import type { FrameLocator, Page } from '@playwright/test';
import { ADMIN, addLibraryAndWait, claimAndLogIn, logIn } from './api.ts';

/**
 * The EPUB specs' shared setting: one library of books written for the spec file, served by its own
 * Folio. Returns a beforeEach body: the first test claims the server and adds the library (waiting
 * for its scan), every later one only signs the admin in. `serverUrl` and `root` are read when the
 * first test runs, after the spec's beforeAll started the server.
 */
export function adminWithLibrary(serverUrl: () => string, root: () => string): (args: { page: Page }) => Promise<void> {
  let libraryReady = false;
  return async ({ page }) => {
    const request = page.context().request;
    if (!libraryReady) {
      await claimAndLogIn(request, serverUrl());
      await addLibraryAndWait(request, serverUrl(), root(), 'Books');
      libraryReady = true;
    } else {
      await logIn(request, serverUrl(), ADMIN);
    }
  };
}

/** The EPUB reader's pool of chapter frames. */
export const epubFrames = (page: Page) => page.getByTestId('epub-frames');

/** The frame on screen (the navigator keeps neighbours hidden in the pool). */
export const shownFrame = (page: Page): FrameLocator => page.frameLocator('[data-testid="epub-frames"] iframe:not([style*="visibility: hidden"])');

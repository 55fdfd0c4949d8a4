import { appMayStart } from './reader/openingPaint.ts';
import { openBookFromAddress } from './reader/readerStart.ts';

/**
 * The boot entry: a small module the page loads beside the main bundle (see build/bootEntry.ts) and
 * runs when it arrives or, at the latest, first thing when the main bundle runs (main.tsx imports it
 * first). On a cold load of a reader's address it starts opening the book — the book's descriptions,
 * the start page's bytes and decode, the decode workers — while the main bundle still downloads.
 * It is one module of the main bundle's too: it runs once, and what it started is found started.
 *
 * In a build the page only preloads the main bundle, and this module runs it: at once, or on a cold
 * load of a reader's address once the book's first frame is painted (at most a few hundred ms on; see
 * openingPaint.ts). The development server loads the main bundle itself (there is no preload to run).
 */

/** The main bundle's preload in the built page (build/bootEntry.ts writes it). */
const APP_PRELOAD = 'link[rel="modulepreload"][data-folio-app]';

// Marked for the benchmark's waterfall: when the boot module ran.
performance.mark('folio:boot');
try {
  openBookFromAddress(window.location);
} catch (error) {
  // Opening early is only a head start: the reader opens the book again and reports what fails.
  console.error('The book could not be opened ahead of the app', error);
}
runApp().catch((error: unknown) => console.error('Folio could not start', error));

async function runApp(): Promise<void> {
  // An async module may run while the document's head is still being parsed.
  if (document.readyState === 'loading' && !document.querySelector(APP_PRELOAD)) {
    await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  }
  const preload = document.querySelector<HTMLLinkElement>(APP_PRELOAD);
  if (!preload) return;
  await appMayStart();
  await import(/* @vite-ignore */ preload.href);
}

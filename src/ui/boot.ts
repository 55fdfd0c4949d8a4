import { openBookFromAddress } from './reader/readerStart.ts';

/**
 * The boot entry: a small module the page loads beside the main bundle (see build/bootEntry.ts) and
 * runs when it arrives or, at the latest, first thing when the main bundle runs (main.tsx imports it
 * first). On a cold load of a reader's address it starts opening the book — the book's descriptions,
 * the start page's bytes and decode, the decode workers, the reader's code — while the main bundle
 * still downloads and runs. It is one module of the main bundle's too: it runs once, and what it
 * started is found started.
 */
// Marked for the benchmark's waterfall: when the boot module ran.
performance.mark('folio:boot');
openBookFromAddress(window.location);

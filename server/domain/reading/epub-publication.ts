import type { Book } from '../../db/book-repository.ts';
import type { Media } from '../../db/media-repository.ts';
import { type EpubNavigation, type NavigationProblems, readNavigation } from '../../media/epub-navigation.ts';
import { readingOrder } from '../../media/epub-opf.ts';
import { bookPackage } from '../../media/epub-reader.ts';
import type { MediaWork } from '../../media/work-callers.ts';
import { RecentlyTimedOut, isTransientFailure } from '../../media/transient-errors.ts';
import type { FolioContext } from '../context.ts';
import { bookArchive } from '../book-archive.ts';
import { type EntryBody, readAhead } from '../pages/entry-body.ts';
import { PublicationCache } from './publication-cache.ts';
import { EpubPositions, type SpineResource } from './epub-positions.ts';

/** Text EPUBs get one position per this many bytes of a spine document (as analysis counts pages). */
const BYTES_PER_POSITION = 1024;

export type { EpubPosition, SpineResource } from './epub-positions.ts';

/**
 * What reading the book needs, from its package alone. The navigation is read apart
 * (epubNavigation): positions and progression never wait for, nor fail with, a navigation
 * document that is slow to unpack.
 */
export interface EpubPublication {
  fixedLayout: boolean;
  pageProgression: 'ltr' | 'rtl' | null;
  /** The (linear) spine, as analysis read it. */
  readingOrder: SpineResource[];
  /** Every other manifest item present in the archive (styles, images, fonts, ...). */
  resources: SpineResource[];
  positions: EpubPositions;
}

/** A book's navigation as a manifest gets it. */
export interface NavigationRead {
  navigation: EpubNavigation;
  /**
   * Set when the navigation could not be read now (a 7-Zip time-out, a busy server): the lists are
   * empty for this answer only, nothing is kept, and it is tried again from `retryAfterSeconds` on.
   */
  unavailable?: { reason: string; retryAfterSeconds: number };
}

const NO_NAVIGATION: EpubNavigation = { toc: [], landmarks: [], pageList: [] };
/** When a navigation read failed for a busy server (no time-out window to follow): tried again on the next request after that. */
const BUSY_RETRY_SECONDS = 2;

/**
 * One entry of a book's archive by its exact name (an EPUB resource), with its size; undefined
 * when the archive has no such file. The name is only looked up inside the archive.
 */
export async function openBookEntry(ctx: FolioContext, book: Book, name: string, work: MediaWork = {}): Promise<EntryBody | undefined> {
  const archive = await bookArchive(ctx, book, work);
  const entry = archive.entries().find((e) => e.name === name && !e.isDirectory);
  if (!entry) return undefined;
  return readAhead(await archive.openEntry(name), `resource ${name} of ${book.url}`);
}

/**
 * What a Readium reader needs to know about an EPUB to read it: reading order, other resources and
 * positions (its navigation: epubNavigation). Positions follow the page count analysis gave the book: one per spine document for
 * fixed-layout and image-only EPUBs, one per 1024 bytes of each document otherwise. Kept per book
 * version (publication-cache.ts) and shared between requests: callers must not change it.
 */
export function epubPublication(ctx: FolioContext, book: Book, media: Media, work: MediaWork = {}): Promise<EpubPublication> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new PublicationCache(weightOf)));
  // Read for the request that asked first (others asking meanwhile share it): its package and
  // navigation get a request's bounds (one 7-Zip try, 503), and a failed read is not kept.
  return cache.get(book.id, publicationVersion(book, media), () => readPublication(ctx, book, media, work));
}

/** Another file, or another analysis (its page count and image-only flag shape the positions). */
const publicationVersion = (book: Book, media: Media) =>
  [book.url, book.fileSize, book.fileLastModified, media.lastModified, media.pageCount, media.epubDivinaCompatible].join('\u0000');

/**
 * The book's table of contents, landmarks and page list, kept per book version as the publication
 * is. What was cut or could not be read is logged once per read, with the book. A transient failure
 * (the navigation entry's 7-Zip unpacking ran out of time, now or lately; a busy server) gives empty
 * lists for this answer, logged and marked `unavailable`, and is not kept: the book stays readable
 * (its reading order and positions do not depend on it) and the next manifest after the time-out
 * window reads the navigation again (timed-out-inputs.ts says how that window grows).
 */
export async function epubNavigation(ctx: FolioContext, book: Book, media: Media, work: MediaWork = {}): Promise<NavigationRead> {
  let cache = navigationCaches.get(ctx);
  if (!cache) navigationCaches.set(ctx, (cache = new PublicationCache(navigationWeight)));
  try {
    return { navigation: await cache.get(book.id, publicationVersion(book, media), () => loadNavigation(ctx, book, work)) };
  } catch (error) {
    if (!isTransientFailure(error)) throw error;
    const retryAfterSeconds = error instanceof RecentlyTimedOut ? error.retryAfterSeconds : BUSY_RETRY_SECONDS;
    const reason = error instanceof Error ? error.message : String(error);
    ctx.logger.warn({ err: error, book: book.id, file: book.url, retryAfterSeconds }, 'EPUB navigation not read now: the manifest is sent without a table of contents');
    return { navigation: NO_NAVIGATION, unavailable: { reason, retryAfterSeconds } };
  }
}

async function loadNavigation(ctx: FolioContext, book: Book, work: MediaWork): Promise<EpubNavigation> {
  const archive = await bookArchive(ctx, book, work);
  const problems: NavigationProblems = [];
  const navigation = await readNavigation(archive, await bookPackage(archive), problems);
  if (problems.length > 0) ctx.logger.warn({ book: book.id, file: book.url, problems }, `EPUB navigation read with losses: ${problems.join('; ')}`);
  return navigation;
}

/** One cache of each per server (tests run several in a process). */
const caches = new WeakMap<FolioContext, PublicationCache<EpubPublication>>();
const navigationCaches = new WeakMap<FolioContext, PublicationCache<EpubNavigation>>();

function weightOf(publication: EpubPublication): number {
  const { positions, readingOrder, resources } = publication;
  // Positions are held as one run per spine document (epub-positions.ts), whatever their number.
  return positions.documents + readingOrder.length + resources.length;
}

const navigationWeight = (navigation: EpubNavigation) => navigation.toc.length + navigation.landmarks.length + navigation.pageList.length;

async function readPublication(ctx: FolioContext, book: Book, media: Media, work: MediaWork): Promise<EpubPublication> {
  const archive = await bookArchive(ctx, book, work);
  const pkg = await bookPackage(archive);
  const sizes = new Map(archive.entries().filter((e) => !e.isDirectory).map((e) => [e.name, e.uncompressedSize]));
  const spine = readingOrder(pkg, sizes).map(({ path, mediaType }) => ({ path, mediaType }));
  const inSpine = new Set(spine.map((item) => item.path));
  const resources = pkg.manifest
    .filter((item) => !inSpine.has(item.path) && sizes.has(item.path))
    .map(({ path, mediaType }) => ({ path, mediaType }));

  const onePerDocument = pkg.fixedLayout || media.epubDivinaCompatible;
  const counts = spine.map((item) => (onePerDocument ? 1 : Math.max(1, Math.ceil((sizes.get(item.path) ?? 0) / BYTES_PER_POSITION))));
  const positions = new EpubPositions(spine, counts);

  return {
    fixedLayout: pkg.fixedLayout,
    pageProgression: pkg.pageProgression,
    readingOrder: spine,
    resources,
    positions,
  };
}

import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { MediaWork } from './work-callers.ts';

/** One entry of a book container (archive member, or a synthetic entry for formats like PDF). */
export interface BookEntry {
  /** Name inside the container. An identifier only: never joined to a filesystem path. */
  name: string;
  uncompressedSize: number;
  isDirectory: boolean;
}

/**
 * An opened book file; reads entries on demand, never the whole file at once. Reads take `work`:
 * who they are for (work-callers.ts), so formats read in a worker pool (RAR, 7z, PDF) share its
 * workers out by caller; the background caller when absent.
 */
export interface OpenedBook {
  entries(): readonly BookEntry[];
  /** Streams one entry's bytes. */
  openEntry(name: string, work?: MediaWork): Promise<Readable>;
  /** At most `maxBytes` from the start of an entry (header sniffing). */
  readPrefix(name: string, maxBytes: number, work?: MediaWork): Promise<Buffer>;
  /**
   * The whole entry read directly into `target` (no stream stages) where the format allows it
   * (zip: stored and deflated entries); returns the part of `target` it fills. Undefined when only
   * `openEntry` can read it or when it is larger than `target`.
   */
  readWhole?(name: string, target: Buffer, work?: MediaWork): Promise<Buffer | undefined>;
  /**
   * Set by formats that can only hand out an entry whole, in memory (RAR, 7z): their streams are a
   * buffer already, so their pages are read through `readWhole` against the archive pool's budget
   * of bytes held, never held outside it for as long as a slow client takes.
   */
  readonly entriesInMemory?: boolean;
  /**
   * The same for some entries only (zip: those of compression methods 7-Zip unpacks whole,
   * zip-entry-methods.ts), asked once per entry when the book is opened.
   */
  entryInMemory?(name: string): boolean;
  /**
   * How many entries analysis may read at once (random-access formats; 1 when unset). Reading a
   * few page headers at a time overlaps their I/O waits, so analysis is bound by the CPU instead.
   */
  readonly parallelReads?: number;
  /**
   * The identity (file-identity.ts) of the file this book reads through its own descriptor, as
   * that descriptor sees it now: one fstat. The archive pool compares it on every use of a cached
   * handle, so a file rewritten in place is never read through the listing of its former bytes.
   */
  descriptorIdentity?(): string;
  /**
   * Why the listing ended before the archive did (RAR: a file cut short, a header that fails its
   * CRC). The entries listed are those read up to there; whatever followed is lost, so analysis
   * says ERR_1007 even when every listed entry reads.
   */
  readonly damage?: string;
  close(): void;
  /**
   * Formats whose pages are not simply their image entries (PDF, EPUB) describe the book here;
   * analysis then uses this instead of sniffing every entry.
   */
  describe?(withDimensions: boolean): Promise<DescribedBook>;
  /** Formats that draw pages on request (PDF): one page as an image fitting the request. */
  renderPage?(fileName: string, request: PageRenderRequest, work?: MediaWork): Promise<Buffer>;
  /** The page exactly as stored when that is not an entry's bytes (PDF: a one-page PDF). */
  rawPage?(fileName: string, work?: MediaWork): Promise<{ bytes: Buffer; mediaType: string }>;
  /** A declared cover image outside the pages (EPUB), for posters of books without page images. */
  cover?(work?: MediaWork): Promise<Readable | undefined>;
}

export interface PageRenderRequest {
  maxWidth?: number;
  maxHeight?: number;
  format: 'jpeg' | 'png';
}

export interface DescribedPage {
  fileName: string;
  mediaType: string;
  width: number | null;
  height: number | null;
  fileSize: number | null;
}

/** A format's own analysis (see OpenedBook.describe). */
export interface DescribedBook {
  pages: DescribedPage[];
  files: { fileName: string; mediaType: string | null; fileSize: number }[];
  failedEntries: string[];
  /**
   * Of those, the entries whose bytes could not be read at all (not just an image header that
   * lies): a book whose every page is among them has no page to show.
   */
  unreadableEntries?: string[];
  /**
   * Files the book's own index lists that the archive does not hold (an EPUB manifest's lost
   * items): what is there still reads, and the book says ERR_1033 as Komga's does.
   */
  missingEntries?: string[];
  /** Page count when it differs from pages.length (a text EPUB: an estimate, no page images). */
  pageCount?: number;
  /** EPUB whose spine is all images: readable page by page like a comic. */
  epubDivinaCompatible?: boolean;
}

/** How a format is read: pages of images (DIVINA), a PDF, or an EPUB publication. */
export type MediaProfile = 'DIVINA' | 'PDF' | 'EPUB';

/** One implementation per container format (zip first; rar, 7z, pdf, epub later). */
export interface BookReader {
  /** Media type Komga reports for books of this format (MediaDto.mediaType). */
  readonly mediaType: string;
  /** MediaDto.mediaProfile for this format. */
  readonly mediaProfile: MediaProfile;
  /** Lower-case extensions (no dot) of files the scanner treats as books of this format. */
  readonly extensions: readonly string[];
  /** True when the first bytes of a file look like this format. */
  matchesSignature(head: Buffer): boolean;
  /** Opens a book (its listing may be read in a worker pool for `work.caller`). */
  open(filePath: string, work?: MediaWork): Promise<OpenedBook>;
  /**
   * Opens the book from the file its signature was just read from, taking the descriptor over:
   * it is closed with the book, or at once when opening fails. Formats without it are opened
   * again by path. `size`: the file's size, from the stat the signature check made of the descriptor.
   */
  openFile?(file: FileHandle, filePath: string, size: number, work?: MediaWork): Promise<OpenedBook>;
}

/**
 * Most entries an archive may list. Every entry's record is held while a book is open, so a
 * listing of millions (a broken or hostile zip of empty entries: 300,000 take 30 MB on disk and
 * 400 MB of memory) could take the server down; no real book comes near it.
 */
export const MAX_ARCHIVE_ENTRIES = 100_000;

/** An analysis failure carrying a Komga error code (REFERENCE §8), e.g. ERR_1001. */
export class MediaError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaError';
    this.code = code;
  }
}

/**
 * The analysis of a whole book went past a bound on its total work (analysis-bounds.ts): the file's
 * doing, not one entry's, so the analysis ends (the book ERROR) instead of marking an entry failed.
 */
export class AnalysisTooCostly extends MediaError {
  constructor(message: string) {
    super('ERR_1008', message);
    this.name = 'AnalysisTooCostly';
  }
}

/** Reads an entry stream into memory up to a limit, then stops the stream. */
export function collectPrefix(stream: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks, length).subarray(0, maxBytes));
    };
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      chunks.push(chunk);
      length += chunk.length;
      if (length >= maxBytes) {
        finish();
        stream.destroy();
      }
    });
    stream.on('end', finish);
    stream.on('error', (error) => {
      if (!done) {
        done = true;
        reject(error);
      }
    });
  });
}

import { stat } from 'node:fs/promises';
import { isUnusablePath, rethrowUnless } from '../../fs-errors.ts';
import { openInsideItsLibrary } from '../library/library-paths.ts';

/** A series.json larger than this is not a Mylar series document: it is not read at all. */
const MAX_SERIES_JSON_BYTES = 1024 * 1024;
/** Text kept at most per instance (thousands of series of a few KiB); past it, files are read each time. */
const MAX_KEPT_CHARS = 16 * 1024 * 1024;

/** The result of a filesystem call, or null when the path cannot be used (missing, not permitted…). */
async function unlessUnusable<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    rethrowUnless(error, isUnusablePath);
    return null;
  }
}

/** Names one version of a file: a file replaced or edited gets another. */
const identityOf = (info: { ino: number; size: number; mtimeMs: number; ctimeMs: number }): string =>
  `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;

interface Kept {
  text: string;
  identity: string;
}

/**
 * The series.json files of one scan and the analyses it queues. Every analysed book applies its
 * series' file again (after the book's ComicInfo, so that series.json wins), and each used to read
 * it: a 20-book folder read it 21 times per scan. Here each folder's file is read once; later asks
 * only `stat` it, and a file that changed since (size, dates or inode) is read again: an edit made
 * while the analyses wait is applied as before, and a later scan's reading is never undone by an
 * earlier scan's analyses still queued. Used as well by an administrator's analyse or metadata
 * refresh of a library or a series, whose books' tasks run side by side: a file being read is not
 * read a second time by another task meanwhile.
 */
export class SeriesJsonReads {
  readonly #kept = new Map<string, Kept>();
  /** Reads under way, by path, with the identity of the file they read. */
  readonly #reading = new Map<string, { identity: string; text: Promise<string | null> }>();
  #keptChars = 0;

  /**
   * The file's text; null when there is no regular file of at most MAX_SERIES_JSON_BYTES there.
   * Read through the descriptor checked to lie inside `libraryRoot` (openInsideItsLibrary): a file
   * leading out of it throws OutsideLibraryError.
   */
  async read(path: string, libraryRoot: string): Promise<string | null> {
    // No series.json in this folder (or not one we may read): nothing to import.
    const info = await unlessUnusable(stat(path));
    if (info === null) return null;
    // Not a regular file (a folder, a pipe that would block the read forever) or too large to be one.
    if (!info.isFile() || info.size > MAX_SERIES_JSON_BYTES) return null;
    const identity = identityOf(info);
    const kept = this.#kept.get(path);
    if (kept?.identity === identity) return kept.text;
    // Analyses run side by side: those that ask while the same file is being read wait for that read.
    const reading = this.#reading.get(path);
    if (reading?.identity === identity) return reading.text;
    const text = this.#readAndKeep(path, libraryRoot, identity, info.size);
    this.#reading.set(path, { identity, text });
    try {
      return await text;
    } finally {
      if (this.#reading.get(path)?.text === text) this.#reading.delete(path);
    }
  }

  async #readAndKeep(path: string, libraryRoot: string, identity: string, size: number): Promise<string | null> {
    // Null when it went between the stat and the read.
    const file = await unlessUnusable(openInsideItsLibrary([libraryRoot], path));
    if (file === null) return null;
    let bytes: Buffer;
    let opened: string;
    try {
      // What was opened is what is read: it may not be what the path's stat saw a moment ago.
      const info = await file.stat();
      if (!info.isFile() || info.size > MAX_SERIES_JSON_BYTES) return null;
      opened = identityOf(info);
      bytes = await file.readFile();
    } finally {
      await file.close();
    }
    if (bytes.length > MAX_SERIES_JSON_BYTES) return null;
    const text = bytes.toString('utf8');
    // Replaced or changed while being read: used this once, not kept under an identity not its own.
    if (opened === identity && bytes.length === size) this.#keep(path, { text, identity });
    return text;
  }

  #keep(path: string, entry: Kept): void {
    const previous = this.#kept.get(path);
    if (previous) {
      this.#kept.delete(path);
      this.#keptChars -= previous.text.length;
    }
    if (this.#keptChars + entry.text.length > MAX_KEPT_CHARS) return;
    this.#kept.set(path, entry);
    this.#keptChars += entry.text.length;
  }
}

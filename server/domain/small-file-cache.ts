import { createHash } from 'node:crypto';
import { type FileHandle, open as openPath, stat } from 'node:fs/promises';
import { fileSlots } from '../media/file-slots.ts';

/** A small file's bytes and identity, as last read. */
export interface CachedFile {
  bytes: Buffer;
  size: number;
  mtime: Date;
  /** `"0<md5 of path, mtime and size>"`: changes whenever the file does. */
  etag: string;
  /** `mtime` as an HTTP date (Last-Modified), written once per kept file rather than per response. */
  httpDate: string;
}

interface Entry {
  file: CachedFile;
  /** The stat's own mtimeMs (fractional), to compare like with like. */
  mtimeMs: number;
  checkedAt: number;
  /** The version the caller named when the file was last checked (see `read`). */
  version?: string;
}

/** Files larger than this are streamed from disk each time, not kept. */
const MAX_FILE_BYTES = 512 * 1024;
/** Bytes kept at most, least recently used first out. */
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
/** A kept file is trusted this long before its size and date are checked again. */
const TRUST_MS = 1000;

/**
 * Posters and thumbnails (tens of kilobytes, asked for by every book card of every screen) kept in
 * memory with their ETag, so serving one costs no open/read/close and no hashing: only a `stat` at
 * most once a second per file to notice a replaced or deleted file. Files are written once under new
 * names or replaced whole, so a second of staleness is the most a reader can see.
 */
export class SmallFileCache {
  #entries = new Map<string, Entry>();
  #bytes = 0;

  /**
   * The file's bytes and identity; null when it does not exist (or is too large to keep: see `keep`).
   * A caller that knows which version of the file it wants (a poster's database record, whose id or
   * date changes whenever the server writes the file again) names it as `version`: a file kept under
   * that version is served without even the once-a-second `stat`, and a file kept under another
   * version is checked at once (a poster drawn again is served on the next request). `open` opens
   * the file to read its bytes (a library file checked by what was opened: openInsideItsLibrary).
   */
  async read(path: string, now = Date.now(), version?: string, open: () => Promise<FileHandle> = () => openPath(path, 'r')): Promise<CachedFile | null> {
    const known = this.#entries.get(path);
    // A named version decides alone: another version than the one kept is checked at once.
    if (known && (version !== undefined ? known.version === version : now - known.checkedAt < TRUST_MS)) {
      this.#touch(path, known);
      return known.file;
    }
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.#forget(path);
        return null;
      }
      throw error;
    }
    if (known && known.file.size === info.size && known.mtimeMs === info.mtimeMs) {
      known.checkedAt = now;
      if (version !== undefined) known.version = version;
      this.#touch(path, known);
      return known.file;
    }
    this.#forget(path);
    const etag = `"0${createHash('md5').update(`${path}\u0000${info.mtimeMs}\u0000${info.size}`).digest('hex')}"`;
    if (info.size > MAX_FILE_BYTES) return { bytes: Buffer.alloc(0), size: info.size, mtime: info.mtime, etag, httpDate: info.mtime.toUTCString() };
    const bytes = await readOpened(await fileSlots.openHandle(open));
    // Replaced between the stat and the read: keep nothing, serve what was read under a fresh identity.
    if (bytes.length !== info.size) {
      const mtime = new Date(now);
      return { bytes, size: bytes.length, mtime, etag: `"0${createHash('md5').update(bytes).digest('hex')}"`, httpDate: mtime.toUTCString() };
    }
    const file = { bytes, size: info.size, mtime: info.mtime, etag, httpDate: info.mtime.toUTCString() };
    this.#entries.set(path, { file, mtimeMs: info.mtimeMs, checkedAt: now, version });
    this.#bytes += bytes.length;
    this.#evict();
    return file;
  }

  /**
   * The file kept under `version` (see `read`), without waiting: what `read` would answer from
   * memory for that version; undefined when it would have to look at the disk.
   */
  peek(path: string, version: string): CachedFile | undefined {
    const known = this.#entries.get(path);
    if (!known || known.version !== version) return undefined;
    this.#touch(path, known);
    return known.file;
  }

  /** Whether `file` holds the bytes (false for files too large to keep: stream them from disk). */
  static holdsBytes(file: CachedFile): boolean {
    return file.bytes.length === file.size;
  }

  #touch(path: string, entry: Entry): void {
    this.#entries.delete(path);
    this.#entries.set(path, entry);
  }

  #forget(path: string): void {
    const entry = this.#entries.get(path);
    if (!entry) return;
    this.#entries.delete(path);
    this.#bytes -= entry.file.bytes.length;
  }

  #evict(): void {
    for (const [path] of this.#entries) {
      if (this.#bytes <= MAX_TOTAL_BYTES) return;
      this.#forget(path);
    }
  }
}

/** An opened file's bytes; the file is closed (and its slot given back) after. */
async function readOpened(file: FileHandle): Promise<Buffer> {
  try {
    return await file.readFile();
  } finally {
    await file.close();
  }
}

/** The server's one cache of small files (posters, thumbnails). */
export const smallFiles = new SmallFileCache();

import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import type { Library } from '../../db/library-repository.ts';
import { naturalCompare } from '../../media/natural-sort.ts';
import { BOOK_READERS, bookExtension } from '../../media/readers.ts';
import { isPermissionDenied, isUnusablePath, rethrowUnless } from '../../fs-errors.ts';
import { OutsideLibraryError, assertInsideItsLibrary } from './library-paths.ts';

// What a scan finds on disk (series folders, their book files and artwork), before it looks at
// the database: scanner.ts compares this with what is stored.

export interface FoundBook {
  path: string;
  name: string;
  size: number;
  mtime: number;
}
export interface FoundSeries {
  path: string;
  name: string;
  mtime: number;
  books: FoundBook[];
  /** Image files beside the books (candidate local artwork). */
  images: string[];
  /** A book of the oneshots directory: a series of its own, `path` being the book file. */
  oneshot?: boolean;
}

/** What a walk found, and the folders it could not look into. */
export interface WalkResult {
  series: FoundSeries[];
  /**
   * Folders we may not read (EACCES/EPERM on listing them, or on looking at a book file in them):
   * whatever is stored under them is unknown, not gone.
   */
  unreadable: string[];
}

/**
 * A file or folder name as compared with a name typed in the settings or another file's name:
 * without regard to case, and composed (NFC). macOS writes names decomposed (NFD: "e" and the
 * accent apart) to the shares it mounts, where a browser sends what was typed composed; the same
 * name written either way is one name.
 */
export function comparableName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

const ARTWORK_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'webp', 'gif', 'avif']);

/** Extensions the library wants scanned (cbz/zip when scanCbx; more formats as readers arrive). */
export function scannedExtensions(library: Library): Set<string> {
  const out = new Set<string>();
  for (const reader of BOOK_READERS) {
    const wanted =
      (reader.mediaProfile === 'DIVINA' && library.scanCbx) ||
      (reader.mediaProfile === 'PDF' && library.scanPdf) ||
      (reader.mediaProfile === 'EPUB' && library.scanEpub);
    if (wanted) for (const ext of reader.extensions) out.add(ext);
  }
  return out;
}

/**
 * Library option oneshotsDirectory: every book directly inside that folder is a one-shot, a series
 * of its own. The option names the folder by its path (absolute or relative to the root) or by
 * its name alone (any folder so named), without regard to case or composition (comparableName).
 */
function isOneshotsDirectory(library: Library, dir: string): boolean {
  const wanted = library.oneshotsDirectory?.trim().replace(/[\\/]+$/, '');
  if (!wanted) return false;
  const candidates = [dir, relative(library.root, dir), basename(dir)].map(comparableName);
  return candidates.includes(comparableName(wanted));
}

/**
 * The images whose file name starts with a given name (a one-shot's artwork: `<book>.jpg`,
 * `<book>-cover.png`…), found by binary search in the names sorted once: a oneshots folder of
 * thousands of books each with its images was otherwise matched book by book against every image.
 */
export function imagesByNamePrefix(images: string[]): (name: string) => string[] {
  const sorted = images.map((path, index) => ({ key: comparableName(basename(path)), path, index })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return (name) => {
    const prefix = comparableName(name);
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]!.key < prefix) low = middle + 1;
      else high = middle;
    }
    const own: { path: string; index: number }[] = [];
    for (let i = low; i < sorted.length && sorted[i]!.key.startsWith(prefix); i++) own.push(sorted[i]!);
    // In the folder's order, as before.
    return own.sort((a, b) => a.index - b.index).map((image) => image.path);
  };
}

/** Whether a path leads to a regular file (false for pipes, devices, folders and dangling links). */
async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    rethrowUnless(error, isUnusablePath);
    return false;
  }
}

/** A symlinked file counts only when its target lies inside the library root (README "Security"). */
async function linkStaysInside(root: string, path: string): Promise<boolean> {
  try {
    await assertInsideItsLibrary([root], path);
    return true;
  } catch (error) {
    rethrowUnless(error, (e) => e instanceof OutsideLibraryError);
    return false;
  }
}

/**
 * Walks the library folder: every folder directly holding books is a series named after the
 * folder, each book file a book named after the file. Hidden entries and excluded folder names are
 * skipped; symlinked folders are not followed (no cycles, no escaping the root); symlinked files
 * are taken only when they point inside the root. Book files whose names are not UTF-8 cannot be
 * opened (the name read back is not theirs): each is reported to `onUnreadableName`. Folders
 * we may not read are listed apart (WalkResult.unreadable), not taken for empty.
 */
export async function walk(library: Library, onUnreadableName: (path: string) => void = () => undefined): Promise<WalkResult> {
  const extensions = scannedExtensions(library);
  const exclusions = new Set(library.scanDirectoryExclusions.map(comparableName));
  const found: FoundSeries[] = [];
  const unreadable: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      // Permission denied: its books are there as far as we know. Vanished (or not a folder any
      // more): it holds no books. Anything else fails the scan.
      if (isPermissionDenied(error)) {
        unreadable.push(dir);
        return;
      }
      rethrowUnless(error, isUnusablePath);
      return;
    }
    let denied = false;
    const books: FoundBook[] = [];
    const images: string[] = [];
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!exclusions.has(comparableName(entry.name))) subdirs.push(full);
        continue;
      }
      if (!(entry.isFile() || entry.isSymbolicLink())) continue;
      if (entry.isSymbolicLink() && !(await linkStaysInside(library.root, full))) continue;
      if (ARTWORK_EXTENSIONS.has(bookExtension(entry.name))) {
        // A link may lead to a named pipe or a device, where reading the artwork would wait for ever.
        if (entry.isFile() || (await isRegularFile(full))) images.push(full);
        continue;
      }
      if (!extensions.has(bookExtension(entry.name))) continue;
      try {
        const info = await stat(full);
        if (!info.isFile()) continue;
        books.push({ path: full, name: basename(entry.name, extname(entry.name)), size: info.size, mtime: Math.floor(info.mtimeMs) });
      } catch (error) {
        // A folder we may list but not search (no x permission): none of its files can be looked at.
        if (isPermissionDenied(error)) {
          denied = true;
          continue;
        }
        // Vanished between readdir and stat (or a dangling link): treat as absent.
        rethrowUnless(error, isUnusablePath);
        // A name that is not UTF-8 comes back with U+FFFD in place of its bytes, and no file has
        // that name: the book is there but cannot be opened by name. Said, rather than left unseen.
        if (entry.name.includes('\uFFFD') && (error as NodeJS.ErrnoException).code === 'ENOENT') onUnreadableName(full);
      }
    }
    if (denied) unreadable.push(dir);
    if (books.length > 0 && isOneshotsDirectory(library, dir)) {
      const imagesOf = imagesByNamePrefix(images);
      for (const book of books) {
        const own = imagesOf(book.name);
        found.push({ path: book.path, name: book.name, mtime: book.mtime, books: [book], images: own, oneshot: true });
      }
    } else if (books.length > 0) {
      const info = await stat(dir);
      // scanForceModifiedTime: some file systems (network shares) leave a folder's time alone when
      // its files change, so the newest book time counts as the folder's.
      const mtime = Math.floor(library.scanForceModifiedTime ? Math.max(info.mtimeMs, ...books.map((b) => b.mtime)) : info.mtimeMs);
      found.push({ path: dir, name: basename(dir), mtime, books, images });
    }
    for (const sub of subdirs.sort(naturalCompare)) await visit(sub);
  };
  await visit(library.root);
  return { series: found, unreadable };
}

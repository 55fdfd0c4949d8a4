import { constants } from 'node:fs';
import { copyFile, link, lstat, rename, rm, stat } from 'node:fs/promises';
import { isMissingFile, rethrowUnless } from '../../fs-errors.ts';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import type { FolioContext } from '../context.ts';
import { OutsideLibraryError, entryInsideLibrary, makeFolderInsideLibrary } from '../library/library-paths.ts';
import { scanLibrary } from '../library/scanner.ts';
import { scannedExtensions } from '../library/library-walk.ts';
import { detectReader } from '../../media/analyse-container.ts';
import { MediaError } from '../../media/book-reader.ts';
import { bookExtension } from '../../media/readers.ts';
import { submitBookAnalysis } from '../tasks/library-tasks.ts';

export interface BookImportRequest {
  sourceFile: string;
  seriesId: string;
  upgradeBookId?: string | null;
  destinationName?: string | null;
}

/**
 * How the file reaches the series folder, as Komga names it: MOVE renames it (copy then delete
 * across file systems), COPY writes a separate copy, HARDLINK links it and falls back to a copy
 * where links are impossible (another file system).
 */
export const COPY_MODES = ['MOVE', 'COPY', 'HARDLINK'] as const;
export type CopyMode = (typeof COPY_MODES)[number];

export class ImportError extends Error {
  readonly code: string;
  constructor(code: string, message = code) {
    super(message);
    this.code = code;
  }
}

async function checkIsBook(ctx: FolioContext, libraryId: string, source: string): Promise<void> {
  const library = ctx.repos.libraries.findById(libraryId);
  if (!library || !scannedExtensions(library).has(bookExtension(source))) {
    throw new ImportError('ERR_1022', `Not a book this library scans: ${basename(source)}`);
  }
  try {
    await detectReader(source);
  } catch (error) {
    if (error instanceof MediaError) throw new ImportError('ERR_1022', `Not a readable book (${error.code}): ${basename(source)}`);
    throw error;
  }
}

const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

/** A file an import has put in its series folder, still to be scanned and recorded (registerImportedBook). */
export interface PlacedImport {
  libraryId: string;
  seriesId: string;
  destination: string;
  source: string;
  upgrade: boolean;
}

/**
 * Brings one outside file into a series folder (REFERENCE §8 ERR_1018–1022) by its copy mode,
 * optionally replacing an existing book of the series ("upgrade",
 * which keeps that book's id and reading progress). The library is then rescanned so the book
 * appears, and a BookImported history event records it; returns the imported book's id.
 */
export async function importBook(ctx: FolioContext, request: BookImportRequest, copyMode: CopyMode): Promise<string> {
  return registerImportedBook(ctx, await placeImportedBook(ctx, request, copyMode));
}

/**
 * The first half of an import: the checks and the file written in its series folder. Once it has
 * returned, the source may be gone (MOVE) and the destination taken, so an import put off after it
 * (a locked database during the scan) must go on from registerImportedBook, not start again.
 */
export async function placeImportedBook(ctx: FolioContext, request: BookImportRequest, copyMode: CopyMode): Promise<PlacedImport> {
  const source = resolve(request.sourceFile);
  const info = await stat(source).catch((error: unknown) => {
    // Not there is the caller's mistake (ERR_1018); anything else (a link loop, I/O) is logged too.
    if (!isMissingFile(error)) ctx.log(`import source ${source} cannot be read`, error);
    return undefined;
  });
  if (!info?.isFile()) throw new ImportError('ERR_1018');
  if (ctx.repos.libraries.findAll().some((l) => inside(source, l.root))) throw new ImportError('ERR_1019');
  const series = ctx.repos.series.findById(request.seriesId);
  if (!series || series.deletedDate !== null) throw new ImportError('ERR_1022', 'Unknown series');

  let destination: string;
  let replaced: string | undefined;
  if (request.upgradeBookId) {
    const old = ctx.repos.books.findById(request.upgradeBookId);
    if (!old || old.seriesId !== series.id) throw new ImportError('ERR_1020');
    // The new file takes the old one's place, with the new file's extension.
    destination = join(dirname(old.url), `${basename(old.url, extname(old.url))}${extname(source)}`);
    if (destination !== old.url) replaced = old.url;
  } else {
    const name = (request.destinationName ?? '').trim() || basename(source, extname(source));
    // The name is a file name, never a path.
    if (name.includes('/') || name.includes('\\') || name === '.' || name === '..' || name.includes('\0')) {
      throw new ImportError('ERR_1021', 'Invalid destination name');
    }
    destination = join(series.url, `${name}${extname(source)}`);
    if (await entryExists(destination)) throw new ImportError('ERR_1021');
  }
  if (!inside(destination, series.url)) throw new ImportError('ERR_1021', 'Invalid destination');
  // Before anything is moved or replaced: a file that is not a book this library reads would be
  // taken out of its folder (MOVE) or replace a book (upgrade) and then fail to scan.
  await checkIsBook(ctx, series.libraryId, source);

  // The series folder as it really is now: one swapped for a link leading out of the library since
  // the scan would have the book written (or an upgrade's old file removed) outside it.
  const root = ctx.repos.libraries.findById(series.libraryId)?.root ?? '';
  const outsideIsRefused = (error: unknown): never => {
    if (error instanceof OutsideLibraryError) throw new ImportError('ERR_1021', 'Destination outside the library');
    throw error;
  };
  const real = async (path: string) => entryInsideLibrary(root, path).catch(outsideIsRefused);
  // A series folder gone since the scan is made again, one folder at a time and never through a
  // link leading out of the library (mkdir -p followed one and left empty folders out there).
  await makeFolderInsideLibrary(root, dirname(destination)).catch(outsideIsRefused);
  // Written at the checked path; the book's address stays the one the scan gives it (the root as configured).
  const target = await real(destination);
  if (replaced) await rm(await real(replaced), { force: true });
  const temporary = `${target}.folio-import`;
  // Whatever sits at the temporary name (an import cut short, or a symlink someone who can write
  // in the library's folder planted there) is removed, never written through: copyFile follows a
  // link at its target and wrote the book over a file outside the library. rm unlinks a link itself;
  // the copies are exclusive, so one planted again meanwhile makes the import fail instead.
  await rm(temporary, { force: true });
  const copy = () => copyFile(source, temporary, constants.COPYFILE_EXCL);
  if (copyMode === 'MOVE') {
    await rename(source, temporary).catch(async () => {
      await copy();
      await rm(source);
    });
  } else if (copyMode === 'COPY') {
    await copy();
  } else {
    await link(source, temporary).catch(copy);
  }
  await rename(temporary, target);
  return { libraryId: series.libraryId, seriesId: series.id, destination, source, upgrade: Boolean(request.upgradeBookId) };
}

/**
 * The second half of an import: the library scanned so the placed file becomes a book, and the
 * BookImported history row. Both may be run again after a failure the task queue puts off: the scan
 * finds the book it already added, and the row is written once, at the end.
 */
export async function registerImportedBook(ctx: FolioContext, placed: PlacedImport): Promise<string> {
  const { toAnalyse } = await scanLibrary(ctx, placed.libraryId);
  for (const bookId of toAnalyse) submitBookAnalysis(ctx, bookId);
  const imported = ctx.repos.books.findByLibrary(placed.libraryId).find((b) => b.url === placed.destination && b.deletedDate === null);
  if (!imported) throw new ImportError('ERR_1022');
  ctx.repos.history.insert({
    type: 'BookImported',
    bookId: imported.id,
    seriesId: placed.seriesId,
    properties: { name: placed.destination, source: placed.source, upgrade: placed.upgrade ? 'Yes' : 'No' },
  });
  return imported.id;
}

/**
 * Whether anything (a file, a folder, a link even a dangling or looping one) is at `path`: an import
 * never replaces it. Only "nothing there" means free; another failure is no answer and is thrown.
 */
async function entryExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    rethrowUnless(error, isMissingFile);
    return false;
  }
}

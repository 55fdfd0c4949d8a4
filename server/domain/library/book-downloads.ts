import { stat } from 'node:fs/promises';
import { isUnusablePath, rethrowUnless } from '../../fs-errors.ts';
import { type WrittenZip, type ZipFileMember, storedZipOfFiles, uniqueEntryNames } from '../../media/zip-writer.ts';
import type { FolioContext } from '../context.ts';
import { OutsideLibraryError, assertInsideItsLibrary, libraryRoots, openInsideItsLibrary } from './library-paths.ts';

export interface DownloadFile {
  /** Absolute path of a book file. */
  path: string;
  /** Wanted name inside the zip; repeated names get " (2)", " (3)"… before the extension. */
  entryName: string;
}

/**
 * Several book files as one zip written while it is sent (whole-series and read-list downloads).
 * Files that vanished since the last scan are left out rather than failing the whole download,
 * and so are files whose real path leaves their library (symlinks).
 */
export async function zipOfBookFiles(ctx: FolioContext, files: DownloadFile[], userId?: string): Promise<WrittenZip> {
  const roots = libraryRoots(ctx);
  const names = uniqueEntryNames(files.map((f) => f.entryName));
  const members: ZipFileMember[] = [];
  for (const [index, file] of files.entries()) {
    let info;
    try {
      await assertInsideItsLibrary(roots, file.path);
      info = await stat(file.path);
    } catch (error) {
      // A file gone since the listing, or outside its library, is left out of the archive.
      rethrowUnless(error, (e) => isUnusablePath(e) || e instanceof OutsideLibraryError);
      continue;
    }
    if (!info.isFile()) continue;
    // Read through the descriptor checked when it is opened: a link swapped in since this look is
    // refused then (the download stops short) rather than followed.
    members.push({ path: file.path, entryName: names[index]!, size: info.size, mtime: info.mtime, open: () => openInsideItsLibrary(roots, file.path) });
  }
  return storedZipOfFiles(members, userId);
}

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import yazl from 'yazl';
import { attachmentDisposition } from './file-download.ts';
import { isUnusablePath, rethrowUnless } from '../fs-errors.ts';
import { OutsideLibraryError, assertInsideItsLibrary } from '../domain/library/library-paths.ts';

export interface ZipMember {
  /** Absolute path of the file on disk. */
  path: string;
  /** Name of the entry inside the zip. */
  entryName: string;
}

/**
 * Sends several book files as one zip built on the fly. Entries are stored, not deflated (comic
 * archives are already compressed), so yazl knows every size upfront: the response gets an exact
 * Content-Length, and each file is only opened when its turn comes, never held in memory.
 * Files that vanished since the last scan are left out rather than failing the whole download, and
 * so are files whose real path leaves their library (symlinks, `libraryRoots`).
 */
export async function sendZip(reply: FastifyReply, zipName: string, members: ZipMember[], libraryRoots: string[]) {
  const zip = new yazl.ZipFile();
  for (const member of members) {
    let info;
    try {
      await assertInsideItsLibrary(libraryRoots, member.path);
      info = await stat(member.path);
    } catch (error) {
      // A file gone since the listing, or outside its library, is left out of the archive.
      rethrowUnless(error, (e) => isUnusablePath(e) || e instanceof OutsideLibraryError);
      continue;
    }
    if (!info.isFile()) continue;
    // Lazy: the file is opened only when the zip writer reaches it.
    zip.addReadStreamLazy(member.entryName, { compress: false, mtime: info.mtime, size: info.size }, (callback) =>
      callback(null, createReadStream(member.path)),
    );
  }
  // yazl reports the total size (-1 when unknown) to this callback; its typings omit the argument.
  const end = zip.end.bind(zip) as (options: object, onSize: (size: number) => void) => void;
  const finalSize = await new Promise<number>((resolve) => end({}, resolve));
  reply.type('application/zip').header('Content-Disposition', attachmentDisposition(zipName));
  if (finalSize >= 0) reply.header('Content-Length', finalSize);
  return reply.send(zip.outputStream);
}

/** Entry names made unique inside one zip (" (2)", " (3)"... before the extension). */
export function uniqueEntryNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

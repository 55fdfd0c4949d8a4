import { type FileHandle, open as openPath } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { fileSlots } from './file-slots.ts';
import { memberStreamsEndingWithOutput } from './zip-member-streams.ts';

export interface ZipFileMember {
  /** Absolute path of the file on disk, already checked by the caller. */
  path: string;
  /** Name of the entry inside the zip. */
  entryName: string;
  size: number;
  mtime: Date;
  /**
   * Opens the file when the writer reaches it (a library file: opened, then checked by what was
   * opened, see openInsideItsLibrary); by default it is opened by its path.
   */
  open?: () => Promise<FileHandle>;
}

export interface WrittenZip {
  /** Exact size of the whole zip in bytes, or null when the writer cannot tell it upfront. */
  size: number | null;
  stream: Readable;
}

/**
 * A zip of files, written while it is read. Entries are stored, not deflated (comic archives are
 * already compressed), so every size is known upfront and the zip's exact size comes before its
 * first byte; each file is opened only when the writer reaches it, never held in memory.
 */
/** `owner`: whose share of the request-held files the members count against (file-slots.ts), the downloading user. */
export async function storedZipOfFiles(members: ZipFileMember[], owner?: string): Promise<WrittenZip> {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  // The output is destroyed when the client leaves or its access ends (download-revocation.ts): the
  // member being read is ended with it, giving back its slot and its owner's share.
  const handMember = memberStreamsEndingWithOutput(zip);
  for (const member of members) {
    // Opened when the writer reaches it, through the budget of request-held files (one at a time per zip).
    zip.addReadStreamLazy(member.entryName, { compress: false, mtime: member.mtime, size: member.size }, (callback) => {
      const open = member.open ?? (() => openPath(member.path, 'r'));
      const opened = fileSlots.openHandle(open, owner).then((file) => file.createReadStream());
      opened.then(
        // One opened after the output closed (it waited for a slot) is destroyed at once.
        (stream) => handMember(stream, callback),
        (error: Error) => callback(error, undefined as never),
      );
    });
  }
  // A member that cannot be opened when reached (gone, or refused: a link out of its library) ends
  // the zip short: its size was announced, so nothing else can be sent in its place.
  zip.on('error', (error: Error) => output.destroy(error));
  // yazl reports the total size (-1 when unknown) to this callback; its typings omit the argument.
  const end = zip.end.bind(zip) as (options: object, onSize: (size: number) => void) => void;
  const size = await new Promise<number>((resolve) => end({}, resolve));
  return { size: size >= 0 ? size : null, stream: output };
}

/**
 * A file name as one safe zip entry name: path separators of any system (a Linux file name may hold
 * a backslash, which Windows unzippers read as a folder, `..` included) and control characters
 * become `_`, so whoever unpacks the zip gets one file in the folder they chose. yazl itself refuses
 * a name that climbs out (`x\..\..\y` once its backslashes are read as slashes), which failed
 * the whole download.
 */
export function safeEntryName(name: string): string {
  const safe = name.replace(/[\\/\u0000-\u001f\u007f]/g, '_');
  return safe === '' || safe === '.' || safe === '..' ? '_' : safe;
}

/** Entry names made safe (safeEntryName) and unique inside one zip (" (2)", " (3)"... before the extension). */
export function uniqueEntryNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map(safeEntryName).map((name) => {
    let candidate = name;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

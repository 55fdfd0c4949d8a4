import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { MediaError, type OpenedBook } from './book-reader.ts';
import { decodeEntryName, headerEntryName } from './zip-entry-names.ts';
import { openZipEntry } from './zip-entry-methods.ts';
import { memberStreamsEndingWithOutput } from './zip-member-streams.ts';
import { openZipFile, walkDirectory } from './zip-reader.ts';

/*
 * Book files rewritten as zips (CBZ conversion of a RAR, pages removed from a CBZ). This module
 * only writes the new archive to a path that must not exist yet; the domain decides what goes in,
 * checks the result, flushes it to the disk and puts it in the book's place.
 */

/** One member of a zip being written: how it is stored and where its bytes come from. */
interface ZipMember {
  name: string;
  directory: boolean;
  mtime: Date;
  compress: boolean;
  size: number;
  open: () => Promise<Readable>;
}

/**
 * Writes `members` in order into a new zip file at `target`, created with `mode` (never replacing
 * a file there: 'wx'). Each member is opened only when the writer reaches it. When the write fails
 * (disk full, a write error, a member unreadable) the member being read is closed and the partial
 * file removed before the error is thrown, so nothing of it outlives the call.
 */
async function writeZipFile(target: string, mode: number, members: Iterable<ZipMember>): Promise<void> {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  // pipeline destroys the output when the file write fails: the member being read is ended with it.
  const handMember = memberStreamsEndingWithOutput(zip);
  // yazl reports a member that cannot be opened or read as an error of the ZipFile, not of its
  // output stream: unheard, the write waited for ever and the error was an unhandled rejection.
  zip.on('error', (error: Error) => output.destroy(error));
  for (const member of members) {
    if (member.directory) {
      zip.addEmptyDirectory(member.name, { mtime: member.mtime });
      continue;
    }
    zip.addReadStreamLazy(member.name, { mtime: member.mtime, compress: member.compress, size: member.size }, (callback) => {
      member.open().then(
        (stream) => handMember(stream, callback),
        (error: Error) => callback(error, undefined as never),
      );
    });
  }
  zip.end();
  const file = createWriteStream(target, { mode, flags: 'wx' });
  // Only a file this call created is removed on failure ('wx' refuses one already there: EEXIST).
  let created = false;
  file.once('open', () => (created = true));
  try {
    await pipeline(output, file);
  } catch (error) {
    if (created) await rm(target, { force: true });
    throw error;
  }
}

/** Entry names of already-compressed images, which a CBZ stores instead of deflating again. */
const IMAGE_NAME = /\.(jpe?g|png|gif|webp|avif|jxl|heic|heif|bmp|tiff?)$/i;

/**
 * A CBZ holding every file entry of `source` (any format Folio reads), byte for byte: images are
 * stored, the rest deflated, every entry dated now. Folders are left out (a zip needs none).
 */
export async function copyBookToZip(source: OpenedBook, target: string, mode: number): Promise<void> {
  const mtime = new Date();
  const members = source
    .entries()
    .filter((entry) => !entry.isDirectory)
    .map((entry) => ({
      name: entry.name,
      directory: false,
      mtime,
      compress: !IMAGE_NAME.test(entry.name),
      size: entry.uncompressedSize,
      open: () => source.openEntry(entry.name),
    }));
  await writeZipFile(target, mode, members);
}

/** One entry of a zip as it is stored (every entry, in order, repeated names included). */
export interface StoredZipEntry {
  /** Decoded like the zip reader does, so it matches the names analysis recorded. */
  readonly name: string;
}

/** A zip opened to be written again with some entries left out. */
export interface RewritableZip {
  readonly entries: readonly StoredZipEntry[];
  /** The bytes of one of `entries`. */
  openEntry(entry: StoredZipEntry): Promise<Readable>;
  /**
   * Writes a new zip at `target` (created with `mode`, never replacing a file) with every entry
   * except those named in `without`, each kept as stored: same order, date and compression.
   */
  writeWithout(without: ReadonlySet<string>, target: string, mode: number): Promise<void>;
  close(): void;
}

class Rewrite implements RewritableZip {
  readonly entries: readonly StoredZipEntry[];
  private readonly zipfile: yauzl.ZipFile;
  private readonly raw = new Map<StoredZipEntry, yauzl.Entry>();
  private closed = false;
  /** Names the book to the 7-Zip pool (entries of other methods: zip-entry-methods.ts). */
  private readonly bookKey: string;

  constructor(zipfile: yauzl.ZipFile, entries: yauzl.Entry[], path: string) {
    this.zipfile = zipfile;
    this.bookKey = `zip:${path}`;
    this.entries = entries.map((raw) => {
      const entry = { name: decodeEntryName(raw) };
      this.raw.set(entry, raw);
      return entry;
    });
  }

  openEntry(entry: StoredZipEntry): Promise<Readable> {
    // As in the zip reader: yauzl may have let go of the descriptor after close().
    if (this.closed) return Promise.reject(new MediaError('ERR_1000', `archive already closed, cannot read ${entry.name}`));
    const raw = this.raw.get(entry);
    if (!raw) return Promise.reject(new MediaError('ERR_1033', `entry not found: ${entry.name}`));
    return openZipEntry(this.zipfile, raw, entry.name, this.bookKey);
  }

  writeWithout(without: ReadonlySet<string>, target: string, mode: number): Promise<void> {
    // A book analysed before Unicode Path fields were read names its pages by the header's bytes.
    const kept = this.entries.filter((entry) => !without.has(entry.name) && !without.has(headerEntryName(this.raw.get(entry)!)));
    return writeZipFile(
      target,
      mode,
      kept.map((entry) => {
        const raw = this.raw.get(entry)!;
        return {
          name: entry.name,
          directory: entry.name.endsWith('/'),
          mtime: raw.getLastModDate(),
          compress: raw.compressionMethod !== 0,
          size: raw.uncompressedSize,
          open: () => this.openEntry(entry),
        };
      }),
    );
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.zipfile.close();
  }
}

/** Opens a zip book to rewrite it; MediaError ERR_1000 when unreadable, ERR_1008 when not a zip. */
export async function openZipForRewrite(path: string): Promise<RewritableZip> {
  const zipfile = await openZipFile(path);
  try {
    return new Rewrite(zipfile, await listEntries(zipfile), path);
  } catch (error) {
    zipfile.close();
    throw new MediaError('ERR_1008', `cannot list zip entries: ${String(error)}`, { cause: error });
  }
}

/**
 * Every entry, by the directory (walkDirectory: a count that says fewer loses none). A damaged
 * directory is refused: a rewrite keeps only what it lists, so entries past the damage, still in
 * the file, would be lost with it.
 */
async function listEntries(zipfile: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  const entries: yauzl.Entry[] = [];
  const { damagedAt } = await walkDirectory(zipfile, (entry) => entries.push(entry));
  if (damagedAt !== undefined) throw damagedAt;
  return entries;
}

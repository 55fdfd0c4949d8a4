import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Extractor, UnrarError, type FileHeader, type SeekMethod } from 'node-unrar-js';
import { getUnrar } from 'node-unrar-js/dist/js/unrar.singleton.js';
import { type BookEntry, type BookReader, MediaError, type OpenedBook } from './book-reader.ts';

/*
 * CBR/RAR books through node-unrar-js (the official unrar library compiled to wasm).
 *
 * Memory model: the library's own entry points either take the whole archive as one ArrayBuffer
 * (createExtractorFromData) or extract members to files on disk (createExtractorFromFile). Neither
 * fits a server that reads one page at a time, so FileBackedExtractor below plugs into the same
 * I/O callbacks: the archive is read from disk with positioned reads as unrar asks for bytes, and
 * only the member being extracted is collected in memory (and only up to a limit for sniffing).
 * The wasm instance is a process-wide singleton whose heap keeps unrar's working buffers
 * (dictionary for compressed members) between calls; it grows but is not per book.
 *
 * RAR has no central directory: finding a member walks the headers from the start, but members
 * that are not wanted are seeked over, never read or unpacked. Every call into unrar is synchronous
 * and runs to completion (generators are always drained) because the wasm module routes its I/O
 * through a single `extractor` slot: two interleaved operations would read each other's files.
 */

const RAR4_SIGNATURE = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00];
const RAR5_SIGNATURE = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00];

const startsWith = (head: Buffer, signature: number[]) =>
  head.length >= signature.length && signature.every((byte, i) => head[i] === byte);

const ARCHIVE_HANDLE = 1;
/** Largest member read into memory to serve as a page (RAR members cannot be streamed here). */
export const MAX_BUFFERED_MEMBER_BYTES = 128 * 1024 * 1024;

class FileBackedExtractor extends Extractor<never> {
  protected _filePath: string;
  private readonly fd: number;
  private readonly size: number;
  private position = 0;
  private nextHandle = ARCHIVE_HANDLE + 1;
  /** Output of the member being extracted, and when to stop collecting it. */
  private output: Buffer[] = [];
  private outputLength = 0;
  private outputLimit = Number.POSITIVE_INFINITY;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private readonly closeFd: () => void;

  constructor(unrar: any, filePath: string, fd: number, closeFd: () => void) {
    super(unrar, '');
    this._filePath = filePath;
    this.fd = fd;
    this.closeFd = closeFd;
    this.size = fstatSync(fd).size;
  }

  /** Routes the shared wasm module's I/O to this archive for the next synchronous call. */
  activate(): void {
    this.unrar.extractor = this;
  }

  /** Bytes of one member, at most `limit` of them. */
  extractMember(name: string, limit: number): Buffer {
    this.activate();
    this.output = [];
    this.outputLength = 0;
    this.outputLimit = limit;
    let found = false;
    try {
      for (const file of this.extract({ files: [name] }).files) if (file.fileHeader.name === name) found = true;
    } catch (error) {
      // Our own early stop surfaces as a write error from unrar: the prefix is what we wanted.
      if (!(this.outputLength >= limit && error instanceof UnrarError && error.reason === 'ERAR_EWRITE')) throw error;
      found = true;
    }
    if (!found) throw new MediaError('ERR_1033', `entry not found: ${name}`);
    const bytes = Buffer.concat(this.output, this.outputLength).subarray(0, limit);
    this.output = [];
    return bytes;
  }

  protected open(filename: string): number {
    // Only the archive itself; requests for other volumes of a set fail (multi-volume is refused).
    if (filename !== this._filePath) return 0;
    this.position = 0;
    return ARCHIVE_HANDLE;
  }

  protected create(): number {
    return this.nextHandle++;
  }

  protected closeFile(): void {
    // The archive descriptor lives as long as the opened book; outputs are plain buffers.
  }

  protected read(fd: number, buf: number, size: number): number {
    if (fd !== ARCHIVE_HANDLE) return -1;
    const heap = this.unrar.HEAPU8 as Uint8Array;
    const target = Buffer.from(heap.buffer, heap.byteOffset + buf, size);
    const count = readSync(this.fd, target, 0, size, this.position);
    this.position += count;
    return count;
  }

  protected write(fd: number, buf: number, size: number): boolean {
    if (fd === ARCHIVE_HANDLE) return false;
    // Only what is still wanted is copied: unrar may go on unpacking (and calling here) after a
    // refusal, and the rest of a large member must cost no memory.
    const take = Math.min(size, this.outputLimit - this.outputLength);
    if (take > 0) {
      const heap = this.unrar.HEAPU8 as Uint8Array;
      this.output.push(Buffer.from(heap.subarray(buf, buf + take)));
      this.outputLength += take;
    }
    // Returning false makes unrar abandon this member: used to stop once the prefix is complete.
    return this.outputLength < this.outputLimit;
  }

  protected tell(fd: number): number {
    return fd === ARCHIVE_HANDLE ? this.position : this.outputLength;
  }

  protected seek(fd: number, pos: number, method: SeekMethod): boolean {
    if (fd !== ARCHIVE_HANDLE) return false;
    const base = method === 'SET' ? 0 : method === 'END' ? this.size : this.position;
    const next = base + pos;
    if (next < 0 || next > this.size) return false;
    this.position = next;
    return true;
  }

  closeArchive(): void {
    this.closeFd();
  }
}

/**
 * unrar's own failures: a missing password means encryption; anything else (truncated file, bad
 * header CRC, a member continuing in another volume) is a damaged listing or entry. Failures to
 * open the file at all were mapped to ERR_1000 before unrar ran.
 */
function toMediaError(error: unknown, action: string): MediaError {
  if (error instanceof MediaError) return error;
  if (error instanceof UnrarError) {
    if (error.reason === 'ERAR_MISSING_PASSWORD' || error.reason === 'ERAR_BAD_PASSWORD') {
      return new MediaError('ERR_1002', 'encrypted RAR archives are not supported', { cause: error });
    }
  }
  return new MediaError('ERR_1008', `cannot ${action} RAR entries: ${String(error)}`, { cause: error });
}

async function openRar(filePath: string): Promise<OpenedBook> {
  let fd: number;
  try {
    fd = openSync(filePath, 'r');
  } catch (error) {
    throw new MediaError('ERR_1000', `cannot read file: ${String(error)}`, { cause: error });
  }
  return listRar(filePath, fd, () => closeSync(fd));
}

/**
 * A RAR book read through the descriptor its signature was read from (for a library's book, the one
 * checked to lie inside the library: openInsideItsLibrary), never opened again by path. The handle
 * is closed with the book; a failed close is reported as a warning, nothing waits for it then.
 */
function openRarFile(file: FileHandle, filePath: string): Promise<OpenedBook> {
  return listRar(filePath, file.fd, () => {
    file.close().catch((error: Error) => process.emitWarning(`closing ${filePath} failed: ${error.message}`));
  });
}

async function listRar(filePath: string, fd: number, closeFd: () => void): Promise<OpenedBook> {
  let extractor: FileBackedExtractor | undefined;
  try {
    extractor = new FileBackedExtractor(await getUnrar(), filePath, fd, closeFd);
    extractor.activate();
    const list = extractor.getFileList();
    // Komga refuses these archive kinds outright (REFERENCE §8), before looking at members.
    if (list.arcHeader.flags.headerEncrypted) throw new MediaError('ERR_1002', 'encrypted RAR archives are not supported');
    const headers: FileHeader[] = [...list.fileHeaders];
    if (list.arcHeader.flags.solid) throw new MediaError('ERR_1003', 'solid RAR archives are not supported');
    if (list.arcHeader.flags.volume) throw new MediaError('ERR_1004', 'multi-volume RAR archives are not supported');
    if (headers.some((h) => h.flags.encrypted)) throw new MediaError('ERR_1002', 'encrypted RAR archives are not supported');
    return new OpenedRar(extractor, headers);
  } catch (error) {
    if (extractor) extractor.closeArchive();
    else closeFd();
    throw toMediaError(error, 'list');
  }
}

class OpenedRar implements OpenedBook {
  readonly entriesInMemory = true;
  private readonly extractor: FileBackedExtractor;
  private readonly list: BookEntry[];
  private readonly names: Set<string>;

  constructor(extractor: FileBackedExtractor, headers: FileHeader[]) {
    this.extractor = extractor;
    const seen = new Set<string>();
    this.list = [];
    for (const header of headers) {
      // First occurrence wins when an archive repeats a name (unrar extracts the first match too).
      if (seen.has(header.name)) continue;
      seen.add(header.name);
      this.list.push({ name: header.name, uncompressedSize: header.unpSize, isDirectory: header.flags.directory });
    }
    this.names = seen;
  }

  entries(): readonly BookEntry[] {
    return this.list;
  }

  private read(name: string, limit: number): Promise<Buffer> {
    if (!this.names.has(name)) return Promise.reject(new MediaError('ERR_1033', `entry not found: ${name}`));
    try {
      return Promise.resolve(this.extractor.extractMember(name, limit));
    } catch (error) {
      return Promise.reject(toMediaError(error, 'extract'));
    }
  }

  async openEntry(name: string): Promise<Readable> {
    return Readable.from([await this.member(name)], { objectMode: false });
  }

  /** The member copied into `target`; ERR_1007 when it unpacks to more than `target` holds (its declared size). */
  async readWhole(name: string, target: Buffer): Promise<Buffer> {
    const bytes = await this.member(name);
    if (bytes.length > target.length) throw new MediaError('ERR_1007', `RAR member ${name} unpacks to ${bytes.length} bytes, more than the ${target.length} it declares`);
    bytes.copy(target);
    return target.subarray(0, bytes.length);
  }

  /** A member's bytes: unrar hands them out in one piece, up to the limit for one page. */
  private async member(name: string): Promise<Buffer> {
    // A member declaring more than that bound is refused rather than unpacked into memory.
    const size = this.list.find((entry) => entry.name === name)?.uncompressedSize ?? 0;
    if (size > MAX_BUFFERED_MEMBER_BYTES) {
      throw new MediaError('ERR_1007', `RAR member ${name} is ${size} bytes, over the ${MAX_BUFFERED_MEMBER_BYTES}-byte limit for one page`);
    }
    // One byte past the limit tells a member that unpacks to more than it declared from one that fits.
    const bytes = await this.read(name, MAX_BUFFERED_MEMBER_BYTES + 1);
    if (bytes.length > MAX_BUFFERED_MEMBER_BYTES) {
      throw new MediaError('ERR_1007', `RAR member ${name} unpacks to more than the ${MAX_BUFFERED_MEMBER_BYTES}-byte limit for one page`);
    }
    return bytes;
  }

  readPrefix(name: string, maxBytes: number): Promise<Buffer> {
    return this.read(name, Math.max(1, maxBytes));
  }

  close(): void {
    this.extractor.closeArchive();
  }
}

/** RAR 4.x archives (signature "Rar!\x1A\x07\x00"). */
export const rar4Reader: BookReader = {
  mediaType: 'application/x-rar-compressed; version=4',
  mediaProfile: 'DIVINA',
  extensions: ['cbr', 'rar'],
  matchesSignature: (head) => startsWith(head, RAR4_SIGNATURE),
  open: openRar,
  openFile: openRarFile,
};

/** RAR 5 archives (signature "Rar!\x1A\x07\x01\x00"). */
export const rar5Reader: BookReader = {
  mediaType: 'application/x-rar-compressed; version=5',
  mediaProfile: 'DIVINA',
  extensions: ['cbr', 'rar'],
  matchesSignature: (head) => startsWith(head, RAR5_SIGNATURE),
  open: openRar,
  openFile: openRarFile,
};

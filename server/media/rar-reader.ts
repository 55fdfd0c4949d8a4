import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { type BookEntry, type BookReader, MAX_ARCHIVE_ENTRIES, MediaError, type OpenedBook } from './book-reader.ts';
import { type CheckedFile, describeChecked, openForReading, releaseChecked } from './checked-file.ts';
import { extractRar, extractRarPage, extractSmallRar, listRar } from './rar-client.ts';
import type { RarMember } from './rar-protocol.ts';

/*
 * CBR/RAR books through unrar (node-unrar-js: the official unrar library compiled to wasm), run in
 * a worker thread by rar-client.ts: every unrar call is synchronous and lasts as long as unrar
 * takes, so none runs on the main thread, and each has a time limit. The worker reads the book
 * through the descriptor its signature was read from (openFile; for a library's book the one
 * checked to lie inside the library), held open until the book is closed: it never opens the
 * book again by path.
 *
 * RAR has no central directory: finding a member walks the headers from the start, but members
 * that are not wanted are seeked over, never read or unpacked. Only the member asked for is
 * collected in memory, and only up to the bytes asked for. Bounds: at most MAX_ARCHIVE_ENTRIES
 * entries (ERR_1008); a page is at most MAX_BUFFERED_MEMBER_BYTES, declared and actual (ERR_1007).
 */

const RAR4_SIGNATURE = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00];
const RAR5_SIGNATURE = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00];

const startsWith = (head: Buffer, signature: number[]) =>
  head.length >= signature.length && signature.every((byte, i) => head[i] === byte);

/** Largest member read into memory to serve as a page (RAR members cannot be streamed here). */
export const MAX_BUFFERED_MEMBER_BYTES = 128 * 1024 * 1024;
/**
 * Members this small are what analysis reads of them whole anyway (its first look at an entry
 * is 64 KiB): they are read many at a time, in one walk of the archive, at most SMALL_BATCH_MEMBERS
 * and SMALL_BATCH_BYTES at once. Read one by one, each walked every header before it: 4,000
 * one-byte members (a 200 KB file) took 65 s to analyse, 100,000 would take hours.
 */
const SMALL_MEMBER_BYTES = 64 * 1024;
const SMALL_BATCH_MEMBERS = 10_000;
const SMALL_BATCH_BYTES = 16 * 1024 * 1024;

/** Takes the descriptor over: it is closed with the book, or at once when the book cannot be opened. */
async function openRarFile(file: FileHandle, filePath: string): Promise<OpenedBook> {
  try {
    const { checked, size, mtimeMs } = await describeChecked(file, filePath);
    const members = await listRar(checked, MAX_ARCHIVE_ENTRIES);
    return new OpenedRar(checked, `${size}:${mtimeMs}`, members, () => releaseChecked(file, filePath));
  } catch (error) {
    releaseChecked(file, filePath);
    throw error;
  }
}

class OpenedRar implements OpenedBook {
  readonly entriesInMemory = true;
  private readonly file: CheckedFile;
  private readonly version: string;
  private readonly release: () => void;
  private readonly list: BookEntry[] = [];
  private readonly sizes = new Map<string, number>();
  /** Small members not asked for yet, in archive order (see SMALL_MEMBER_BYTES). */
  private readonly smallUnread = new Set<string>();
  /** The last batch of small members read, until each is asked for (one batch is held at a time). */
  private small = new Map<string, Buffer>();
  private smallReading: Promise<void> | undefined;

  constructor(file: CheckedFile, version: string, members: readonly RarMember[], release: () => void) {
    this.file = file;
    this.version = version;
    this.release = release;
    for (const member of members) {
      // First occurrence wins when an archive repeats a name (unrar extracts the first match too).
      if (this.sizes.has(member.name)) continue;
      this.sizes.set(member.name, member.size);
      this.list.push({ name: member.name, uncompressedSize: member.size, isDirectory: member.isDirectory });
      if (!member.isDirectory && member.size > 0 && member.size <= SMALL_MEMBER_BYTES) this.smallUnread.add(member.name);
    }
  }

  entries(): readonly BookEntry[] {
    return this.list;
  }

  private declaredSize(name: string): number {
    const size = this.sizes.get(name);
    if (size === undefined) throw new MediaError('ERR_1033', `entry not found: ${name}`);
    return size;
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
    const size = this.declaredSize(name);
    if (size > MAX_BUFFERED_MEMBER_BYTES) {
      throw new MediaError('ERR_1007', `RAR member ${name} is ${size} bytes, over the ${MAX_BUFFERED_MEMBER_BYTES}-byte limit for one page`);
    }
    // One byte past the limit tells a member that unpacks to more than it declared from one that fits.
    const limit = MAX_BUFFERED_MEMBER_BYTES + 1;
    const bytes = await extractRarPage(this.file, this.version, name, limit, size + 1);
    if (bytes.length > MAX_BUFFERED_MEMBER_BYTES) {
      throw new MediaError('ERR_1007', `RAR member ${name} unpacks to more than the ${MAX_BUFFERED_MEMBER_BYTES}-byte limit for one page`);
    }
    return bytes;
  }

  async readPrefix(name: string, maxBytes: number): Promise<Buffer> {
    const size = this.declaredSize(name);
    const limit = Math.max(1, maxBytes);
    const whole = await this.smallMember(name);
    if (whole) return whole.subarray(0, limit);
    return extractRar(this.file, name, limit, Math.min(limit, size));
  }

  /** A small member whole, from a batch read with those after it; undefined once it was offered (or is not small). */
  private async smallMember(name: string): Promise<Buffer | undefined> {
    while (this.smallReading && !this.small.has(name)) await this.smallReading;
    const read = this.small.get(name);
    if (read) {
      this.small.delete(name);
      return read;
    }
    if (!this.smallUnread.has(name)) return undefined;
    // This member and the unread ones after it in the archive (ones before it were passed already).
    const batch: string[] = [];
    let bytes = 0;
    let reached = false;
    for (const other of this.smallUnread) {
      reached ||= other === name;
      if (!reached) continue;
      const size = this.sizes.get(other)!;
      if (batch.length >= SMALL_BATCH_MEMBERS || bytes + size > SMALL_BATCH_BYTES) break;
      batch.push(other);
      bytes += size;
    }
    // Each member is in one batch at most: one left out of it is read on its own.
    for (const other of batch) this.smallUnread.delete(other);
    const reading = extractSmallRar(this.file, batch, bytes).then(
      (members) => {
        this.small = members;
      },
      (error: unknown) => {
        // A damaged archive is the file's doing: its members are then read (and fail) one by one.
        // Anything else (a time limit, a busy server) is passed on, to be retried later.
        if (!(error instanceof MediaError)) throw error;
        this.small = new Map();
      },
    );
    this.smallReading = reading;
    try {
      await reading;
    } finally {
      if (this.smallReading === reading) this.smallReading = undefined;
    }
    const got = this.small.get(name);
    this.small.delete(name);
    return got;
  }

  close(): void {
    // Each unrar call opens and closes its own descriptor (checked-file.ts): none outlives this one.
    this.release();
  }
}

/** RAR 4.x archives (signature "Rar!\x1A\x07\x00"). */
export const rar4Reader: BookReader = {
  mediaType: 'application/x-rar-compressed; version=4',
  mediaProfile: 'DIVINA',
  extensions: ['cbr', 'rar'],
  matchesSignature: (head) => startsWith(head, RAR4_SIGNATURE),
  open: async (filePath) => openRarFile(await openForReading(filePath), filePath),
  openFile: (file, filePath) => openRarFile(file, filePath),
};

/** RAR 5 archives (signature "Rar!\x1A\x07\x01\x00"). */
export const rar5Reader: BookReader = {
  mediaType: 'application/x-rar-compressed; version=5',
  mediaProfile: 'DIVINA',
  extensions: ['cbr', 'rar'],
  matchesSignature: (head) => startsWith(head, RAR5_SIGNATURE),
  open: async (filePath) => openRarFile(await openForReading(filePath), filePath),
  openFile: (file, filePath) => openRarFile(file, filePath),
};

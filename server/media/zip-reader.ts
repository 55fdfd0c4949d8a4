import { read } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import { type BookEntry, type BookReader, MAX_ARCHIVE_ENTRIES, MediaError, type OpenedBook, collectPrefix } from './book-reader.ts';
import { decodeEntryName, headerEntryName } from './zip-entry-names.ts';
import { MAX_ENTRY_NAME_BYTES, joinDamage, longNamesLeftOut } from './entry-names.ts';
import { descriptorIdentity } from './file-identity.ts';
import { AnalysisBudget } from './analysis-bounds.ts';
import { FileChangedWhileRead, OperationTimeout, isTransientFailure } from './transient-errors.ts';
import { type MediaWork, isRequestWork } from './work-callers.ts';
import { checkWhole, openZipEntry, otherMethodZip, storedSizesDisagree, unpackEntryPrefix, unpackOtherMethod, unpackWholeEntry, usesOtherMethod } from './zip-entry-methods.ts';

/**
 * CBZ/ZIP books through yauzl's random access: only the central directory is read at open time,
 * each entry is then read from its own offset. Names are decoded by us (decodeStrings off) so that
 * hostile names such as "../x" are kept as plain identifiers instead of aborting the listing.
 * Stored and Deflate entries are read here; other compression methods (Deflate64, BZIP2…) are
 * unpacked by 7-Zip (zip-entry-methods.ts).
 */
export const zipReader: BookReader = {
  mediaType: 'application/zip',
  mediaProfile: 'DIVINA',
  extensions: ['cbz', 'zip'],
  matchesSignature(head) {
    // Local file header, or end-of-central-directory of an empty archive.
    return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5) && (head[3] === 4 || head[3] === 6);
  },
  open: (filePath) => openZip(filePath),
  openFile: (file, filePath, size) => openZip(filePath, { file, size }),
};

/** A zip file opened by the caller, with its size (one stat of the descriptor less per book). */
export interface OpenZipSource {
  file: FileHandle;
  size: number;
}

async function openZip(filePath: string, opened?: OpenZipSource): Promise<OpenedBook> {
  const zipfile = await openZipFile(filePath, opened);
  try {
    return new OpenedZip(zipfile, await readAllEntries(zipfile), fileOf.get(zipfile)!, readerOf.get(zipfile)!, filePath);
  } catch (listError) {
    zipfile.close();
    throw new MediaError('ERR_1008', `cannot list zip entries: ${String(listError)}`, { cause: listError });
  }
}

/**
 * A zip file opened through our own file reader (below), entries not read yet (lazyEntries) and
 * names left undecoded. ERR_1000 when the file cannot be read, ERR_1008 when it is not a zip.
 * Shared with archive-rewrite.ts, which lists every entry itself. `opened`: the file already open
 * (taken over: closed with the zip, or here on failure) and its size, stat'ed by whoever opened it.
 */
export async function openZipFile(filePath: string, opened?: OpenZipSource): Promise<yauzl.ZipFile> {
  let file: FileHandle;
  let size: number;
  try {
    file = opened?.file ?? (await open(filePath, 'r'));
  } catch (error) {
    throw openFailure(error);
  }
  try {
    size = opened?.size ?? (await file.stat()).size;
  } catch (error) {
    await file.close();
    throw openFailure(error);
  }
  const reader = new FileRangeReader(file, size, filePath);
  // yauzl reports a failed close as an 'error' event; nothing is waiting for it by then.
  reader.on('error', (error: Error) => process.emitWarning(`closing ${filePath} failed: ${error.message}`));
  try {
    const zipfile = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      yauzl.fromRandomAccessReader(
        reader,
        size,
        // Sizes unchecked while listing: yauzl refuses the whole archive for one stored entry whose
        // two sizes disagree, and a book would lose its readable pages to one damaged header (Komga
        // reads the rest). Such an entry is refused when read (readPrefix: ERR_1007), and every
        // entry stream counts its bytes again once the listing is done (below).
        { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false },
        (error, opened) => (error || !opened ? reject(error ?? new Error('no zip file')) : resolve(opened)),
      );
    });
    fileOf.set(zipfile, file);
    readerOf.set(zipfile, reader);
    zipfile.once('end', () => listingEnded(zipfile));
    return zipfile;
  } catch (error) {
    await file.close();
    throw new MediaError('ERR_1008', `cannot list zip entries: ${String(error)}`, { cause: error });
  }
}

/**
 * Listed, to its end or to damage (readAllEntries): later reads are of entries, at their own
 * offsets, and need no window, and every entry stream counts its bytes.
 */
function listingEnded(zipfile: yauzl.ZipFile): void {
  readerOf.get(zipfile)?.endListing();
  zipfile.validateEntrySizes = true;
}

/** The file under each zip opened here, for reads that bypass yauzl's streams (OpenedZip.readWhole). */
const fileOf = new WeakMap<yauzl.ZipFile, FileHandle>();
/** Its positioned reader, for the callback reads of OpenedZip.readPrefix (counted against its close). */
const readerOf = new WeakMap<yauzl.ZipFile, FileRangeReader>();

/**
 * A failure met while an entry streams (zlib's "invalid stored block lengths", a CRC or byte count
 * yauzl finds wrong) said as the damaged entry it is, with its cause. A transient one (a descriptor
 * or a time limit short) stays as it is: it says nothing about the file.
 */
function entryReadError(name: string, error: unknown): unknown {
  if (error instanceof MediaError || !(error instanceof Error) || isTransientFailure(error)) return error;
  return new MediaError('ERR_1007', `cannot read zip entry ${name}: ${error.message}`, { cause: error });
}

/** The file itself could not be read (ERR_1000); a transient errno (EMFILE…) stays in `cause`. */
function openFailure(error: unknown): MediaError {
  return new MediaError('ERR_1000', `cannot read file: ${String(error)}`, { cause: error });
}

/**
 * Gives yauzl positioned reads of a file we own. yauzl's own file reader queues reads behind each
 * other and dereferences its descriptor after a stream was destroyed, which crashes the process
 * when a client cuts off a download mid-read. Here the descriptor belongs to a FileHandle that is
 * closed only once no read started here is in flight (and FileHandle.close itself waits for
 * readWhole's), so destroying a stream or closing the archive at any moment is safe. yauzl calls
 * close() once the archive was closed and its last entry stream has finished.
 *
 * Reads are callback fs.read calls on the handle's descriptor rather than FileHandle.read: the
 * promise machinery cost about three times as much main-thread time per read (~35 µs against
 * ~11 µs).
 *
 * Every read is followed by one fstat of the descriptor (about 1.5 µs against a 64 KiB read): a
 * file written over in place while an entry is streamed (same inode, new bytes) would otherwise
 * hand out its former bytes up to there and its new ones after, or another page's bytes at the
 * entry's old offset, in a response that looks complete. Once its identity (file-identity.ts)
 * differs from the one it had when opened, every read fails (FileChangedWhileRead, transient),
 * so a response in flight is cut and the archive pool opens the file again for the next one.
 *
 * While the listing is read, small reads are served from a window of the file held in memory:
 * yauzl reads the last 64 KiB to find the end record, then every central directory record with two
 * small reads of its own (26 reads for a 13-entry book, one after the other), and the directory
 * nearly always lies inside those last 64 KiB; when it does not, one read ahead brings the next
 * 64 KiB of it. The window is dropped once the listing is done.
 */
class FileRangeReader extends yauzl.RandomAccessReader {
  private readonly file: FileHandle;
  private readonly size: number;
  private readonly path: string;
  /** The file's identity when it was opened: reads are only good while it still has it. */
  private readonly identity: string;
  private inFlight = 0;
  /** Set by close() while reads are in flight: runs when the last one is done. */
  private pendingClose: (() => void) | undefined;
  private listing = true;
  private window: { start: number; bytes: Buffer } | undefined;

  constructor(file: FileHandle, size: number, path: string) {
    super();
    this.file = file;
    this.size = size;
    this.path = path;
    this.identity = descriptorIdentity(file.fd);
  }

  /** FileChangedWhileRead when the file is no longer the one opened (see above), else null. */
  changed(): FileChangedWhileRead | null {
    return descriptorIdentity(this.file.fd) === this.identity ? null : new FileChangedWhileRead(this.path);
  }

  /** The listing is read: no more windows (entries are read at their own offsets). */
  endListing(): void {
    this.listing = false;
    this.window = undefined;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return new FileRangeStream(this, start, end);
  }

  /**
   * yauzl's own small reads (each central directory record, each local header): positioned reads
   * straight into its buffer. The inherited read pipes a range stream through yauzl's two checking
   * stages into a Writable for every one of them, two per entry when listing a book, which was most
   * of the stream work left in a 400-book analysis profile. A short file ends the loop early and
   * yauzl reports it ("unexpected EOF").
   */
  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (error: Error | null, bytesRead?: number) => void): void {
    if (this.listing && this.fromWindow(buffer, offset, length, position, callback)) return;
    if (this.listing && length < LISTING_WINDOW_BYTES / 4) {
      this.readAhead(position, (error) => {
        if (error) return callback(error);
        // A window that ends early (end of file) serves what it has: yauzl reports the short read.
        if (!this.fromWindow(buffer, offset, length, position, callback)) this.readDirect(buffer, offset, length, position, callback);
      });
      return;
    }
    this.readDirect(buffer, offset, length, position, (error, bytesRead) => {
      // The search for the end record: the central directory is nearly always in these bytes.
      if (!error && this.listing && bytesRead === length && length >= LISTING_WINDOW_BYTES / 4) {
        this.window = { start: position, bytes: buffer.subarray(offset, offset + length) };
      }
      callback(error, bytesRead);
    });
  }

  /** Serves a read from the window when it holds all of it (or all the file has from there on). */
  private fromWindow(buffer: Buffer, offset: number, length: number, position: number, callback: (error: Error | null, bytesRead?: number) => void): boolean {
    const window = this.window;
    if (!window || position < window.start) return false;
    const from = position - window.start;
    const windowEnd = window.start + window.bytes.length;
    const available = Math.min(length, windowEnd - position);
    if (available < length && windowEnd < this.size) return false;
    if (available > 0) window.bytes.copy(buffer, offset, from, from + available);
    // Asynchronous like a real read: yauzl's callers do not expect to be called back at once.
    process.nextTick(callback, null, Math.max(0, available));
    return true;
  }

  /** Reads up to LISTING_WINDOW_BYTES from `position` into a new window. */
  private readAhead(position: number, done: (error: Error | null) => void): void {
    const length = Math.min(LISTING_WINDOW_BYTES, this.size - position);
    // Nothing there (past the end): the direct read says so as it always did.
    if (length <= 0) return process.nextTick(done, null);
    const bytes = Buffer.allocUnsafe(length);
    this.readDirect(bytes, 0, length, position, (error, bytesRead) => {
      if (error) return done(error);
      this.window = { start: position, bytes: bytes.subarray(0, bytesRead) };
      done(null);
    });
  }

  /** Positioned reads until `length` bytes are in or the file ends. */
  private readDirect(buffer: Buffer, offset: number, length: number, position: number, callback: (error: Error | null, bytesRead?: number) => void): void {
    let filled = 0;
    const next = (): void => {
      this.readAt(buffer.subarray(offset + filled), length - filled, position + filled, (error, bytesRead) => {
        if (error) return callback(error);
        filled += bytesRead;
        if (bytesRead === 0 || filled >= length) return callback(null, filled);
        next();
      });
    };
    next();
  }

  /** One positioned read into `buffer`; the descriptor stays open until `done` has been called. */
  readAt(buffer: Buffer, length: number, position: number, done: (error: Error | null, bytesRead: number) => void): void {
    this.inFlight++;
    const finished = (error: Error | null, bytesRead: number) => {
      this.inFlight--;
      // Changed during or before this read: its bytes may be the new file's, or a mix.
      if (!error) error = this.changed();
      done(error, bytesRead);
      if (this.inFlight === 0 && this.pendingClose) {
        const close = this.pendingClose;
        this.pendingClose = undefined;
        close();
      }
    };
    try {
      read(this.file.fd, buffer, 0, length, position, finished);
    } catch (error) {
      // A handle already closed has descriptor -1, which fs.read refuses by throwing: reported
      // like a failed read, never thrown into whichever callback asked (it would go uncaught).
      process.nextTick(finished, error as Error, 0);
    }
  }

  override close(callback: (error: Error | null) => void): void {
    const close = () =>
      this.file.close().then(
        () => callback(null),
        (error: unknown) => callback(error as Error),
      );
    if (this.inFlight === 0) close();
    else this.pendingClose = close;
  }
}

/** How much of the file a listing window holds (yauzl's search for the end record reads 64 KiB + 42 bytes). */
const LISTING_WINDOW_BYTES = 64 * 1024;

/** Bytes [start, end) of a file, read on demand in chunks of the stream's buffer size. */
class FileRangeStream extends Readable {
  private readonly reader: FileRangeReader;
  private position: number;
  private readonly end: number;

  constructor(reader: FileRangeReader, start: number, end: number) {
    super({ highWaterMark: 64 * 1024 });
    this.reader = reader;
    this.position = start;
    this.end = end;
  }

  override _read(size: number): void {
    const length = Math.min(size, this.end - this.position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafe(length);
    this.reader.readAt(buffer, length, this.position, (error, bytesRead) => {
      if (this.destroyed) return;
      if (error) {
        this.destroy(error);
        return;
      }
      if (bytesRead === 0) {
        this.destroy(new Error(`unexpected end of file at ${this.position}`));
        return;
      }
      this.position += bytesRead;
      this.push(buffer.subarray(0, bytesRead));
    });
  }
}

/**
 * The entries by name, plus the names books analysed before the Unicode Path field was read
 * recorded for them (see zip-entry-names.ts): those still find their entry, so pages of a book
 * analysed then keep opening until it is analysed again.
 */
interface ZipListing {
  byName: Map<string, yauzl.Entry>;
  formerNames: Map<string, yauzl.Entry>;
  /** Why the listing ended before the directory did (OpenedBook.damage). */
  damage?: string;
}

/**
 * A listed entry's name, extra field and comment are views of one buffer of up to 192 KiB (three
 * 16-bit lengths) that the entry keeps alive for as long as the book is open. Once its names are
 * read, reads need only the fixed fields (sizes, offset, method, flags; yauzl has read the zip64
 * field into them) and the raw name: the name is copied out and the rest let go, so a listing
 * costs at most about MAX_ENTRY_NAME_BYTES per entry whatever the headers carry.
 */
function keepOnlyWhatReadsNeed(entry: yauzl.Entry): void {
  const raw = entry.fileName as unknown as Buffer | string;
  const kept = entry as unknown as { fileName: unknown; fileNameRaw?: unknown; extraFields: unknown[]; extraFieldRaw?: unknown; fileComment: unknown; fileCommentRaw?: unknown; comment?: unknown };
  if (Buffer.isBuffer(raw)) kept.fileName = kept.fileNameRaw = Buffer.from(raw);
  kept.extraFields = [];
  kept.extraFieldRaw = kept.fileComment = kept.fileCommentRaw = kept.comment = Buffer.alloc(0);
}

const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
/** What follows a whole central directory: the end record, or zip64's end record. */
const DIRECTORY_END_SIGNATURES = new Set([0x06054b50, 0x06064b50]);

/** The 4-byte signature at yauzl's next central directory read, or undefined past the file's end. */
async function signatureAtCursor(zipfile: yauzl.ZipFile): Promise<number | undefined> {
  const at = (zipfile as unknown as { readEntryCursor: number }).readEntryCursor;
  const bytes = Buffer.alloc(4);
  const { bytesRead } = await fileOf.get(zipfile)!.read(bytes, 0, 4, at);
  return bytesRead === 4 ? bytes.readUInt32LE(0) : undefined;
}

/**
 * yauzl stops after the entries the end record counts. A writer without zip64 counts 70,000
 * entries as 4,464 (modulo 65,536), and a damaged count says anything: commons-compress (Komga's
 * reader) reads the directory by its headers instead. Another header where yauzl stopped means
 * the directory goes on.
 */
async function directoryGoesOn(zipfile: yauzl.ZipFile): Promise<boolean> {
  return (await signatureAtCursor(zipfile)) === CENTRAL_HEADER_SIGNATURE;
}

/** Where yauzl failed to read a header, the directory was whole if an end record starts there (the count said too many). */
async function directoryEndsHere(zipfile: yauzl.ZipFile): Promise<boolean> {
  const signature = await signatureAtCursor(zipfile);
  return signature !== undefined && DIRECTORY_END_SIGNATURES.has(signature);
}

/**
 * Reads a zip's central directory to its end, handing each entry to `onEntry`. The end record's
 * count is not trusted (directoryGoesOn, directoryEndsHere); a header that is damaged ends the
 * walk, `damagedAt` saying why (the entries before it were handed out). A count over
 * MAX_ARCHIVE_ENTRIES, a directory that goes past it, and a failure to read the file reject.
 * Used by the reader (which keeps the entries before damage) and by rewrites (which refuse it).
 */
export function walkDirectory(zipfile: yauzl.ZipFile, onEntry: (entry: yauzl.Entry) => void): Promise<{ damagedAt?: Error }> {
  // The count comes from the end record: refused before a single entry is held.
  if (zipfile.entryCount > MAX_ARCHIVE_ENTRIES) {
    return Promise.reject(new MediaError('ERR_1008', `zip lists ${zipfile.entryCount} entries, more than the ${MAX_ARCHIVE_ENTRIES} allowed`));
  }
  return new Promise((resolve, reject) => {
    const walked = (damagedAt?: Error) => {
      // Again after a directory read past its count (the first end's hook in openZipFile ran too early).
      listingEnded(zipfile);
      resolve(damagedAt === undefined ? {} : { damagedAt });
    };
    zipfile.on('entry', (entry: yauzl.Entry) => {
      onEntry(entry);
      zipfile.readEntry();
    });
    zipfile.on('end', () => {
      directoryGoesOn(zipfile).then((more) => {
        if (!more) {
          walked();
          return;
        }
        if (zipfile.entriesRead >= MAX_ARCHIVE_ENTRIES) {
          reject(new MediaError('ERR_1008', `zip lists more than the ${MAX_ARCHIVE_ENTRIES} entries allowed`));
          return;
        }
        // Read on to the directory's end (a header that is none ends it, below), at most to the bound.
        (zipfile as { entryCount: number }).entryCount = MAX_ARCHIVE_ENTRIES;
        zipfile.validateEntrySizes = false;
        zipfile.readEntry();
      }, reject);
    });
    zipfile.once('error', (error: unknown) => {
      if (isTransientFailure(error) || !(error instanceof Error)) {
        reject(error);
        return;
      }
      // An end record where the read failed: the count said more than the directory holds, and
      // every entry was handed out. Anything else there: the directory is damaged at this entry.
      directoryEndsHere(zipfile).then((ends) => walked(ends ? undefined : error), reject);
    });
    zipfile.readEntry();
  });
}

async function readAllEntries(zipfile: yauzl.ZipFile): Promise<ZipListing> {
  const byName = new Map<string, yauzl.Entry>();
  const formerNames = new Map<string, yauzl.Entry>();
  let tooLong = 0;
  const { damagedAt } = await walkDirectory(zipfile, (entry) => {
    // Not kept at all (its name's bytes would stay in memory with the listing): see MAX_ENTRY_NAME_BYTES.
    if (entry.fileNameLength > MAX_ENTRY_NAME_BYTES) {
      tooLong++;
      return;
    }
    const name = decodeEntryName(entry);
    // First occurrence wins when an archive repeats a name.
    if (!byName.has(name)) {
      byName.set(name, entry);
      const former = headerEntryName(entry);
      if (former !== name && !formerNames.has(former)) formerNames.set(former, entry);
      keepOnlyWhatReadsNeed(entry);
    }
  });
  // Damaged at its first entry, nothing to read. Later, yauzl lists nothing after the damage, but
  // the entries before it are whole, as commons-compress (Komga's reader) keeps them: the book
  // keeps their pages, with ERR_1007 for the damage.
  if (damagedAt !== undefined && byName.size === 0) throw damagedAt;
  const directory = damagedAt === undefined ? undefined : `the zip directory is damaged after ${byName.size} entries: ${damagedAt.message}`;
  const damage = joinDamage(directory, longNamesLeftOut(tooLong));
  return damage === undefined ? { byName, formerNames } : { byName, formerNames, damage };
}

const inflateRawAsync = promisify(inflateRaw);
/** A local file header's fixed part, and its signature. */
const LOCAL_HEADER_BYTES = 30;
const LOCAL_HEADER_SIGNATURE = 0x04034b50;
/**
 * Room for a local extra field longer than the central one (writers add timestamps or zip64 sizes
 * there), so that the usual entry still comes in one read with its header.
 */
const LOCAL_HEADER_SLACK = 64;
const STORED = 0;
const DEFLATED = 8;

class OpenedZip implements OpenedBook {
  /** Entries are read at their own offsets through one FileHandle (positioned reads). */
  readonly parallelReads = 4;
  private readonly zipfile: yauzl.ZipFile;
  private readonly byName: Map<string, yauzl.Entry>;
  private readonly formerNames: Map<string, yauzl.Entry>;
  /** Why the listing ended before the directory did (OpenedBook.damage): entries past it are lost. */
  readonly damage?: string;
  private readonly list: BookEntry[];
  private readonly file: FileHandle;
  private readonly reader: FileRangeReader;
  /** Where each entry's data starts (after its local header), once read: pages are asked for again and again. */
  private readonly dataStarts = new Map<string, number>();
  private closed = false;
  /** Names the book to the 7-Zip pool, which shares its workers out by book. */
  private readonly bookKey: string;
  /** What analysis made 7-Zip do for entries of other methods (zip-entry-methods.ts), against the bounds for one book. */
  private readonly budget: AnalysisBudget;

  constructor(zipfile: yauzl.ZipFile, { byName, formerNames, damage }: ZipListing, file: FileHandle, reader: FileRangeReader, filePath: string) {
    if (damage !== undefined) this.damage = damage;
    this.bookKey = `zip:${filePath}`;
    this.budget = new AnalysisBudget(`zip book ${filePath}`, '7-Zip');
    this.zipfile = zipfile;
    this.byName = byName;
    this.formerNames = formerNames;
    this.file = file;
    this.reader = reader;
    this.list = [...byName].map(([name, entry]) => ({
      name,
      uncompressedSize: entry.uncompressedSize,
      isDirectory: name.endsWith('/') || name.endsWith('\\'),
    }));
  }

  descriptorIdentity(): string {
    return descriptorIdentity(this.file.fd);
  }

  entries(): readonly BookEntry[] {
    return this.list;
  }

  /** Entries of other compression methods are unpacked whole, in memory (zip-entry-methods.ts). */
  entryInMemory(name: string): boolean {
    const entry = this.find(name);
    return entry !== undefined && usesOtherMethod(entry);
  }

  /** The entry listed under `name`, or the one a book analysed earlier knew by that name. */
  private find(name: string): yauzl.Entry | undefined {
    return this.byName.get(name) ?? this.formerNames.get(name);
  }

  openEntry(name: string, work: MediaWork = {}): Promise<Readable> {
    // After close() yauzl may have released the descriptor: reading through it would throw
    // outside any promise and take the whole server down, so refuse instead.
    if (this.closed) return Promise.reject(new MediaError('ERR_1000', `archive already closed, cannot read ${name}`));
    const entry = this.find(name);
    if (!entry) return Promise.reject(new MediaError('ERR_1033', `entry not found: ${name}`));
    return openZipEntry(this.zipfile, entry, name, this.bookKey, work.caller);
  }

  /**
   * The first `maxBytes` of an entry. A stored entry (how books keep their images) is read with
   * positioned reads, no stream: analysis reads a dozen headers per book, and yauzl's entry stream
   * costs three stream stages, their events and ticks per entry (about a third of a 400-book
   * analysis profile's main thread). The first time, its local header and its first bytes come in
   * one read (see headerAndPrefix); after that, where its data starts is remembered. Other entries
   * go through the stream. An entry of another method is unpacked by 7-Zip: for a request (`work`
   * names one) in one bounded try, as its pages are; for analysis within the book's budget.
   */
  async readPrefix(name: string, maxBytes: number, work: MediaWork = {}): Promise<Buffer> {
    const entry = this.find(name);
    if (!this.closed && entry && usesOtherMethod(entry)) {
      // A reader is waiting: one try and a 503, not the analysis budget's minutes of tries again.
      if (isRequestWork(work)) return unpackEntryPrefix(this.zipfile, entry, name, this.bookKey, maxBytes, work.caller);
      return this.unpackPrefix(name, entry, maxBytes);
    }
    if (this.closed || !entry || entry.isEncrypted() || entry.compressionMethod !== STORED) {
      return collectPrefix(await this.openEntry(name, work), maxBytes).catch((error: unknown) => {
        throw entryReadError(name, error);
      });
    }
    const disagree = storedSizesDisagree(entry, name);
    if (disagree) throw disagree;
    const wanted = Math.max(0, Math.min(maxBytes, entry.uncompressedSize));
    const known = this.dataStarts.get(name);
    if (known === undefined) return this.headerAndPrefix(name, entry, wanted);
    return this.readFrom(name, known, Buffer.allocUnsafe(wanted), 0);
  }

  /**
   * The local header of a stored entry and its first `wanted` bytes in one read: the header's own
   * name and extra field lengths are unknown until it is read, so the read takes the central
   * directory's lengths plus LOCAL_HEADER_SLACK, and fetches the rest when the local ones are
   * longer. The header is checked as yauzl checks it (signature, data inside the file).
   */
  private async headerAndPrefix(name: string, entry: yauzl.Entry, wanted: number): Promise<Buffer> {
    const headerAt = entry.relativeOffsetOfLocalHeader;
    const guess = LOCAL_HEADER_BYTES + entry.fileNameLength + entry.extraFieldLength + LOCAL_HEADER_SLACK;
    const span = Math.max(0, Math.min(guess + wanted, this.zipfile.fileSize - headerAt));
    const bytes = Buffer.allocUnsafe(span);
    const got = await this.readInto(name, bytes, headerAt);
    const bad = (why: string) => new MediaError('ERR_1007', `cannot read zip entry ${name}: ${why}`);
    if (got < LOCAL_HEADER_BYTES) throw bad('unexpected EOF');
    const signature = bytes.readUInt32LE(0);
    if (signature !== LOCAL_HEADER_SIGNATURE) throw bad(`invalid local file header signature: 0x${signature.toString(16)}`);
    const dataAt = LOCAL_HEADER_BYTES + bytes.readUInt16LE(26) + bytes.readUInt16LE(28);
    const start = headerAt + dataAt;
    if (start + entry.compressedSize > this.zipfile.fileSize) {
      throw bad(`file data overflows file bounds: ${start} + ${entry.compressedSize} > ${this.zipfile.fileSize}`);
    }
    this.dataStarts.set(name, start);
    if (dataAt + wanted <= got) return bytes.subarray(dataAt, dataAt + wanted);
    // Longer local fields than guessed: what came in is kept, the rest is read.
    const head = Buffer.allocUnsafe(wanted);
    const kept = Math.max(0, Math.min(wanted, got - dataAt));
    if (kept > 0) bytes.copy(head, 0, dataAt, dataAt + kept);
    return this.readFrom(name, start, head, kept);
  }

  /** Fills `head` from `filled` on with the entry's bytes at `start` (ERR_1007 when the file ends first). */
  private async readFrom(name: string, start: number, head: Buffer, filled: number): Promise<Buffer> {
    const wanted = head.length;
    while (filled < wanted) {
      // Closed meanwhile: its descriptor may be gone (readWhole's FileHandle says so by itself).
      if (this.closed) throw new MediaError('ERR_1000', `archive already closed, cannot read ${name}`);
      const bytesRead = await new Promise<number>((resolve, reject) => {
        this.reader.readAt(head.subarray(filled), wanted - filled, start + filled, (error, count) => (error ? reject(error) : resolve(count)));
      });
      if (bytesRead === 0) throw new MediaError('ERR_1007', `zip entry ${name} is truncated: ${filled} of ${wanted} bytes`);
      filled += bytesRead;
    }
    return head;
  }

  /** Reads `bytes` from `position` on until full or the file ends; how many came in. */
  private async readInto(name: string, bytes: Buffer, position: number): Promise<number> {
    let filled = 0;
    while (filled < bytes.length) {
      if (this.closed) throw new MediaError('ERR_1000', `archive already closed, cannot read ${name}`);
      const bytesRead = await new Promise<number>((resolve, reject) => {
        this.reader.readAt(bytes.subarray(filled), bytes.length - filled, position + filled, (error, count) => (error ? reject(error) : resolve(count)));
      });
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled;
  }

  /**
   * The entry read into `target`: one positional read of its data (a deflated entry is then
   * inflated on libuv's pool and copied in), no stream stages. Undefined for what only the stream
   * path reads (encrypted entries, the methods nothing here reads) and for entries larger than
   * `target`; a short or oversized entry is ERR_1007, like the stream path's size check. Entries of
   * other methods that 7-Zip unpacks (zip-entry-methods.ts) are unpacked whole and copied in.
   */
  async readWhole(name: string, target: Buffer, work: MediaWork = {}): Promise<Buffer | undefined> {
    if (this.closed) throw new MediaError('ERR_1000', `archive already closed, cannot read ${name}`);
    const entry = this.find(name);
    if (!entry) throw new MediaError('ERR_1033', `entry not found: ${name}`);
    if (usesOtherMethod(entry)) {
      if (entry.uncompressedSize > target.length) return undefined;
      const bytes = await unpackWholeEntry(this.zipfile, entry, name, this.bookKey, work.caller);
      bytes.copy(target);
      return target.subarray(0, bytes.length);
    }
    if (entry.isEncrypted() || (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED)) return undefined;
    const expected = entry.uncompressedSize;
    if (expected > target.length) return undefined;
    const stored = entry.compressionMethod === STORED;
    const disagree = storedSizesDisagree(entry, name);
    if (disagree) throw disagree;
    const start = this.dataStarts.get(name) ?? (await this.dataStart(name, entry));
    // Compressed data larger than what it inflates to is rare (incompressible images are stored).
    const data = stored ? target.subarray(0, expected) : Buffer.allocUnsafe(entry.compressedSize);
    let filled = 0;
    while (filled < data.length) {
      const { bytesRead } = await this.file.read(data, filled, data.length - filled, start + filled);
      // Cut short by a rewrite (cp truncates first) is the rewrite's doing, not a damaged entry.
      if (bytesRead === 0) throw this.reader.changed() ?? new MediaError('ERR_1007', `zip entry ${name} is truncated: ${filled} of ${data.length} bytes`);
      filled += bytesRead;
    }
    // Read straight from the FileHandle, not through the reader: its check is made here.
    const changed = this.reader.changed();
    if (changed) throw changed;
    if (stored || expected === 0) return target.subarray(0, expected);
    let inflated: Buffer;
    try {
      // A bomb stops at the declared size instead of filling memory.
      inflated = await inflateRawAsync(data, { maxOutputLength: expected });
    } catch (error) {
      throw new MediaError('ERR_1007', `cannot inflate zip entry ${name}: ${String(error)}`, { cause: error });
    }
    if (inflated.length !== expected) throw new MediaError('ERR_1007', `zip entry ${name}: ${inflated.length} bytes inflated, ${expected} declared`);
    inflated.copy(target);
    return target.subarray(0, expected);
  }

  /**
   * The first `maxBytes` of an entry of another method, for analysis: 7-Zip stops once it has
   * them. An entry declaring fewer is unpacked whole (and one byte past, to catch a size that
   * lies). Its work counts against the book's bounds (analysis-bounds.ts), as for 7z books: a call
   * that ran out of time counts the whole limit and is made again at once (a loaded machine gets
   * another chance), never put off to a later analysis that would start the count afresh; an entry
   * that always runs out ends the analysis past the bound (ERROR ERR_1008).
   */
  private async unpackPrefix(name: string, entry: yauzl.Entry, maxBytes: number): Promise<Buffer> {
    const { info, zip } = await otherMethodZip(this.zipfile, entry, name);
    const whole = info.uncompressedSize <= maxBytes;
    const keep = whole ? info.uncompressedSize + 1 : Math.max(1, maxBytes);
    let unpacked;
    for (;;) {
      try {
        unpacked = await unpackOtherMethod(info, zip, keep, this.bookKey);
        break;
      } catch (error) {
        if (!(error instanceof OperationTimeout)) throw error;
        this.budget.spendTimeOut(error.limitMs);
      }
    }
    this.budget.spend(unpacked.bytes.length, unpacked.workMs);
    if (whole) return checkWhole(info, unpacked.bytes, unpacked.cut);
    return unpacked.bytes.subarray(0, maxBytes);
  }

  /** Reads an entry's local header (yauzl checks its signature and that the data fits the file). */
  private dataStart(name: string, entry: yauzl.Entry): Promise<number> {
    return new Promise((resolve, reject) => {
      this.zipfile.readLocalFileHeader(entry, { minimal: true }, (error, header) => {
        if (error || !header) {
          reject(new MediaError('ERR_1007', `cannot read zip entry ${name}: ${String(error)}`, { cause: error }));
          return;
        }
        this.dataStarts.set(name, header.fileDataStart);
        resolve(header.fileDataStart);
      });
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // yauzl keeps the descriptor open until streams already handed out have finished.
    this.zipfile.close();
  }
}

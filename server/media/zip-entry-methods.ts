import { Readable } from 'node:stream';
import type yauzl from 'yauzl';
import { MediaError } from './book-reader.ts';
import { sevenZip } from './sevenzip-client.ts';
import { TimedOutInputs } from './timed-out-inputs.ts';
import { OperationTimeout } from './transient-errors.ts';

/*
 * Zip entries compressed with a method other than Stored or Deflate. Komga reads zips with Apache
 * commons-compress's ZipFile, which also reads Shrink (1), Implode (6), Deflate64 (9: what Windows
 * Explorer writes for large files) and BZIP2 (12). Folio reads those, and LZMA (14) and PPMd (98)
 * that 7-Zip writes into zips, through 7-Zip itself (the 7z-wasm build the .cb7 reader runs, in
 * its worker pool: sevenzip-client.ts): the entry's raw bytes, as the zip holds them, are put in a
 * one-entry zip of their own and unpacked there, 7-Zip checking their CRC. Its other methods (XZ,
 * whose dictionary can ask for gigabytes; Zstandard, which 7-Zip does not read) stay refused with
 * ERR_1007 and their name.
 *
 * Bounds: an entry is at most MAX_OTHER_METHOD_BYTES (declared, and unpacked: 7-Zip is stopped one
 * byte past what the entry declares, so a bomb or a lying size costs that much and no more); an
 * LZMA dictionary is at most MAX_CODER_MEMORY (PPMd's model is at most that by its format); each
 * call has the 7-Zip pool's time limit and queue bound.
 */

const METHOD_NAMES: Record<number, string> = {
  1: 'Shrink',
  2: 'Reduce',
  3: 'Reduce',
  4: 'Reduce',
  5: 'Reduce',
  6: 'Implode',
  9: 'Deflate64',
  10: 'PKWARE DCL Implode',
  12: 'BZIP2',
  14: 'LZMA',
  18: 'IBM TERSE',
  19: 'IBM LZ77',
  20: 'Zstandard',
  93: 'Zstandard',
  94: 'MP3',
  95: 'XZ',
  96: 'JPEG',
  97: 'WavPack',
  98: 'PPMd',
  99: 'AES',
};

const STORED = 0;
const DEFLATED = 8;
const SHRINK = 1;
const IMPLODE = 6;
const DEFLATE64 = 9;
const BZIP2 = 12;
const LZMA = 14;
const PPMD = 98;
/** Methods 7-Zip unpacks here (Stored and Deflate are read without it). */
const UNPACKED_BY_7ZIP = new Set([SHRINK, IMPLODE, DEFLATE64, BZIP2, LZMA, PPMD]);

/** Largest entry of such a method read: it is held in memory whole, as a 7z page is. */
export const MAX_OTHER_METHOD_BYTES = 128 * 1024 * 1024;
/** Largest LZMA dictionary an entry may ask 7-Zip to allocate (as for 7z books). */
const MAX_CODER_MEMORY = 256 * 1024 * 1024;
/** LZMA in zip: 2 bytes of version, 2 of properties' size, then the properties (dictionary size at 1). */
const LZMA_HEADER_BYTES = 4;
/** Flag bits that belong to the method (Implode's dictionary and trees; LZMA's end marker). */
const METHOD_FLAGS = 0x0006;

/** "method 95 (XZ)". */
export function methodName(method: number): string {
  const name = METHOD_NAMES[method];
  return name ? `method ${method} (${name})` : `method ${method}`;
}

/** The ERR_1007 for an entry whose method is not read here, undefined when 7-Zip reads it. */
export function unsupportedMethod(name: string, method: number): MediaError | undefined {
  if (UNPACKED_BY_7ZIP.has(method)) return undefined;
  return new MediaError('ERR_1007', `zip entry ${name} uses compression ${methodName(method)}, which is not supported`);
}

/** What is known of an entry before its bytes are unpacked. */
export interface OtherMethodEntry {
  name: string;
  method: number;
  flags: number;
  crc32: number;
  uncompressedSize: number;
  compressedSize: number;
}

/** Refuses, before anything is read, an entry too large to unpack in memory. */
export function checkOtherMethodSizes(entry: OtherMethodEntry): void {
  if (entry.uncompressedSize > MAX_OTHER_METHOD_BYTES) {
    throw new MediaError('ERR_1007', `zip entry ${entry.name} declares ${entry.uncompressedSize} bytes, over the ${MAX_OTHER_METHOD_BYTES}-byte limit for ${methodName(entry.method)}`);
  }
  // Compressed data a little larger than its content happens (incompressible bytes); far larger does not.
  if (entry.compressedSize > MAX_OTHER_METHOD_BYTES + 1024 * 1024) {
    throw new MediaError('ERR_1007', `zip entry ${entry.name} holds ${entry.compressedSize} compressed bytes, over the limit for ${methodName(entry.method)}`);
  }
}

const LOCAL_HEADER_BYTES = 30;
const CENTRAL_HEADER_BYTES = 46;
const END_RECORD_BYTES = 22;
const ENTRY_NAME = Buffer.from('e');
/** The raw data of the entry starts here in the buffer oneEntryZip returns. */
export const RAW_DATA_OFFSET = LOCAL_HEADER_BYTES + ENTRY_NAME.length;

/**
 * A buffer for a one-entry zip holding `entry`'s raw data: headers written, the data left for the
 * caller to read in at RAW_DATA_OFFSET (no copy of it is made). Sizes and CRC are the entry's own,
 * so 7-Zip holds the data to them.
 */
export function oneEntryZip(entry: OtherMethodEntry): Buffer {
  const dataEnd = RAW_DATA_OFFSET + entry.compressedSize;
  const zip = Buffer.alloc(dataEnd + CENTRAL_HEADER_BYTES + ENTRY_NAME.length + END_RECORD_BYTES);
  const flags = entry.flags & METHOD_FLAGS;
  const crc = entry.crc32 >>> 0;
  // Version 6.3: the one that names LZMA and PPMd.
  const version = 63;
  zip.writeUInt32LE(0x04034b50, 0);
  zip.writeUInt16LE(version, 4);
  zip.writeUInt16LE(flags, 6);
  zip.writeUInt16LE(entry.method, 8);
  zip.writeUInt32LE(crc, 14);
  zip.writeUInt32LE(entry.compressedSize, 18);
  zip.writeUInt32LE(entry.uncompressedSize, 22);
  zip.writeUInt16LE(ENTRY_NAME.length, 26);
  ENTRY_NAME.copy(zip, LOCAL_HEADER_BYTES);
  const central = dataEnd;
  zip.writeUInt32LE(0x02014b50, central);
  zip.writeUInt16LE(version, central + 4);
  zip.writeUInt16LE(version, central + 6);
  zip.writeUInt16LE(flags, central + 8);
  zip.writeUInt16LE(entry.method, central + 10);
  zip.writeUInt32LE(crc, central + 16);
  zip.writeUInt32LE(entry.compressedSize, central + 20);
  zip.writeUInt32LE(entry.uncompressedSize, central + 24);
  zip.writeUInt16LE(ENTRY_NAME.length, central + 28);
  ENTRY_NAME.copy(zip, central + CENTRAL_HEADER_BYTES);
  const end = central + CENTRAL_HEADER_BYTES + ENTRY_NAME.length;
  zip.writeUInt32LE(0x06054b50, end);
  zip.writeUInt16LE(1, end + 8);
  zip.writeUInt16LE(1, end + 10);
  zip.writeUInt32LE(CENTRAL_HEADER_BYTES + ENTRY_NAME.length, end + 12);
  zip.writeUInt32LE(central, end + 16);
  return zip;
}

/** Refuses an LZMA entry whose dictionary is over the limit, before 7-Zip allocates it. */
function checkCoderMemory(entry: OtherMethodEntry, zip: Buffer): void {
  if (entry.method !== LZMA) return;
  const at = RAW_DATA_OFFSET + LZMA_HEADER_BYTES + 1;
  if (entry.compressedSize < LZMA_HEADER_BYTES + 5) throw new MediaError('ERR_1007', `zip entry ${entry.name}: LZMA data too short for its header`);
  const dictionary = zip.readUInt32LE(at);
  if (dictionary > MAX_CODER_MEMORY) {
    throw new MediaError('ERR_1007', `zip entry ${entry.name}: LZMA dictionary of ${dictionary} bytes is over the ${MAX_CODER_MEMORY}-byte limit`);
  }
}

/**
 * Unpacks an entry from its one-entry zip (oneEntryZip, data read in). `keep`: bytes wanted; 7-Zip
 * is stopped once it has unpacked that many (`cut` then says more was coming). Failures of the
 * entry's data (damaged, truncated, wrong CRC) are ERR_1007. A call past the pool's time limit
 * throws OperationTimeout: the caller decides what it means (a page: try again later; analysis:
 * the entry cannot be read, see OpenedZip.readPrefix).
 */
export async function unpackOtherMethod(
  entry: OtherMethodEntry,
  zip: Buffer,
  keep: number,
  book: string,
  caller?: string,
): Promise<{ bytes: Buffer; cut: boolean; workMs: number }> {
  checkCoderMemory(entry, zip);
  let result;
  try {
    // oneEntryZip's buffer is its own (Buffer.alloc never pools): posted as it is.
    const whole = zip.byteOffset === 0 && zip.length === zip.buffer.byteLength;
    const bytes = (whole ? zip.buffer : zip.buffer.slice(zip.byteOffset, zip.byteOffset + zip.length)) as ArrayBuffer;
    result = await sevenZip.call({ op: 'zipEntry', book, zip: bytes, keep }, caller);
  } catch (error) {
    if (error instanceof OperationTimeout) throw error;
    if (error instanceof MediaError) {
      throw new MediaError('ERR_1007', `cannot unpack zip entry ${entry.name} (${methodName(entry.method)}): ${error.message}`, { cause: error });
    }
    throw error;
  }
  if (!('entry' in result)) throw new MediaError('ERR_1008', 'unexpected 7-Zip worker answer');
  return { bytes: Buffer.from(result.entry), cut: result.cut, workMs: result.workMs };
}

/** Checks a whole entry unpacked to what it declares (7-Zip checked its CRC; a cut entry was larger). */
export function checkWhole(entry: OtherMethodEntry, bytes: Buffer, cut: boolean): Buffer {
  if (cut || bytes.length !== entry.uncompressedSize) {
    throw new MediaError('ERR_1007', `zip entry ${entry.name} unpacks to ${cut ? 'more than' : bytes.length} bytes, not the ${entry.uncompressedSize} it declares`);
  }
  return bytes;
}

/**
 * A stored entry is its own size: one whose two declared sizes differ (a damaged header, or a
 * zip64 field declaring a terabyte) cannot be read whole, whichever way it is read (listing leaves
 * sizes unchecked so that the book keeps its other pages: zip-reader.ts).
 */
export function storedSizesDisagree(entry: yauzl.Entry, name: string): MediaError | undefined {
  // An encrypted entry's data starts with its cipher header (12 bytes more): yauzl refuses it as encrypted.
  if (entry.isEncrypted() || entry.compressionMethod !== STORED || entry.compressedSize === entry.uncompressedSize) return undefined;
  return new MediaError('ERR_1007', `zip entry ${name}: stored with ${entry.compressedSize} bytes but declares ${entry.uncompressedSize}`);
}

/** Entries yauzl cannot inflate (other methods); encrypted ones stay refused by yauzl, whatever their method. */
export function usesOtherMethod(entry: yauzl.Entry): boolean {
  return !entry.isEncrypted() && entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED;
}

/**
 * An entry's bytes as a stream: the one place a zip entry (of a book being read, or rewritten) is
 * opened. Stored and Deflate entries stream through yauzl (which refuses encrypted ones); entries
 * of other methods are unpacked whole by 7-Zip (unpackWholeEntry). `book` names the book to the
 * 7-Zip pool; `caller`, whom the read is for (work-callers.ts).
 */
export function openZipEntry(zipfile: yauzl.ZipFile, entry: yauzl.Entry, name: string, book: string, caller?: string): Promise<Readable> {
  // Known damaged before a byte is read: refused now, not found out at the stream's end, after a
  // page route has sent 200 and a response it must then cut.
  const disagree = storedSizesDisagree(entry, name);
  if (disagree) return Promise.reject(disagree);
  if (usesOtherMethod(entry)) return unpackWholeEntry(zipfile, entry, name, book, caller).then((bytes) => Readable.from([bytes], { objectMode: false }));
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (error, stream) => {
      if (error || !stream) reject(new MediaError('ERR_1007', `cannot read zip entry ${name}: ${String(error)}`, { cause: error }));
      else resolve(stream);
    });
  });
}

/** Entries whose unpacking ran out of time lately fail at once for a while (timed-out-inputs.ts). */
const timedOut = new TimedOutInputs();

/**
 * An entry of another method whole: 7-Zip unpacks one byte past its declared size at most, so one
 * that unpacks to more is refused (ERR_1007) without being held. One that ran out of time lately
 * fails at once (503) instead of taking a 7-Zip worker for another whole limit for every reader
 * of the page; the key names the entry's version (where it is, its sizes and CRC), so a book
 * written again is tried again. Analysis does not go through here: it counts its time-outs.
 */
export function unpackWholeEntry(zipfile: yauzl.ZipFile, entry: yauzl.Entry, name: string, book: string, caller?: string): Promise<Buffer> {
  return timedOut.run(timedOutKey(book, name, entry), `7-Zip unpacking of zip entry ${name} in ${book}`, sevenZip.timeLimitMs, async () => {
    const { info, zip } = await otherMethodZip(zipfile, entry, name);
    const { bytes, cut } = await unpackOtherMethod(info, zip, info.uncompressedSize + 1, book, caller);
    return checkWhole(info, bytes, cut);
  });
}

/**
 * The first `maxBytes` of an entry of another method, for a request (an EPUB's package or
 * navigation document read for a reader): one 7-Zip call, under the same rule as unpackWholeEntry
 * (an entry that ran out of time lately fails at once with a 503; same key, so a time-out of the
 * page and of its prefix count as one). Analysis reads prefixes with its own bounds instead
 * (OpenedZip.readPrefix).
 */
export function unpackEntryPrefix(zipfile: yauzl.ZipFile, entry: yauzl.Entry, name: string, book: string, maxBytes: number, caller?: string): Promise<Buffer> {
  return timedOut.run(timedOutKey(book, name, entry), `7-Zip unpacking of zip entry ${name} in ${book}`, sevenZip.timeLimitMs, async () => {
    const { info, zip } = await otherMethodZip(zipfile, entry, name);
    const whole = info.uncompressedSize <= maxBytes;
    const { bytes, cut } = await unpackOtherMethod(info, zip, whole ? info.uncompressedSize + 1 : Math.max(1, maxBytes), book, caller);
    return whole ? checkWhole(info, bytes, cut) : bytes.subarray(0, maxBytes);
  });
}

/** Names an entry's version (where it is, its sizes and CRC): a book written again is tried again. */
function timedOutKey(book: string, name: string, entry: yauzl.Entry): string {
  return [book, name, entry.relativeOffsetOfLocalHeader, entry.compressedSize, entry.uncompressedSize, entry.crc32].join('\u0000');
}

/**
 * An entry of another method checked, and its raw data read into a one-entry zip of its own
 * (oneEntryZip) through yauzl's undecoded stream of it (decodeFileData: false), which checks its
 * local header and that the data lies inside the file.
 */
export async function otherMethodZip(zipfile: yauzl.ZipFile, entry: yauzl.Entry, name: string): Promise<{ info: OtherMethodEntry; zip: Buffer }> {
  const unsupported = unsupportedMethod(name, entry.compressionMethod);
  if (unsupported) throw unsupported;
  const info: OtherMethodEntry = {
    name,
    method: entry.compressionMethod,
    flags: entry.generalPurposeBitFlag,
    crc32: entry.crc32,
    uncompressedSize: entry.uncompressedSize,
    compressedSize: entry.compressedSize,
  };
  checkOtherMethodSizes(info);
  const zip = oneEntryZip(info);
  const raw = await new Promise<Readable>((resolve, reject) => {
    zipfile.openReadStream(entry, { decodeFileData: false }, (error, stream) => {
      if (error || !stream) reject(new MediaError('ERR_1007', `cannot read zip entry ${name}: ${String(error)}`, { cause: error }));
      else resolve(stream);
    });
  });
  let filled = 0;
  try {
    for await (const chunk of raw as AsyncIterable<Buffer>) {
      // The stream ends at the compressed size; never written past it whatever a reader does.
      const take = Math.min(chunk.length, info.compressedSize - filled);
      chunk.copy(zip, RAW_DATA_OFFSET + filled, 0, take);
      filled += take;
    }
  } catch (error) {
    throw new MediaError('ERR_1007', `cannot read zip entry ${name}: ${String(error)}`, { cause: error });
  }
  if (filled !== info.compressedSize) throw new MediaError('ERR_1007', `zip entry ${name} is truncated: ${filled} of ${info.compressedSize} bytes`);
  return { info, zip };
}

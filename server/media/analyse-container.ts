import { constants } from 'node:fs';
import { type FileHandle, open as openFile } from 'node:fs/promises';
import { AnalysisTooCostly, type BookEntry, type BookReader, MediaError, type OpenedBook } from './book-reader.ts';
import { mediaTypeFromExtension, probeEntryHead } from './image-probe.ts';
import { naturalCompare } from './natural-sort.ts';
import { readerForExtension, readerForSignature } from './readers.ts';
import { isTransientFailure } from './transient-errors.ts';
import { staysInsideArchive } from './entry-names.ts';
import { identityOf } from './file-identity.ts';
import type { MediaWork } from './work-callers.ts';

export interface AnalysedPage {
  fileName: string;
  mediaType: string;
  width: number | null;
  height: number | null;
  fileSize: number | null;
}

export interface AnalysedFile {
  fileName: string;
  mediaType: string | null;
  fileSize: number;
}

export interface ContainerAnalysis {
  reader: BookReader;
  pages: AnalysedPage[];
  files: AnalysedFile[];
  /** Entries that could not be read (ERR_1007 when non-empty). */
  failedEntries: string[];
  /** Of those, the ones whose bytes could not be read at all (see DescribedBook). */
  unreadableEntries?: string[];
  /** Files the book's index lists that are not in it (ERR_1033 when non-empty). */
  missingEntries?: string[];
  /** Why the listing ended before the archive did (OpenedBook.damage): ERR_1007. */
  damage?: string;
  /** Set by formats that count pages without listing page images (text EPUB). */
  pageCount?: number;
  epubDivinaCompatible?: boolean;
}

const FIRST_PREFIX = 64 * 1024;
const SIGNATURE_BYTES = 64;
const MAX_PREFIX = 4 * 1024 * 1024;

/**
 * Lists a book's entries and describes every image page (natural order of entry names, type from
 * content sniffing, dimensions from headers only). Throws MediaError with a Komga error code when
 * the file cannot be analysed at all.
 */
export async function analyseContainer(filePath: string, withDimensions = true): Promise<ContainerAnalysis> {
  const { reader, book } = await openByContent(filePath);
  try {
    return await analyseOpened(reader, book, withDimensions);
  } finally {
    book.close();
  }
}

/** Analysis of a book already opened (through the archive pool, for the server). */
export async function analyseOpened(reader: BookReader, book: OpenedBook, withDimensions = true): Promise<ContainerAnalysis> {
  const described = book.describe ? await book.describe(withDimensions) : await describeEntries(book, withDimensions);
  return book.damage === undefined ? { reader, ...described } : { reader, ...described, damage: book.damage };
}

/** The reader for a file's actual content (signature), whatever its extension says. */
export async function detectReader(filePath: string): Promise<BookReader> {
  const { reader, file } = await recognise(filePath);
  await closeRead(file);
  return reader;
}

/**
 * A book opened by the reader its content calls for. The file is opened once: a reader that can
 * take over the descriptor its signature was read from does (zip books: one open and one close
 * fewer per book, which analysing a library does thousands of times).
 */
export async function openByContent(
  filePath: string,
  open: OpenForReading = openNonBlocking,
  work?: MediaWork,
): Promise<{ reader: BookReader; book: OpenedBook; identity: string }> {
  const { reader, file, size, identity } = await recognise(filePath, open);
  if (reader.openFile) return { reader, book: await reader.openFile(file, filePath, size, work), identity };
  await closeRead(file);
  return { reader, book: await reader.open(filePath, work), identity };
}

/**
 * Opens a book file for reading. The server's opens a library's file and checks that the descriptor
 * it got lies inside the library (openInsideItsLibrary, handed down by the archive pool's owner); a
 * refusal is, like any failure to open, "cannot read file" (ERR_1000).
 */
export type OpenForReading = (filePath: string) => Promise<FileHandle>;

// Non-blocking: a named pipe put where a book was would otherwise hold this open (and a thread of
// libuv's pool) until something writes to it. Reads of a regular file ignore the flag.
const openNonBlocking: OpenForReading = (filePath) => openFile(filePath, constants.O_RDONLY | constants.O_NONBLOCK);

/** The file open for reading, its size and the reader its first bytes call for (the file is closed on failure). */
async function recognise(filePath: string, open: OpenForReading = openNonBlocking): Promise<{ reader: BookReader; file: FileHandle; size: number; identity: string }> {
  let head: Buffer;
  let file: FileHandle;
  let size: number;
  let identity: string;
  try {
    file = await open(filePath);
  } catch (error) {
    throw new MediaError('ERR_1000', `cannot read file: ${String(error)}`, { cause: error });
  }
  try {
    const info = await file.stat({ bigint: true });
    if (!info.isFile()) {
      await closeRead(file);
      throw new MediaError('ERR_1000', 'cannot read file: not a regular file');
    }
    size = Number(info.size);
    identity = identityOf(info);
    // 64 bytes: enough for an EPUB's first zip entry name ("mimetype" at offset 30).
    head = Buffer.alloc(SIGNATURE_BYTES);
    const { bytesRead } = await file.read(head, 0, SIGNATURE_BYTES, 0);
    head = head.subarray(0, bytesRead);
  } catch (error) {
    if (error instanceof MediaError) throw error;
    await closeRead(file);
    throw new MediaError('ERR_1000', `cannot read file: ${String(error)}`, { cause: error });
  }
  const reader = readerForSignature(head);
  if (!reader) {
    await closeRead(file);
    const byExtension = readerForExtension(filePath);
    throw new MediaError(
      'ERR_1001',
      byExtension ? `content is not ${byExtension.mediaType}` : 'media type not supported',
    );
  }
  return { reader, file, size, identity };
}

/** Closes a file opened to read its signature; a failure to close is a failure to read it (ERR_1000). */
async function closeRead(file: FileHandle): Promise<void> {
  try {
    await file.close();
  } catch (error) {
    throw new MediaError('ERR_1000', `cannot read file: ${String(error)}`, { cause: error });
  }
}

/** What analysis learnt of one entry: a page, another file, and whether it failed to read. */
interface DescribedEntry {
  page?: AnalysedPage;
  file?: AnalysedFile;
  failed: boolean;
  /** Its bytes could not be read at all (encrypted, unknown compression, damaged header). */
  unreadable?: boolean;
}

async function describeEntries(
  book: OpenedBook,
  withDimensions: boolean,
): Promise<Omit<ContainerAnalysis, 'reader'>> {
  const entries = book
    .entries()
    .filter((e) => !e.isDirectory && staysInsideArchive(e.name))
    .toSorted((a, b) => naturalCompare(a.name, b.name));
  // Formats read by walking the archive (RAR) read many entries in one walk, in the archive's
  // order: entries are read in that order (and listed in natural order), or a walk would be made
  // for each entry of an archive stored in, say, reverse order.
  const archiveOrder = new Map(book.entries().map((entry, i) => [entry, i]));
  const readOrder = entries.map((_, i) => i);
  if (book.entriesInMemory) readOrder.sort((a, b) => archiveOrder.get(entries[a]!)! - archiveOrder.get(entries[b]!)!);
  const read = await mapBounded(readOrder, book.parallelReads ?? 1, (i) => describeEntry(book, entries[i]!, withDimensions));
  const described: DescribedEntry[] = new Array<DescribedEntry>(entries.length);
  readOrder.forEach((entryIndex, k) => {
    described[entryIndex] = read[k]!;
  });
  const pages: AnalysedPage[] = [];
  const files: AnalysedFile[] = [];
  const failedEntries: string[] = [];
  const unreadableEntries: string[] = [];
  described.forEach((d, i) => {
    if (d.page) pages.push(d.page);
    if (d.file) files.push(d.file);
    if (d.failed) failedEntries.push(entries[i]!.name);
    if (d.unreadable) unreadableEntries.push(entries[i]!.name);
  });
  return { pages, files, failedEntries, unreadableEntries };
}

/**
 * `work` on every item, at most `limit` at once, results in the items' order. After a failure no
 * new item starts, and the first error is thrown once the ones in flight have settled (their reads
 * must be over before the caller closes the archive).
 */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}

async function describeEntry(book: OpenedBook, entry: BookEntry, withDimensions: boolean): Promise<DescribedEntry> {
  if (entry.uncompressedSize === 0) return { file: { fileName: entry.name, mediaType: null, fileSize: 0 }, failed: false };
  try {
    const probe = await probeEntryHead((length) => book.readPrefix(entry.name, length), entry.uncompressedSize, FIRST_PREFIX, MAX_PREFIX, withDimensions);
    const mediaType = probe.mediaType;
    if (mediaType && probe.bad) {
      // A lying or cut-short header (unparseable, absurd size, ends first): a bad page. Its slot
      // stays, without the dimensions it claims, and the book gets ERR_1007.
      return { page: { fileName: entry.name, mediaType, width: null, height: null, fileSize: entry.uncompressedSize }, failed: true };
    }
    if (mediaType) {
      return {
        page: {
          fileName: entry.name,
          mediaType,
          width: withDimensions ? probe.width : null,
          height: withDimensions ? probe.height : null,
          fileSize: entry.uncompressedSize,
        },
        failed: false,
      };
    }
    return { file: { fileName: entry.name, mediaType: guessNonImageType(entry.name), fileSize: entry.uncompressedSize }, failed: false };
  } catch (error) {
    // The server being short of resources says nothing about the entry: the whole analysis is retried.
    if (isTransientFailure(error)) throw error;
    // The whole book's analysis went past its bound: it ends here, the book with it.
    if (error instanceof AnalysisTooCostly) throw error;
    // An image-looking entry that cannot be read is still a page slot; serving it will fail later.
    const hinted = mediaTypeFromExtension(entry.name);
    return { page: hinted ? { fileName: entry.name, mediaType: hinted, width: null, height: null, fileSize: entry.uncompressedSize } : undefined, failed: true, unreadable: true };
  }
}

function guessNonImageType(name: string): string | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.xml')) return 'application/xml';
  if (lower.endsWith('.txt')) return 'text/plain';
  return null;
}

import type { Readable } from 'node:stream';
import { decodeXmlText } from './xml-text.ts';
import { AnalysisTooCostly, type BookEntry, type BookReader, type DescribedBook, type DescribedPage, MediaError, type OpenedBook } from './book-reader.ts';
import { CONTAINER_PARSER, OPF_PARSER, type OpfPackage, readingOrder, xhtmlImages } from './epub-opf.ts';
import { parseXml } from './xml-parsing.ts';
import { ENCRYPTION_PARSER } from './epub-encryption.ts';
import { keepPackage, keptPackage } from './epub-package-cache.ts';
import { mediaTypeFromExtension, probeEntryHead } from './image-probe.ts';
import { zipReader } from './zip-reader.ts';
import { isTransientFailure } from './transient-errors.ts';
import type { MediaWork } from './work-callers.ts';

const EPUB_MEDIA_TYPE = 'application/epub+zip';
const ENCRYPTION_XML = 'META-INF/encryption.xml';
const MAX_XML_BYTES = 4 * 1024 * 1024;
const MAX_XHTML_BYTES = 256 * 1024;
const IMAGE_PREFIX = 64 * 1024;
const MAX_IMAGE_PREFIX = 4 * 1024 * 1024;
/** A page holding at most this many visible characters besides its image still counts as image-only. */
const MAX_IMAGE_PAGE_TEXT = 32;
/** Text EPUBs: one page per this many bytes of each spine document (Komga's positions use 1024 chars). */
const BYTES_PER_PAGE = 1024;

const XHTML_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/xml', 'text/xml']);

/**
 * EPUB books. An EPUB is a zip whose first entry is the stored file "mimetype"; entries are read
 * through the zip reader. Two kinds come out of analysis:
 * - image-only EPUBs (typically fixed-layout comics): every spine document shows exactly one image,
 *   so the images become pages and epubDivinaCompatible is set; they read like a CBZ.
 * - text EPUBs: no page images; the page count is an estimate from the spine documents' sizes, and
 *   epubDivinaCompatible stays false so readers do not try to page them as images.
 */
export const epubReader: BookReader = {
  mediaType: EPUB_MEDIA_TYPE,
  mediaProfile: 'EPUB',
  extensions: ['epub'],
  matchesSignature: (head) =>
    // Zip local file header whose name (length 8 at offset 26) is "mimetype" at offset 30. The
    // mimetype's content is checked at analysis (ERR_1032), where the whole entry can be read.
    head.length >= 38 &&
    head.readUInt32LE(0) === 0x04034b50 &&
    head.readUInt16LE(26) === 8 &&
    head.subarray(30, 38).toString('latin1') === 'mimetype',
  open: async (filePath) => new OpenedEpub(await zipReader.open(filePath), filePath),
  // Takes over the descriptor its signature was read from, as zip books do: for a library's book,
  // the one checked to lie inside the library (openInsideItsLibrary), never opened again by path.
  openFile: async (file, filePath, size) => new OpenedEpub(await zipReader.openFile!(file, filePath, size), filePath),
};

async function readText(book: OpenedBook, name: string, limit: number): Promise<string> {
  return decodeXmlText(await book.readPrefix(name, limit));
}

/**
 * The book's package document: its own parse (EPUB books opened here, and the archive pool's
 * handles of them, keep one per file state: epub-package-cache.ts), else read and parsed now.
 */
export function bookPackage(book: OpenedBook & { package?(): Promise<OpfPackage> }): Promise<OpfPackage> {
  return book.package ? book.package() : readPackage(book);
}

/** Reads META-INF/container.xml and the OPF it names. */
export async function readPackage(book: OpenedBook): Promise<OpfPackage> {
  const names = new Set(book.entries().map((e) => e.name));
  if (!names.has('META-INF/container.xml')) throw new MediaError('ERR_1008', 'EPUB has no META-INF/container.xml');
  let opfPath: string | null;
  try {
    opfPath = await parseXml(CONTAINER_PARSER, 'the EPUB container', await readText(book, 'META-INF/container.xml', MAX_XML_BYTES));
  } catch (error) {
    throw new MediaError('ERR_1008', `cannot read EPUB container: ${String(error)}`, { cause: error });
  }
  if (!opfPath || !names.has(opfPath)) throw new MediaError('ERR_1008', `EPUB package document missing: ${opfPath ?? '(none)'}`);
  try {
    return await parseXml(OPF_PARSER, `the EPUB package document ${opfPath}`, await readText(book, opfPath, MAX_XML_BYTES), opfPath);
  } catch (error) {
    throw new MediaError('ERR_1008', `cannot read EPUB package document: ${String(error)}`, { cause: error });
  }
}

/** Resources META-INF/encryption.xml lists as encrypted (font obfuscation aside); empty without one. */
async function encryptedResources(book: OpenedBook, sizes: ReadonlyMap<string, number>): Promise<Set<string>> {
  if (!sizes.has(ENCRYPTION_XML)) return new Set();
  try {
    return new Set(await parseXml(ENCRYPTION_PARSER, 'the EPUB encryption document', await readText(book, ENCRYPTION_XML, MAX_XML_BYTES)));
  } catch (error) {
    // The server being busy says nothing about the book: the analysis is retried.
    if (isTransientFailure(error)) throw error;
    throw new MediaError('ERR_1008', `cannot read EPUB ${ENCRYPTION_XML}: ${String(error)}`, { cause: error });
  }
}

/**
 * A book whose text or page images are encrypted (DRM) cannot be shown by any reader here, whatever
 * its package says: it is an analysis error naming the protection, as encrypted PDF and 7z books
 * are, rather than a READY book of ciphertext.
 */
function refuseEncrypted(paths: readonly string[], encrypted: ReadonlySet<string>, what: string): void {
  if (encrypted.size === 0) return;
  const locked = paths.filter((path) => encrypted.has(path));
  if (locked.length === 0) return;
  throw new MediaError('ERR_1008', `EPUB is protected by DRM: ${locked.length} of its ${paths.length} ${what} are encrypted (${ENCRYPTION_XML} lists ${locked[0]})`);
}

class OpenedEpub implements OpenedBook {
  private readonly zip: OpenedBook;
  private readonly path: string;
  private packageDocument: Promise<OpfPackage> | undefined;

  constructor(zip: OpenedBook, path: string) {
    this.zip = zip;
    this.path = path;
  }

  entries(): readonly BookEntry[] {
    return this.zip.entries();
  }

  openEntry(name: string, work?: MediaWork): Promise<Readable> {
    return this.zip.openEntry(name, work);
  }

  // Whom the read is for goes on to the zip: a request's read of a 7-Zip entry gets one try, analysis its budget.
  readPrefix(name: string, maxBytes: number, work?: MediaWork): Promise<Buffer> {
    return this.zip.readPrefix(name, maxBytes, work);
  }

  descriptorIdentity(): string {
    return this.zip.descriptorIdentity!();
  }

  close(): void {
    this.zip.close();
  }

  package(): Promise<OpfPackage> {
    if (this.packageDocument) return this.packageDocument;
    const reading = this.readOrReuse();
    this.packageDocument = reading;
    // A failure is not kept: a busy server or a time-out says nothing of the book (a damaged
    // package fails again, at the cost of one more read).
    reading.catch(() => {
      if (this.packageDocument === reading) this.packageDocument = undefined;
    });
    return reading;
  }

  /** The package parsed for this file state before (by another handle of it), or read now and kept. */
  private async readOrReuse(): Promise<OpfPackage> {
    const identity = this.zip.descriptorIdentity!();
    // A descriptor that cannot be read ('gone') has no state to key a parse by.
    const key = identity.startsWith('gone') ? undefined : `${this.path}\u0000${identity}`;
    const known = key === undefined ? undefined : keptPackage(key);
    if (known) return known;
    const pkg = await readPackage(this.zip);
    if (key !== undefined) keepPackage(key, pkg);
    return pkg;
  }

  /** The declared cover image (posters of text EPUBs, which have no page 1). */
  async cover(): Promise<Readable | undefined> {
    const cover = (await this.package()).coverImage;
    if (!cover || !this.entries().some((e) => e.name === cover)) return undefined;
    return this.openEntry(cover);
  }

  async describe(withDimensions: boolean): Promise<DescribedBook> {
    const mimetype = (await this.readPrefix('mimetype', 256)).toString('latin1').trim();
    if (mimetype !== EPUB_MEDIA_TYPE) throw new MediaError('ERR_1032', `EPUB has wrong media type: ${mimetype.slice(0, 60)}`);
    const pkg = await this.package();
    const sizes = new Map(this.entries().filter((e) => !e.isDirectory).map((e) => [e.name, e.uncompressedSize]));
    const spine = readingOrder(pkg, sizes);
    const encrypted = await encryptedResources(this.zip, sizes);
    refuseEncrypted(spine.map((item) => item.path), encrypted, 'reading-order documents');

    const failedEntries: string[] = [];
    const images = await this.imagePerSpineItem(spine, sizes, failedEntries);
    if (images) refuseEncrypted(images, encrypted, 'page images');
    const described: DescribedBook = { pages: [], files: [], failedEntries, epubDivinaCompatible: images !== null };
    if (images) {
      for (const image of images) described.pages.push(await this.describeImage(image, sizes.get(image) ?? 0, withDimensions, described.failedEntries));
    } else {
      described.pageCount = spine.reduce((sum, item) => sum + Math.max(1, Math.ceil((sizes.get(item.path) ?? 0) / BYTES_PER_PAGE)), 0);
    }
    const missing = new Set(pkg.manifest.filter((item) => !sizes.has(item.path)).map((item) => item.path));
    if (missing.size > 0) described.missingEntries = [...missing];
    const pageNames = new Set(described.pages.map((p) => p.fileName));
    const manifestTypes = new Map(pkg.manifest.map((item) => [item.path, item.mediaType]));
    for (const [name, size] of sizes) {
      if (!pageNames.has(name)) described.files.push({ fileName: name, mediaType: manifestTypes.get(name) || null, fileSize: size });
    }
    return described;
  }

  /**
   * The one image each spine document shows, in reading order; null as soon as one document is
   * not image-only (text EPUB). Spine entries that are images themselves count as their own page.
   * A document that cannot be read (damaged, cut short) cannot show it is image-only: the book is
   * read as text, as Komga's analysis does, with that document in `failed` (ERR_1007, READY): one
   * damaged page document made the whole book ERROR, none of its pages readable.
   */
  private async imagePerSpineItem(spine: OpfPackage['spine'], sizes: Map<string, number>, failed: string[]): Promise<string[] | null> {
    if (spine.length === 0) return null;
    const images: string[] = [];
    for (const item of spine) {
      if (item.mediaType.startsWith('image/') && item.mediaType !== 'image/svg+xml') {
        if (!sizes.has(item.path)) return null;
        images.push(item.path);
        continue;
      }
      if (!XHTML_TYPES.has(item.mediaType) && item.mediaType !== 'image/svg+xml') return null;
      const size = sizes.get(item.path);
      if (size === undefined || size > MAX_XHTML_BYTES) return null;
      let text: string;
      try {
        text = await readText(this.zip, item.path, MAX_XHTML_BYTES);
      } catch (error) {
        // The server short of resources, or the book's analysis past its bounds: not this document's doing.
        if (isTransientFailure(error) || error instanceof AnalysisTooCostly) throw error;
        failed.push(item.path);
        return null;
      }
      const found = xhtmlImages(text, item.path);
      const image = found.images[0];
      if (found.images.length !== 1 || image === undefined || found.textLength > MAX_IMAGE_PAGE_TEXT || !sizes.has(image)) return null;
      images.push(image);
    }
    return images;
  }

  private async describeImage(name: string, size: number, withDimensions: boolean, failed: string[]): Promise<DescribedPage> {
    try {
      const probe = await probeEntryHead((length) => this.readPrefix(name, length), size, IMAGE_PREFIX, MAX_IMAGE_PREFIX, withDimensions);
      // A lying or cut-short header: a bad page slot without the size it claims (ERR_1007), as in
      // comic archives.
      if (probe.mediaType && probe.bad) {
        failed.push(name);
        return { fileName: name, mediaType: probe.mediaType, width: null, height: null, fileSize: size };
      }
      if (probe.mediaType) {
        return { fileName: name, mediaType: probe.mediaType, width: withDimensions ? probe.width : null, height: withDimensions ? probe.height : null, fileSize: size };
      }
    } catch (error) {
      // Unreadable: still a page slot (ERR_1007), as for comic archives — unless the server, not
      // the entry, failed (then the whole analysis is retried later).
      if (isTransientFailure(error)) throw error;
    }
    failed.push(name);
    return { fileName: name, mediaType: mediaTypeFromExtension(name) ?? 'application/octet-stream', width: null, height: null, fileSize: size };
  }
}

import { HttpFetcher, Link, Locator, Manifest, Publication, ReadingProgression, Resource, type Fetcher } from '@readium/shared';
import { getEpubManifest, getPositions } from '../../../api/readium.ts';
import type { R2Locator } from '../../../api/types.ts';
import { CleanedChapters } from './cleanedChapters.ts';
import { decodeMarkup } from './decodeMarkup.ts';
import { DEFER_RENDERING_BYTES, prepareFrameDocument } from './frameSetup.ts';
import { sanitizeDocument, writeMarkup } from './sanitizeMarkup.ts';
import { LocalizedError } from '../../i18n.ts';

/** Resource requests carry the session cookie and the XHR marker (a 401 must not open a login popup). */
const authorisedFetch = (input: RequestInfo | URL, init?: RequestInit) =>
  fetch(input, { ...init, credentials: 'include', headers: { ...init?.headers, 'X-Requested-With': 'XMLHttpRequest' } });

/**
 * How much chapter source (bytes) an open book keeps cleaned: two 5 MB single-file novels' worth,
 * or the dozens of chapters around the place being read in an ordinary book.
 */
const CLEANED_CHAPTERS_BYTES = 12 * 1024 * 1024;

/** The measure each chapter's decoding, parsing and cleaning leaves (bench/epub-chapters.ts reads it). */
export const CLEAN_MEASURE = 'folio:epub-clean';

/** A document the navigator shows (shownAsDocument) read through sanitizeMarkup; everything else passes untouched. */
class SanitizedResource extends Resource {
  readonly #inner: Resource;
  readonly #mediaType: string;
  readonly #rtlScript: boolean;
  readonly #frameWidth: () => number | undefined;
  readonly #href: string;
  readonly #cleaned: CleanedChapters;

  constructor(inner: Resource, href: string, cleaned: CleanedChapters, mediaType: string, rtlScript: boolean, frameWidth: () => number | undefined) {
    super();
    this.#inner = inner;
    this.#href = href;
    this.#cleaned = cleaned;
    this.#mediaType = mediaType;
    this.#rtlScript = rtlScript;
    this.#frameWidth = frameWidth;
  }

  link(): Promise<Link> {
    return this.#inner.link();
  }

  length(): Promise<number | undefined> {
    return this.#inner.length();
  }

  async read(): Promise<Uint8Array | undefined> {
    const doc = await this.readDocument();
    if (doc === undefined) return undefined;
    return new TextEncoder().encode(writeMarkup(doc, this.#mediaType));
  }

  /**
   * The cleaned document, which the navigator builds its frame from as it is (build/readiumBundle.ts):
   * writing it out here only to have it parsed again cost a second parse of the whole chapter.
   */
  async readDocument(): Promise<Document | undefined> {
    const prepare = (doc: Document, bytes: number) => {
      prepareFrameDocument(doc, { viewportWidth: this.#frameWidth(), deferRendering: bytes > DEFER_RENDERING_BYTES });
      return doc;
    };
    const kept = this.#cleaned.take(this.#href);
    if (kept) return prepare(kept.doc, kept.bytes);
    const bytes = await this.#inner.read();
    if (bytes === undefined) return undefined;
    const started = performance.now();
    const cleaned = sanitizeDocument(decodeMarkup(bytes), this.#mediaType, { rtlScript: this.#rtlScript });
    // For the benchmark (bench/epub-chapters.ts): what reading and cleaning a chapter cost, once it is here.
    performance.measure(CLEAN_MEASURE, { start: started, detail: { bytes: bytes.byteLength, href: this.#href } });
    this.#cleaned.keep(this.#href, cleaned, bytes.byteLength);
    // What the frame needs from the start (its width, the reader's style), on the copy given out: the
    // width may differ the next time.
    return prepare(cleaned.cloneNode(true) as Document, bytes.byteLength);
  }

  close(): void {
    this.#inner.close();
  }
}

/**
 * Whether the navigator may show this resource as a page of its own: it parses a reading-order item
 * with the media type its package declares and shows whatever parses (HTML, XHTML, and also plain
 * XML, which it rebuilds as an XHTML blob document of Folio's origin). SVG cannot be shown that way
 * (the navigator needs a head), and other types do not parse.
 */
const XML_DOCUMENT_TYPES = new Set(['application/xml', 'text/xml']);
const shownAsDocument = (link: Link) => link.mediaType.isHTML || XML_DOCUMENT_TYPES.has(link.mediaType.string.split(';')[0]!.trim().toLowerCase());

/** Exported for its tests. */
export class SanitizingFetcher implements Fetcher {
  readonly #inner = new HttpFetcher(authorisedFetch);
  /** This book's cleaned chapters, for frames built again (cleanedChapters.ts). */
  readonly #cleaned = new CleanedChapters(CLEANED_CHAPTERS_BYTES);
  /** Set once the manifest says the book is in a right-to-left script. */
  rtlScript = false;
  /** The width the navigator's frames have now (its container's), once there is one; see frameSetup.ts. */
  frameWidth: () => number | undefined = () => undefined;

  links(): Link[] {
    return this.#inner.links();
  }

  get(link: Link): Resource {
    const resource = this.#inner.get(link);
    return shownAsDocument(link) ? new SanitizedResource(resource, link.href, this.#cleaned, link.mediaType.string, this.rtlScript, () => this.frameWidth()) : resource;
  }

  close(): void {
    this.#cleaned.clear();
    this.#inner.close();
  }
}

/**
 * The manifest with its layout where the rendering library reads it. Komga's manifest (the contract
 * Folio serves) names a fixed-layout book in metadata.rendition.layout; the library reads
 * metadata.layout only, so a fixed-layout book was laid out as flowing text: pages not scaled to
 * the screen, their own backgrounds and positions lost.
 */
function withLayout(json: unknown): unknown {
  if (typeof json !== 'object' || json === null) return json;
  const metadata = (json as { metadata?: Record<string, unknown> }).metadata;
  const rendition = metadata?.rendition as { layout?: unknown } | undefined;
  if (!metadata || metadata.layout !== undefined || typeof rendition?.layout !== 'string') return json;
  return { ...json, metadata: { ...metadata, layout: rendition.layout } };
}

/** Languages written right to left (BCP 47 primary subtags). */
const RTL_SCRIPTS = /^(ar|he|iw|fa|ur|ps|yi|ji|ug|ckb|sd|dv|syr)(-|$)/i;

export interface LoadedPublication {
  publication: Publication;
  /** The book's positions as the server numbers them (Komga's), in reading order. */
  positions: Locator[];
  /** The same positions as plain contract locators. */
  positionList: R2Locator[];
  /** Where the reader tells the documents' reader how wide the frames are (see frameSetup.ts). */
  fetcher: SanitizingFetcher;
  /** The server could not read the table of contents just now: the contents say so rather than "none". */
  navigationUnavailable: boolean;
}

/** The book's WebPub manifest and positions, as the rendering library wants them. */
export async function loadPublication(bookId: string): Promise<LoadedPublication> {
  const [{ json, navigationUnavailable }, positions] = await Promise.all([getEpubManifest(bookId), getPositions(bookId)]);
  const manifest = Manifest.deserialize(withLayout(json));
  if (!manifest) throw new LocalizedError('reader.epub.manifest_unreadable');
  const fetcher = new SanitizingFetcher();
  fetcher.rtlScript =
    manifest.metadata.effectiveReadingProgression === ReadingProgression.rtl && RTL_SCRIPTS.test(manifest.metadata.languages?.[0] ?? '');
  const publication = new Publication({ manifest, fetcher });
  const locators = positions.positions.map((p) => Locator.deserialize(p)).filter((l): l is Locator => l !== undefined);
  if (locators.length === 0) throw new LocalizedError('reader.epub.no_positions');
  if (navigationUnavailable) console.warn(`The table of contents of book ${bookId} could not be read by the server just now; the book opens without it`);
  return { publication, positions: locators, positionList: positions.positions, fetcher, navigationUnavailable };
}

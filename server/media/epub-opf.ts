import { posix } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { unexpandedEntity } from './xml-doctype.ts';
import { untilLastTag, withoutElements, withoutTags } from './markup-scan.ts';
import { decodeXhtmlReferences, xhtmlEntityDecoder } from './xhtml-entities.ts';
import type { XmlParser } from './xml-parsing.ts';

/*
 * EPUB package document (OPF) parsing: pure functions from XML text to typed values, no I/O, so
 * the metadata-import code can use parseOpf() on its own. EPUB 2 and EPUB 3 are both read:
 * opf:role / opf:scheme attributes (EPUB 2), <meta refines> refinements (EPUB 3), and calibre's
 * <meta name="calibre:series"> convention for series.
 */

export interface EpubAuthor {
  name: string;
  /** Komga author role (writer, penciller, colorist, cover, editor, translator, …). */
  role: string;
}

export interface EpubSeries {
  name: string;
  /** Position in the series (calibre:series_index or EPUB 3 group-position). */
  index: number | null;
}

/** What an EPUB says about itself; null / empty = not stated. */
export interface EpubMetadata {
  title: string | null;
  authors: EpubAuthor[];
  /** Plain text (HTML markup in dc:description removed). */
  description: string | null;
  /** Digits only (ISBN-10 may end in X). */
  isbn: string | null;
  publisher: string | null;
  /** ISO date (YYYY-MM-DD); a year or year-month alone is completed with 01. */
  releaseDate: string | null;
  language: string | null;
  series: EpubSeries | null;
  /** dc:subject values. */
  tags: string[];
}

export interface OpfItem {
  id: string;
  /** Path inside the zip (resolved against the OPF's folder, URL-decoded, no fragment). */
  path: string;
  mediaType: string;
  properties: string[];
}

export interface OpfPackage {
  version: string;
  metadata: EpubMetadata;
  manifest: OpfItem[];
  /** Reading order; items the spine names but the manifest lacks are left out. */
  spine: (OpfItem & { linear: boolean })[];
  /** rendition:layout pre-paginated for the whole publication. */
  fixedLayout: boolean;
  pageProgression: 'ltr' | 'rtl' | null;
  /** Zip path of the cover image, when one is declared. */
  coverImage: string | null;
}

type XmlNode = Record<string, unknown>;

const REPEATED = new Set(['item', 'itemref', 'meta', 'title', 'creator', 'contributor', 'identifier', 'date', 'language', 'publisher', 'description', 'subject', 'rootfile']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '$',
  removeNSPrefix: true,
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
  // The XHTML names (&eacute; &nbsp;) and numeric references: packages made from XHTML use them in
  // titles and names, and without this both stayed as written ("Caf&#233;"). Never a DTD's: the
  // package's own DOCTYPE entities only as xml-doctype.ts allows (see parseOpf).
  entityDecoder: xhtmlEntityDecoder(),
});

// MARC relator codes (EPUB creator roles) → Komga roles; other codes (e.g. "bkp", the producing
// software) are not people credited for the book and are dropped.
const RELATORS: Record<string, string> = {
  aut: 'writer',
  art: 'penciller',
  ill: 'penciller',
  clr: 'colorist',
  cov: 'cover',
  edt: 'editor',
  trl: 'translator',
  let: 'letterer',
  ink: 'inker',
};

/**
 * Manifest items (and spine references) a package may list: a 5,000-page image book lists about
 * 10,000. A hostile package of 57,000 items took the main thread ~0.1-0.4 s just to receive from
 * the XML worker (and more to analyse); one over the bound is refused (ERR_1008).
 */
export const MAX_PACKAGE_ITEMS = 20_000;
/** Authors and subjects kept of a package's metadata (no book credits more). */
export const MAX_CREDITS = 1000;

const attrs = (node: unknown): Record<string, string> =>
  typeof node === 'object' && node !== null && '$' in node ? ((node as XmlNode).$ as Record<string, string>) : {};

function text(node: unknown): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node).trim();
  if (typeof node === 'object' && node !== null && '#text' in node) return String((node as XmlNode)['#text']).trim();
  return '';
}

const list = (node: unknown): unknown[] => (Array.isArray(node) ? node : node === undefined ? [] : [node]);
const firstText = (nodes: unknown): string | null => list(nodes).map(text).find((t) => t.length > 0) ?? null;

/** Resolves a manifest href against the OPF's folder into a zip entry path. */
export function resolveHref(baseDir: string, href: string): string {
  const withoutFragment = href.split('#')[0] ?? '';
  let decoded = withoutFragment;
  try {
    decoded = decodeURIComponent(withoutFragment);
  } catch (error) {
    // Keep the raw text when it is not valid percent-encoding.
    if (!(error instanceof URIError)) throw error;
  }
  return posix.normalize(posix.join(baseDir, decoded)).replace(/^\.\//, '');
}

/** The OPF path named by META-INF/container.xml, or null. */
export function parseContainer(xml: string): string | null {
  const doc = parser.parse(xml) as XmlNode;
  const container = doc.container as XmlNode | undefined;
  const rootfiles = (container?.rootfiles as XmlNode | undefined)?.rootfile;
  const chosen =
    list(rootfiles).find((r) => attrs(r)['media-type'] === 'application/oebps-package+xml') ?? list(rootfiles)[0];
  const path = attrs(chosen)['full-path'];
  return path ? path.replace(/^\/+/, '') : null;
}

function isbnOf(value: string, scheme: string | undefined): string | null {
  const stripped = value.replace(/^urn:isbn:/i, '').replace(/^isbn:?/i, '');
  const digits = stripped.replace(/[\s-]/g, '').toUpperCase();
  const looksIsbn = scheme?.toLowerCase() === 'isbn' || /^urn:isbn:|^isbn/i.test(value);
  if (/^97[89]\d{10}$/.test(digits)) {
    const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
    return sum % 10 === 0 || looksIsbn ? digits : null;
  }
  if (/^\d{9}[\dX]$/.test(digits)) {
    const sum = [...digits].reduce((acc, d, i) => acc + (d === 'X' ? 10 : Number(d)) * (10 - i), 0);
    return sum % 11 === 0 || looksIsbn ? digits : null;
  }
  return null;
}

function isoDate(value: string): string | null {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value.trim());
  if (!match) return null;
  const year = Number(match[1]);
  // calibre writes 0101-01-01 for "unknown".
  if (year < 1000) return null;
  const month = match[2] ?? '01';
  const day = match[3] ?? '01';
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return null;
  return `${match[1]}-${month}-${day}`;
}

function plainText(html: string): string {
  // The description's HTML, escaped in the package, names characters as HTML does (&eacute;).
  return decodeXhtmlReferences(withoutTags(html.replace(/<\s*br\s*\/?>/gi, '\n').replace(/<\/\s*p\s*>/gi, '\n')))
    // Each whitespace run is matched once (`\s*\n` retried along a long run of \r was quadratic).
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n\s*/g, '\n')
    .trim();
}

function readMetadata(metadata: XmlNode): EpubMetadata {
  const metas = list(metadata.meta);
  // EPUB 3 refinements: <meta refines="#id" property="role">aut</meta>. Indexed once, the first of
  // each (target, property) kept: looking each creator's up in the whole list was quadratic (a 4 MB
  // package of creators and their refinements took 90 s).
  const refined = new Map<string, unknown>();
  for (const meta of metas) {
    const { refines, property } = attrs(meta);
    const key = `${refines}\n${property}`;
    if (refines !== undefined && property !== undefined && !refined.has(key)) refined.set(key, meta);
  }
  const refinements = (id: string | undefined, property: string): string | null => {
    if (!id) return null;
    const found = refined.get(`#${id}\n${property}`);
    return found ? text(found) : null;
  };
  const named = (name: string): string | null => {
    const found = metas.find((m) => attrs(m).name === name);
    return found ? (attrs(found).content ?? text(found)) || null : null;
  };

  const authors: EpubAuthor[] = [];
  const credited = new Set<string>();
  for (const [element, fallbackRole] of [['creator', 'writer'], ['contributor', null]] as const) {
    for (const node of list(metadata[element])) {
      const name = text(node);
      if (!name) continue;
      const code = (attrs(node).role ?? refinements(attrs(node).id, 'role') ?? '').toLowerCase();
      const role = code ? RELATORS[code] : fallbackRole;
      if (role && authors.length < MAX_CREDITS && !credited.has(`${role}\n${name}`)) {
        credited.add(`${role}\n${name}`);
        authors.push({ name, role });
      }
    }
  }

  let isbn: string | null = null;
  for (const node of list(metadata.identifier)) {
    isbn = isbnOf(text(node), attrs(node).scheme ?? refinements(attrs(node).id, 'identifier-type') ?? undefined);
    if (isbn) break;
  }

  const dates = list(metadata.date);
  const publication = dates.find((d) => attrs(d).event === 'publication') ?? dates[0];
  const releaseDate = publication === undefined ? null : isoDate(text(publication));

  let series: EpubSeries | null = null;
  const collection = metas.find((m) => {
    if (attrs(m).property !== 'belongs-to-collection' || !text(m)) return false;
    const type = refinements(attrs(m).id, 'collection-type');
    return type === null || type === 'series';
  });
  if (collection) {
    const position = Number(refinements(attrs(collection).id, 'group-position'));
    series = { name: text(collection), index: Number.isFinite(position) && refinements(attrs(collection).id, 'group-position') !== null ? position : null };
  } else {
    const calibreSeries = named('calibre:series');
    if (calibreSeries) {
      const index = named('calibre:series_index');
      series = { name: calibreSeries, index: index !== null && Number.isFinite(Number(index)) ? Number(index) : null };
    }
  }

  const description = firstText(metadata.description);
  return {
    title: firstText(metadata.title),
    authors,
    description: description === null ? null : plainText(description) || null,
    isbn,
    publisher: firstText(metadata.publisher),
    releaseDate,
    language: firstText(metadata.language),
    series,
    tags: list(metadata.subject).slice(0, MAX_CREDITS).map(text).filter((t) => t.length > 0),
  };
}

/** parseContainer, for parseXml (xml-parsing.ts): large documents are parsed off the main thread. */
export const CONTAINER_PARSER: XmlParser<[], string | null> = { module: import.meta.url, name: 'parseContainer', parse: (xml) => parseContainer(xml) };

/** parseOpf, for parseXml (xml-parsing.ts). */
export const OPF_PARSER: XmlParser<[opfPath: string], OpfPackage> = { module: import.meta.url, name: 'parseOpf', parse: (xml, opfPath) => parseOpf(xml, opfPath) };

/** Parses an OPF package document found at `opfPath` inside the zip. Throws on malformed XML. */
export function parseOpf(xml: string, opfPath: string): OpfPackage {
  // References to such entities would otherwise stay in titles and hrefs as written (xml-doctype.ts).
  const unread = unexpandedEntity(xml);
  if (unread) throw new Error(`the package document is not read: ${unread}`);
  const doc = parser.parse(xml, true) as XmlNode;
  const pkg = doc.package as XmlNode | undefined;
  if (!pkg) throw new Error('no <package> element');
  const baseDir = posix.dirname(opfPath) === '.' ? '' : posix.dirname(opfPath);
  const metadataNode = (pkg.metadata as XmlNode | undefined) ?? {};
  const metadata = readMetadata(metadataNode);

  const items = list((pkg.manifest as XmlNode | undefined)?.item);
  const references = list((pkg.spine as XmlNode | undefined)?.itemref);
  if (items.length > MAX_PACKAGE_ITEMS || references.length > MAX_PACKAGE_ITEMS) {
    throw new Error(`the package lists ${items.length} items and ${references.length} spine references, over the ${MAX_PACKAGE_ITEMS} read`);
  }
  const manifest: OpfItem[] = items.flatMap((node) => {
    const a = attrs(node);
    if (!a.id || !a.href) return [];
    return [{ id: a.id, path: resolveHref(baseDir, a.href), mediaType: (a['media-type'] ?? '').toLowerCase(), properties: (a.properties ?? '').split(/\s+/).filter(Boolean) }];
  });
  const byId = new Map(manifest.map((item) => [item.id, item]));

  const spineNode = pkg.spine as XmlNode | undefined;
  const spine = references.flatMap((node) => {
    const a = attrs(node);
    const item = a.idref ? byId.get(a.idref) : undefined;
    if (!item) return [];
    return [{ ...item, properties: [...item.properties, ...(a.properties ?? '').split(/\s+/).filter(Boolean)], linear: a.linear !== 'no' }];
  });
  const direction = attrs(spineNode)['page-progression-direction'];

  const metas = list(metadataNode.meta);
  const layout = metas.find((m) => attrs(m).property === 'rendition:layout');
  const coverId = metas.map(attrs).find((a) => a.name === 'cover')?.content;
  const cover =
    manifest.find((item) => item.properties.includes('cover-image')) ??
    (coverId ? (byId.get(coverId) ?? manifest.find((item) => item.path === resolveHref(baseDir, coverId))) : undefined) ??
    manifest.find((item) => /cover/i.test(item.id) && item.mediaType.startsWith('image/'));

  return {
    version: attrs(pkg).version ?? '',
    metadata,
    manifest,
    spine,
    fixedLayout: layout !== undefined && text(layout) === 'pre-paginated',
    pageProgression: direction === 'rtl' || direction === 'ltr' ? direction : null,
    coverImage: cover && cover.mediaType.startsWith('image/') ? cover.path : null,
  };
}

/** Media types of documents a reader shows as pages of their own. */
const DOCUMENT_TYPES = new Set(['application/xhtml+xml', 'text/html']);

/**
 * The documents a reader goes through, in order: the spine items whose file the archive holds. A
 * non-linear item (linear="no": endnotes, an answer key, a cover page) stays in its place when it is
 * a document, as Komga keeps every spine item: links and table-of-contents entries lead there, and
 * a Readium reader shows only what is in the reading order (left out, a note reference led
 * nowhere). A non-linear item of any other type (an NCX listed in the spine by mistake) is no place
 * to read. A spine item naming a file that is not in the archive (lost when the book was made, or
 * an href leading out of it, "../../etc/passwd") has nothing to show: left in, it would be a page
 * count, positions and a reading-order link that no reader can load, and a reader stops there.
 */
export function readingOrder(pkg: OpfPackage, archived: { has(path: string): boolean }): OpfPackage['spine'] {
  const present = pkg.spine.filter((item) => archived.has(item.path));
  if (!present.some((item) => item.linear)) return present;
  return present.filter((item) => item.linear || DOCUMENT_TYPES.has(item.mediaType));
}

/**
 * The images an XHTML page shows (<img src>, SVG <image href>), resolved to zip paths, and how much
 * visible text its body holds. An image-only page has one image and (almost) no text.
 */
export function xhtmlImages(xhtml: string, xhtmlPath: string): { images: string[]; textLength: number } {
  const baseDir = posix.dirname(xhtmlPath) === '.' ? '' : posix.dirname(xhtmlPath);
  const bodyStart = xhtml.search(/<body[\s>]/i);
  const body = bodyStart >= 0 ? xhtml.slice(bodyStart) : xhtml;
  const images: string[] = [];
  // Up to its last '>', where every [^>]* that starts finds one (markup-scan.ts: linear time).
  const tagged = untilLastTag(body);
  const tag = /<(?:[\w-]+:)?(img|image)\b([^>]*)>/gi;
  for (let match = tag.exec(tagged); match; match = tag.exec(tagged)) {
    const attributes = match[2] ?? '';
    const source = /\s(?:src|(?:xlink:)?href)\s*=\s*("([^"]*)"|'([^']*)')/i.exec(attributes);
    const href = source?.[2] ?? source?.[3];
    if (href && !/^[a-z]+:/i.test(href)) images.push(resolveHref(baseDir, href));
  }
  const visible = withoutTags(withoutElements(body, ['script', 'style']))
    .replace(/&[#\w]+;/g, ' ')
    .replace(/\s+/g, '');
  return { images, textLength: visible.length };
}

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Author, ReadingDirection, WebLink } from '../../db/stored-values.ts';
import { canonicalLanguageTag, isLanguageTag } from './language-tag.ts';
import { parseXml, XmlParserThrew, XmlTooComplex } from '../../media/xml-parsing.ts';
import { unexpandedEntity } from '../../media/xml-doctype.ts';

/** What a ComicInfo.xml says about a book and its series; undefined = not stated. */
export interface ComicInfoPatch {
  book: {
    title?: string;
    summary?: string;
    number?: string;
    numberSort?: number;
    releaseDate?: string;
    authors?: Author[];
    tags?: string[];
    isbn?: string;
    links?: WebLink[];
  };
  series: {
    title?: string;
    publisher?: string;
    readingDirection?: ReadingDirection;
    language?: string;
    genres?: string[];
    ageRating?: number;
    totalBookCount?: number;
    volume?: number;
  };
  /** SeriesGroup entries: collections the series belongs to. */
  collections?: string[];
  /** StoryArc (+StoryArcNumber) and AlternateSeries (+AlternateNumber): read lists holding the book. */
  readLists?: { name: string; number?: number }[];
}

// ComicInfo creator elements → Komga author roles.
const ROLE_ELEMENTS: [element: string, role: string][] = [
  ['Writer', 'writer'],
  ['Penciller', 'penciller'],
  ['Inker', 'inker'],
  ['Colorist', 'colorist'],
  ['Letterer', 'letterer'],
  ['CoverArtist', 'cover'],
  ['Editor', 'editor'],
  ['Translator', 'translator'],
];

// ComicInfo AgeRating values → minimum age.
const AGE_RATINGS: Record<string, number> = {
  'adults only 18+': 18,
  'r18+': 18,
  'x18+': 18,
  'mature 17+': 17,
  'ma15+': 15,
  'teen': 13,
  'everyone 10+': 10,
  'kids to adults': 6,
  'early childhood': 3,
  'everyone': 0,
  'g': 0,
  'pg': 8,
  'm': 15,
};

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true, // numeric character references (&#38;) are valid XML too
  isArray: () => false,
});

/** ComicInfo.xml that is not well-formed XML: skipped as a whole, never half-imported. */
export class MalformedComicInfoError extends Error {
  readonly reason: string;
  readonly line: number;
  /** `message` replaces the usual one when the file was refused before it was parsed (too large). */
  constructor(reason: string, line: number, message = `ComicInfo.xml is not well-formed (line ${line}): ${reason}`) {
    super(message);
    this.name = 'MalformedComicInfoError';
    this.reason = reason;
    this.line = line;
  }
}

// Element values are text; an element nested in another (a stray child) is not a value.
const text = (v: unknown): string | undefined => {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v).trim();
  return s === '' ? undefined : s;
};
/**
 * Values kept of one comma-separated list (writers, tags, story arcs…): no book has more, and a
 * hostile list of 100,000 names would cost the main thread a tenth of a second to receive from the
 * XML worker and then to store.
 */
export const MAX_LIST_VALUES = 1000;
const list = (v: unknown): string[] | undefined => {
  const s = text(v);
  if (!s) return undefined;
  const items = s.split(',', MAX_LIST_VALUES).map((x) => x.trim()).filter(Boolean);
  return items.length ? [...new Set(items)] : undefined;
};
const int = (v: unknown): number | undefined => {
  const s = text(v);
  if (!s || !/^-?\d+$/.test(s)) return undefined;
  return Number.parseInt(s, 10);
};

/**
 * parseComicInfo, off the main thread when the document is large (media/xml-parsing.ts). A document
 * too complex to parse within the worker's time limit is skipped as malformed; `what` names it in errors.
 */
export async function readComicInfo(xml: string, what: string): Promise<ComicInfoPatch | null> {
  try {
    return await parseXml({ module: import.meta.url, name: 'parseComicInfo', parse: parseComicInfo }, what, xml);
  } catch (error) {
    if (error instanceof XmlParserThrew && error.thrownName === 'MalformedComicInfoError') {
      throw new MalformedComicInfoError(String(error.fields.reason), Number(error.fields.line), error.message);
    }
    if (error instanceof XmlTooComplex) throw new MalformedComicInfoError(error.message, 0);
    throw error;
  }
}

/**
 * What the validator says of text after a well-formed root element. Komga's reader (Jackson) reads
 * the root element and stops: zero bytes a writer padded its buffer with, junk after a comment, or a
 * second copy appended do not lose the book's metadata there, and do not here either.
 */
const AFTER_ROOT_ERRORS = new Set(['Extra text at the end', 'Multiple possible root nodes found.']);

/**
 * The document up to its root element's end tag (the first one of that name: ComicInfo does not
 * nest), or whole when there is none. Only the part after the root is left out; a root element
 * that is not well-formed still makes the file malformed.
 */
function upToRootEnd(xml: string): string {
  const root = /<([A-Za-z_][\w.:-]*)/.exec(xml);
  if (!root) return xml;
  // Searched as text, not as a regular expression made of the name: a hostile name of 500,000
  // characters is too large for one.
  const endTag = `</${root[1]}`;
  for (let at = xml.indexOf(endTag, root.index); at >= 0; at = xml.indexOf(endTag, at + endTag.length)) {
    let close = at + endTag.length;
    while (close < xml.length && ' \t\r\n'.includes(xml[close]!)) close++;
    if (xml[close] === '>') return xml.slice(0, close + 1);
  }
  return xml;
}

/**
 * Parses ComicInfo.xml text; returns null when it is well-formed but not a ComicInfo document, and
 * throws MalformedComicInfoError when it is not well-formed XML (the lenient parser would otherwise
 * read an unclosed element as a parent of the next ones).
 */
export function parseComicInfo(xml: string): ComicInfoPatch | null {
  let document = xml;
  let valid = XMLValidator.validate(document);
  if (valid !== true && AFTER_ROOT_ERRORS.has(valid.err.msg)) {
    document = upToRootEnd(xml);
    valid = XMLValidator.validate(document);
  }
  if (valid !== true) throw new MalformedComicInfoError(valid.err.msg, valid.err.line);
  const unread = unexpandedEntity(document);
  if (unread) throw new MalformedComicInfoError(unread, 0, `ComicInfo.xml is not read: ${unread}`);
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(document) as Record<string, unknown>;
  } catch (error) {
    // Well-formed but beyond the parser's limits (nesting depth, entity expansion): skipped as
    // malformed too, rather than failing the book's metadata refresh.
    if (!(error instanceof Error)) throw error;
    throw new MalformedComicInfoError(error.message, 0);
  }
  const info = doc.ComicInfo as Record<string, unknown> | undefined;
  if (!info || typeof info !== 'object') return null;

  const authors: Author[] = [];
  for (const [element, role] of ROLE_ELEMENTS) {
    for (const name of list(info[element]) ?? []) authors.push({ name, role });
  }
  const year = int(info.Year);
  const month = int(info.Month);
  const day = int(info.Day);
  let releaseDate: string | undefined;
  if (year !== undefined && year > 0) {
    const m = month && month >= 1 && month <= 12 ? month : 1;
    const d = day && day >= 1 && day <= 31 ? day : 1;
    releaseDate = `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  }
  const number = text(info.Number);
  const numberSort = number !== undefined && Number.isFinite(Number(number)) ? Number(number) : undefined;
  const web = list(info.Web)?.filter((u) => /^https?:\/\//i.test(u));
  const links = web?.map((url) => ({ label: hostLabel(url), url }));
  const manga = text(info.Manga)?.toLowerCase();
  const format = text(info.Format)?.toLowerCase();
  const ageRating = text(info.AgeRating)?.toLowerCase();
  const count = int(info.Count);

  const readLists: { name: string; number?: number }[] = [];
  const arcNames = text(info.StoryArc)?.split(',', MAX_LIST_VALUES).map((x) => x.trim()) ?? [];
  const arcNumbers = text(info.StoryArcNumber)?.split(',', MAX_LIST_VALUES).map((x) => x.trim()) ?? [];
  arcNames.forEach((name, i) => {
    if (!name) return;
    const n = Number.parseInt(arcNumbers[i] ?? '', 10);
    readLists.push(Number.isFinite(n) ? { name, number: n } : { name });
  });
  const alternate = text(info.AlternateSeries);
  if (alternate) {
    const n = Number.parseInt(text(info.AlternateNumber) ?? '', 10);
    readLists.push(Number.isFinite(n) ? { name: alternate, number: n } : { name: alternate });
  }

  return {
    collections: list(info.SeriesGroup),
    readLists: readLists.length ? readLists : undefined,
    book: {
      title: text(info.Title),
      summary: text(info.Summary),
      number,
      numberSort,
      releaseDate,
      authors: authors.length ? authors : undefined,
      tags: list(info.Tags),
      isbn: text(info.GTIN)?.replace(/[^0-9X]/gi, '') || undefined,
      links: links?.length ? links : undefined,
    },
    series: {
      title: text(info.Series),
      publisher: text(info.Publisher),
      readingDirection: readingDirectionOf(format, manga),
      // An ill-formed LanguageISO is ignored, as Komga ignores it.
      language: languageOf(text(info.LanguageISO)),
      genres: list(info.Genre),
      ageRating: ageRating !== undefined ? AGE_RATINGS[ageRating] : undefined,
      totalBookCount: count !== undefined && count > 0 ? count : undefined,
      volume: int(info.Volume),
    },
  };
}

/** A well-formed LanguageISO in its canonical spelling ('EN-us' -> 'en-US'), as Komga's SeriesMetadata stores any language. */
function languageOf(value: string | undefined): string | undefined {
  return value !== undefined && isLanguageTag(value) ? canonicalLanguageTag(value) : undefined;
}

/** `<Format>Webtoon</Format>` wins over `<Manga>`: a right-to-left webtoon still scrolls top to bottom. */
function readingDirectionOf(format: string | undefined, manga: string | undefined): ReadingDirection | undefined {
  if (format === 'webtoon') return 'WEBTOON';
  if (manga === 'yesandrighttoleft') return 'RIGHT_TO_LEFT';
  // As Komga: a book that says it is not a manga reads left to right, and so votes in its series.
  if (manga === 'no') return 'LEFT_TO_RIGHT';
  return undefined;
}

function hostLabel(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return url;
  }
}

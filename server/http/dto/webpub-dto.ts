import type { BookDto } from '../../../src/api/types.ts';
import type { MediaPage } from '../../db/media-repository.ts';
import type { SeriesMetadata } from '../../db/series-metadata-repository.ts';
import type { EpubPublication } from '../../domain/reading/epub-publication.ts';
import type { MediaProfile } from '../../media/book-reader.ts';
import type { EpubNavigation, NavigationLink } from '../../media/epub-navigation.ts';

/*
 * Readium Web Publication manifests (WPPublicationDto) for Komga's reader endpoints: Divina for
 * image books, the PDF profile for PDFs, the EPUB profile for EPUBs. Links are absolute URLs on the
 * server the request came to, as Komga writes them.
 */

export const MEDIATYPE_DIVINA = 'application/divina+json';
export const MEDIATYPE_WEBPUB = 'application/webpub+json';
const PROFILE: Record<MediaProfile, string> = {
  DIVINA: 'https://readium.org/webpub-manifest/profiles/divina',
  PDF: 'https://readium.org/webpub-manifest/profiles/pdf',
  EPUB: 'https://readium.org/webpub-manifest/profiles/epub',
};
const ACQUISITION = 'http://opds-spec.org/acquisition';

export type Profile = MediaProfile;

export interface WPLink {
  href: string;
  type?: string;
  rel?: string;
  title?: string;
  width?: number;
  height?: number;
  properties: Record<string, unknown>;
}

export interface WPPublication {
  context: string;
  metadata: Record<string, unknown>;
  links: WPLink[];
  images: WPLink[];
  readingOrder: WPLink[];
  resources: WPLink[];
  toc: WPLink[];
  landmarks: WPLink[];
  pageList: WPLink[];
}

/**
 * The address family a book's links are written in: the REST API's, or Komga's OPDS 2 one
 * (OpdsGenerator), where a reader given only the OPDS 2 catalog can follow every link — Komga
 * serves each book address the manifests name (pages, raw pages, resources, file, poster,
 * manifests) under both.
 */
export type BooksRoot = '/api/v1/books' | '/opds/v2/books';

/** Where links point: `origin` is scheme://host[:port] of the request and the base path if any (publicBaseUrl). */
export interface ManifestSource {
  origin: string;
  books: BooksRoot;
  book: BookDto;
  seriesMetadata: SeriesMetadata | undefined;
  /** The book's media profile, which picks the "self" manifest type. */
  profile: Profile;
  epubDivinaCompatible: boolean;
}

const link = (href: string, extra: Omit<WPLink, 'href' | 'properties'> = {}): WPLink => ({ href, ...extra, properties: {} });

/** What a book's URLs are built from. */
export interface LinkBase {
  origin: string;
  books: BooksRoot;
  bookId: string;
}

const base = (source: ManifestSource): LinkBase => ({ origin: source.origin, books: source.books, bookId: source.book.id });

export const bookUrl = (from: LinkBase, rest: string) => `${from.origin}${from.books}/${encodeURIComponent(from.bookId)}/${rest}`;

/** URL of an EPUB entry: each path segment encoded, slashes kept. */
export const resourceUrl = (from: LinkBase, path: string) => bookUrl(from, `resource/${path.split('/').map(encodeURIComponent).join('/')}`);

/** Readium roles; Komga/ComicInfo roles outside these are listed as contributors. */
const ROLES: Record<string, string> = {
  writer: 'author',
  author: 'author',
  translator: 'translator',
  editor: 'editor',
  artist: 'artist',
  illustrator: 'illustrator',
  letterer: 'letterer',
  penciller: 'penciler',
  penciler: 'penciler',
  colorist: 'colorist',
  inker: 'inker',
};

function readingProgression(metadata: SeriesMetadata | undefined, fallback: 'ltr' | 'rtl' | null): string | undefined {
  switch (metadata?.readingDirection) {
    case 'LEFT_TO_RIGHT':
      return 'ltr';
    case 'RIGHT_TO_LEFT':
      return 'rtl';
    case 'VERTICAL':
    case 'WEBTOON':
      return 'ttb';
    default:
      return fallback ?? undefined;
  }
}

/** In Komga's OPDS 2 documents a book's series names its OPDS 2 feed; the API's manifests name none. */
function seriesLinks(source: ManifestSource): WPLink[] {
  if (source.books !== '/opds/v2/books') return [];
  return [link(`${source.origin}/opds/v2/series/${encodeURIComponent(source.book.seriesId)}`, { type: 'application/opds+json' })];
}

function metadataOf(source: ManifestSource, conformsTo: Profile, extra: { rendition?: Record<string, string>; pageProgression?: 'ltr' | 'rtl' | null }) {
  const { book, seriesMetadata } = source;
  const people: Record<string, string[]> = {
    author: [], translator: [], editor: [], artist: [], illustrator: [], letterer: [], penciler: [], colorist: [], inker: [], contributor: [],
  };
  for (const author of book.metadata.authors) people[ROLES[author.role.toLowerCase()] ?? 'contributor']!.push(author.name);
  const metadata: Record<string, unknown> = {
    title: book.metadata.title,
    conformsTo: PROFILE[conformsTo],
    numberOfPages: book.media.pagesCount,
    modified: book.lastModified,
    subject: book.metadata.tags,
    publisher: seriesMetadata?.publisher ? [seriesMetadata.publisher] : [],
    ...people,
    rendition: extra.rendition ?? {},
    belongsTo: { series: [{ name: book.seriesTitle, position: book.metadata.numberSort, links: seriesLinks(source) }], collection: [] },
  };
  if (book.metadata.summary) metadata.description = book.metadata.summary;
  if (book.metadata.releaseDate) metadata.published = book.metadata.releaseDate;
  if (book.metadata.isbn) metadata.identifier = `urn:isbn:${book.metadata.isbn}`;
  if (seriesMetadata?.language) metadata.language = seriesMetadata.language;
  const progression = readingProgression(seriesMetadata, extra.pageProgression ?? null);
  if (progression) metadata.readingProgression = progression;
  return metadata;
}

function publication(source: ManifestSource, metadata: Record<string, unknown>): WPPublication {
  const links = [link(bookUrl(base(source), 'manifest'), { rel: 'self', type: source.profile === 'DIVINA' ? MEDIATYPE_DIVINA : MEDIATYPE_WEBPUB })];
  // PDFs and image-only EPUBs can also be read page by page.
  if (source.profile === 'PDF' || (source.profile === 'EPUB' && source.epubDivinaCompatible)) {
    links.push(link(bookUrl(base(source), 'manifest/divina'), { type: MEDIATYPE_DIVINA }));
  }
  links.push(link(bookUrl(base(source), 'file'), { rel: ACQUISITION, type: source.book.media.mediaType }));
  return {
    context: 'https://readium.org/webpub-manifest/context.jsonld',
    metadata,
    links,
    images: [],
    readingOrder: [],
    resources: [link(bookUrl(base(source), 'thumbnail'), { type: 'image/jpeg' })],
    toc: [],
    landmarks: [],
    pageList: [],
  };
}

const dimensions = (page: MediaPage) => ({
  ...(page.width ? { width: page.width } : {}),
  ...(page.height ? { height: page.height } : {}),
});

/**
 * A book as an entry of an OPDS 2 catalog (Komga's publications): the manifest's metadata and
 * links with nothing to read in it, its poster as image, and a download URL that ends with the
 * book's file name (readers name the saved file after it).
 */
export function catalogPublication(source: ManifestSource, fileName: string): WPPublication {
  const result = publication(source, metadataOf(source, source.profile, {}));
  const download = bookUrl(base(source), `file/${encodeURIComponent(fileName)}`);
  result.links = result.links.map((l) => (l.rel === ACQUISITION ? { ...l, href: download } : l));
  result.images = [link(bookUrl(base(source), 'thumbnail'), { type: 'image/jpeg' })];
  result.resources = [];
  return result;
}

/** Divina: the page images in order, with their sizes (PDF pages come drawn as images). */
export function divinaManifest(source: ManifestSource, pages: MediaPage[]): WPPublication {
  const result = publication(source, metadataOf(source, 'DIVINA', {}));
  result.readingOrder = pages.map((page) =>
    link(bookUrl(base(source), `pages/${page.number}?contentNegotiation=false`), { type: page.mediaType, ...dimensions(page) }),
  );
  return result;
}

/** PDF profile: each page as a one-page PDF. */
export function pdfManifest(source: ManifestSource, pages: MediaPage[]): WPPublication {
  const result = publication(source, metadataOf(source, 'PDF', {}));
  result.readingOrder = pages.map((page) => link(bookUrl(base(source), `pages/${page.number}/raw`), { type: 'application/pdf', ...dimensions(page) }));
  return result;
}

/** EPUB profile: the spine documents, every other resource, and the book's navigation. */
export function epubManifest(source: ManifestSource, epub: EpubPublication, epubNavigation: EpubNavigation, pageOfImage: Map<string, MediaPage>): WPPublication {
  const rendition = { layout: epub.fixedLayout ? 'fixed' : 'reflowable' };
  const result = publication(source, metadataOf(source, 'EPUB', { rendition, pageProgression: epub.pageProgression }));
  const entry = (item: { path: string; mediaType: string }) => {
    // Image-only EPUBs: a spine document's size is the size of the image it shows.
    const image = pageOfImage.get(item.path);
    return link(resourceUrl(base(source), item.path), { type: item.mediaType || undefined, ...(image ? dimensions(image) : {}) });
  };
  result.readingOrder = epub.readingOrder.map(entry);
  result.resources.push(...epub.resources.map(entry));
  const navigation = (links: NavigationLink[]) =>
    links.map((l) => link(`${resourceUrl(base(source), l.path)}${l.fragment ? `#${encodeURIComponent(l.fragment)}` : ''}`, l.title ? { title: l.title } : {}));
  result.toc = navigation(epubNavigation.toc);
  result.landmarks = navigation(epubNavigation.landmarks);
  result.pageList = navigation(epubNavigation.pageList);
  return result;
}

import { basename } from 'node:path';
import type { FolioContext } from '../../domain/context.ts';
import { mediaProfileOf } from '../../media/readers.ts';
import { formatDateTime } from '../format.ts';

/*
 * OPDS 2.0 (JSON) documents as Komga serves them under /opds/v2: feeds with navigation links,
 * publications and groups, publications in the Readium Web Publication shape, and the
 * authentication document readers fetch to learn they should ask for a login. Every href is
 * absolute on the address the client used.
 */

export const MEDIATYPE_OPDS = 'application/opds+json';
export const MEDIATYPE_OPDS_PUBLICATION = 'application/opds-publication+json';
export const MEDIATYPE_OPDS_AUTHENTICATION = 'application/opds-authentication+json';
export const AUTH_DOCUMENT_PATH = '/opds/v2/auth';

export interface Opds2Link {
  href: string;
  title?: string;
  rel?: string;
  type?: string;
  templated?: boolean;
  properties?: Record<string, unknown>;
}

export interface Opds2Publication {
  metadata: Record<string, unknown>;
  links: Opds2Link[];
  images: Opds2Link[];
}

export interface Opds2Group {
  metadata: { title: string; numberOfItems?: number };
  links?: Opds2Link[];
  navigation?: Opds2Link[];
  publications?: Opds2Publication[];
}

export interface Opds2Feed {
  metadata: { title: string; modified: string; numberOfItems?: number; itemsPerPage?: number; currentPage?: number };
  links: Opds2Link[];
  navigation?: Opds2Link[];
  publications?: Opds2Publication[];
  groups?: Opds2Group[];
}

/** A paged result's metadata: Komga's numberOfItems, itemsPerPage and 1-based currentPage. */
export const pageMetadata = (total: number, size: number, page: number) => ({ numberOfItems: total, itemsPerPage: size, currentPage: page + 1 });

/** The document an OPDS 2 reader reads to learn which login to ask for (Basic: email and password). */
export function authenticationDocument(origin: string) {
  return {
    id: `${origin}${AUTH_DOCUMENT_PATH}`,
    title: 'Folio',
    description: 'Enter your email and password to authenticate.',
    authentication: [{ type: 'http://opds-spec.org/auth/basic', labels: { login: 'Email', password: 'Password' } }],
  };
}

/** The `Link` header a 401 under /opds/v2 carries, pointing readers at the authentication document. */
export const authenticationLinkHeader = (origin: string) =>
  `<${origin}${AUTH_DOCUMENT_PATH}>; rel="http://opds-spec.org/auth/document"; type="${MEDIATYPE_OPDS_AUTHENTICATION}"`;

/**
 * One book as an OPDS 2 publication: its metadata, the Readium manifest it opens with, the
 * download (file name at the end of the URL, as for OPDS 1.2) and its poster.
 */
export function opds2Publication(ctx: FolioContext, origin: string, bookId: string): Opds2Publication | undefined {
  const book = ctx.repos.books.findById(bookId);
  const meta = ctx.repos.bookMetadata.findByBookId(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  if (!book || !meta || !media) return undefined;
  const seriesTitle = ctx.repos.seriesMetadata.findBySeriesId(book.seriesId)?.title;
  const api = `${origin}/api/v1/books/${bookId}`;
  const profile = mediaProfileOf(media.mediaType);
  const links: Opds2Link[] = [];
  if (media.status === 'READY' && profile) {
    links.push({ rel: 'self', href: `${api}/manifest`, type: profile === 'DIVINA' ? 'application/divina+json' : 'application/webpub+json' });
  }
  links.push(
    { rel: 'http://opds-spec.org/acquisition', href: `${api}/file/${encodeURIComponent(basename(book.url))}`, type: media.mediaType ?? 'application/octet-stream' },
    { href: `${origin}/opds/v2/series/${book.seriesId}`, type: MEDIATYPE_OPDS },
  );
  return {
    metadata: {
      title: meta.title,
      identifier: meta.isbn ? `urn:isbn:${meta.isbn}` : undefined,
      modified: formatDateTime(book.lastModified),
      published: meta.releaseDate ?? undefined,
      description: meta.summary || undefined,
      author: meta.authors.filter((a) => a.role === 'writer').map((a) => a.name),
      numberOfPages: media.pageCount,
      belongsTo: seriesTitle ? { series: [{ name: seriesTitle, position: meta.numberSort }] } : undefined,
    },
    links,
    images: [{ href: `${api}/thumbnail`, type: 'image/jpeg' }],
  };
}

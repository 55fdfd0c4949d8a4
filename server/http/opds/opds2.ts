import { basename } from 'node:path';
import type { FolioContext } from '../../domain/context.ts';
import { mediaProfileOf } from '../../media/readers.ts';
import type { User } from '../../db/user-repository.ts';
import { toBookDto } from '../dto/book-dto.ts';
import { isAdmin } from '../dto/user-dto.ts';
import { type WPPublication, catalogPublication } from '../dto/webpub-dto.ts';

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

export type Opds2Publication = WPPublication;

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
 * One book as an OPDS 2 publication, in the Web Publication shape of the manifests (the same
 * metadata, its "self" link opens the book), plus its poster; every link is an /opds/v2 address
 * (as Komga's OpdsGenerator writes them), its series naming its OPDS 2 feed.
 */
export function opds2Publication(ctx: FolioContext, origin: string, user: User, bookId: string): Opds2Publication | undefined {
  const book = ctx.repos.books.findById(bookId);
  const media = ctx.repos.media.findByBookId(bookId);
  const dto = toBookDto(ctx, bookId, user.id, isAdmin(user));
  if (!book || !media || !dto) return undefined;
  return catalogPublication(
    {
      origin,
      books: '/opds/v2/books',
      book: dto,
      seriesMetadata: ctx.repos.seriesMetadata.findBySeriesId(book.seriesId),
      // A book not analysed yet has no profile: its manifest link then says WebPub, as Komga's does.
      profile: mediaProfileOf(media.mediaType) ?? 'EPUB',
      epubDivinaCompatible: media.epubDivinaCompatible,
    },
    basename(book.url),
  );
}

import { decodeFragment } from './uriFragment.ts';

/*
 * Where a link in a book's text leads. Readium's navigator resolves a relative link of a chapter
 * (a footnote reference "notes.xhtml#n1", "see chapter 3") with a file-path join, which turns the
 * chapter's "http://host/…" address into "http:/host/…": it finds no such chapter and hands the link
 * on as if it left the book. The reader opened it in a new tab, at a page-not-found address. Read as
 * a URL (the URL standard lets "http:/host" stand for "http://host"), the link is a chapter again.
 */

export type LinkTarget =
  /** A chapter of the book (its reading-order href, exactly), at an element id when the link names one. */
  | { kind: 'chapter'; href: string; fragment: string | null }
  /** Somewhere outside Folio: a web page, an e-mail address, a phone number. */
  | { kind: 'outside'; url: string }
  /** Nothing a reader can be shown: a file of the book that is no chapter, another Folio page, a script. */
  | { kind: 'nowhere' };

const OUTSIDE = /^(https?|mailto|tel):$/;

/**
 * The target of `href` (as the navigator hands it on), given the book's reading-order hrefs and the
 * reader's own origin.
 */
export function linkTarget(href: string, readingOrder: readonly string[], origin: string): LinkTarget {
  // Read on its own first: against a base of the same scheme, "http:/host/…" would be a path.
  const url = parsed(href) ?? parsed(href, origin);
  if (!url) return { kind: 'nowhere' };
  if (!OUTSIDE.test(url.protocol)) return { kind: 'nowhere' };
  if (url.origin === origin || readingOrder.some((item) => sameOrigin(item, url))) {
    const fragment = url.hash ? decodeFragment(url.hash.slice(1)) : null;
    url.hash = '';
    const chapter = readingOrder.find((item) => normalised(item) === url.href);
    return chapter ? { kind: 'chapter', href: chapter, fragment } : { kind: 'nowhere' };
  }
  return { kind: 'outside', url: url.href };
}

function parsed(href: string, base?: string): URL | null {
  try {
    return new URL(href, base);
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}

function sameOrigin(href: string, url: URL): boolean {
  try {
    return new URL(href).origin === url.origin;
  } catch (error) {
    if (error instanceof TypeError) return false;
    throw error;
  }
}

function normalised(href: string): string {
  try {
    const url = new URL(href);
    url.hash = '';
    return url.href;
  } catch (error) {
    if (error instanceof TypeError) return href;
    throw error;
  }
}

import { decodeXmlText } from './xml-text.ts';
import { unexpandedEntity } from './xml-doctype.ts';
import { decodeXhtmlReferences, type DocumentEntities, documentEntities, MAX_ENTITY_EXPANSION_CHARS } from './xhtml-entities.ts';
import { posix } from 'node:path';
import type { OpenedBook } from './book-reader.ts';
import { type OpfPackage, resolveHref } from './epub-opf.ts';
import { isTransientFailure } from './transient-errors.ts';
import { elements, untilLastTag, withoutTags } from './markup-scan.ts';

/** One navigation entry: a title and a zip path, with the fragment it points into (if any). */
export interface NavigationLink {
  title: string;
  path: string;
  fragment: string | null;
}

export interface EpubNavigation {
  toc: NavigationLink[];
  landmarks: NavigationLink[];
  pageList: NavigationLink[];
}

/**
 * What was lost reading a navigation (a list cut at MAX_NAV_LINKS, a document that could not be
 * read), one line each, for the caller to log with the book it read: never dropped unsaid.
 */
export type NavigationProblems = string[];

const MAX_NAV_BYTES = 2 * 1024 * 1024;
/**
 * Links kept of one list (table of contents, landmarks, page list). A 1.9 MB navigation document
 * of 45,000 links made every manifest 5.3 MB, 140-375 ms of the request thread each time; the
 * longest real tables (a Bible's 1,189 chapters, a dictionary's letters and sections) fit well.
 */
export const MAX_NAV_LINKS = 10_000;
const EMPTY: EpubNavigation = { toc: [], landmarks: [], pageList: [] };

/**
 * Navigation documents come from the book, so every scan takes time linear in their size
 * (markup-scan.ts): the regular expressions used before took minutes on a 2 MB document.
 */
const plain = (html: string, own?: DocumentEntities) => decodeXhtmlReferences(withoutTags(html), own).replace(/\s+/g, ' ').trim();

function link(baseDir: string, title: string, href: string): NavigationLink | null {
  if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href)) return null;
  const hash = href.indexOf('#');
  const fragment = hash >= 0 ? href.slice(hash + 1) || null : null;
  const target = hash >= 0 ? href.slice(0, hash) : href;
  const path = target ? resolveHref(baseDir, target) : '';
  // A link leading out of the book (../../etc/passwd) names nothing in it: not offered to readers.
  if (path === '..' || path.startsWith('../')) return null;
  return { title, path, fragment };
}

const dirOf = (path: string) => (posix.dirname(path) === '.' ? '' : posix.dirname(path));

/**
 * The links of one `<nav epub:type="...">` of an EPUB 3 navigation document, flattened in
 * document order (nested lists of the table of contents become consecutive entries).
 */
export function navDocumentLinks(
  xhtml: string,
  navPath: string,
  type: 'toc' | 'landmarks' | 'page-list',
  problems: NavigationProblems = [],
  own?: DocumentEntities,
): NavigationLink[] {
  for (const { attributes, content: body } of elements(xhtml, 'nav')) {
    const types = /\btype\s*=\s*["']([^"']*)["']/i.exec(attributes)?.[1]?.split(/\s+/) ?? [];
    if (!types.includes(type)) continue;
    const links: NavigationLink[] = [];
    for (const { attributes: anchorAttributes, content } of elements(body, 'a')) {
      if (links.length === MAX_NAV_LINKS) {
        // Another link past the bound: the list is cut (its size is not counted, which is the cost bounded).
        problems.push(`${navPath}: the ${type} list has more than ${MAX_NAV_LINKS} links; the first ${MAX_NAV_LINKS} are kept`);
        break;
      }
      const href = /\bhref\s*=\s*("([^"]*)"|'([^']*)')/i.exec(anchorAttributes);
      const found = link(dirOf(navPath), plain(content, own), decodeXhtmlReferences(href?.[2] ?? href?.[3] ?? '', own));
      if (found) links.push(found);
    }
    return links;
  }
  return [];
}

/** EPUB 2 NCX: navPoints (table of contents) or pageTargets (page list), flattened in document order. */
export function ncxLinks(
  xml: string,
  ncxPath: string,
  element: 'navPoint' | 'pageTarget',
  problems: NavigationProblems = [],
  own?: DocumentEntities,
): NavigationLink[] {
  const links: NavigationLink[] = [];
  // `<element …>`, then `<navLabel …><text …>` right after it, the label up to the first `</text>`,
  // then `</navLabel><content … src="…">` right after that; each step starts where the last ended.
  const text = untilLastTag(xml);
  const opening = new RegExp(`<${element}\\b[^>]*>`, 'gi');
  const label = /\s*<navLabel\b[^>]*>\s*<text\b[^>]*>/y;
  const target = /<\/text>\s*<\/navLabel>\s*<content\b[^>]*?\bsrc\s*=\s*("([^"]*)"|'([^']*)')/y;
  while (links.length < MAX_NAV_LINKS && opening.exec(text)) {
    label.lastIndex = opening.lastIndex;
    if (!label.exec(text)) continue;
    const end = text.indexOf('</text>', label.lastIndex);
    if (end < 0) break;
    target.lastIndex = end;
    const found = target.exec(text);
    // Every later opening before `end` shares this label end, so it would fail the same way.
    opening.lastIndex = found ? target.lastIndex : end;
    if (!found) continue;
    const entry = link(dirOf(ncxPath), plain(text.slice(label.lastIndex, end), own), decodeXhtmlReferences(found[2] ?? found[3] ?? '', own));
    if (entry) links.push(entry);
  }
  if (links.length === MAX_NAV_LINKS && opening.exec(text)) {
    problems.push(`${ncxPath}: more than ${MAX_NAV_LINKS} ${element} entries; the first ${MAX_NAV_LINKS} are kept`);
  }
  return links;
}

/**
 * The table of contents, landmarks and page list of an EPUB: from its EPUB 3 navigation document
 * when it has one, else from its EPUB 2 NCX. Unreadable navigation yields empty lists (a reader can
 * still follow the reading order), said in `problems` as a cut list is; a transient failure (a
 * time-out, a busy server) is thrown: it is not the book's.
 */
export async function readNavigation(book: OpenedBook, pkg: OpfPackage, problems: NavigationProblems = []): Promise<EpubNavigation> {
  const names = new Set(book.entries().map((e) => e.name));
  const read = async (path: string) => decodeXmlText(await book.readPrefix(path, MAX_NAV_BYTES));
  try {
    const nav = pkg.manifest.find((item) => item.properties.includes('nav') && names.has(item.path));
    if (nav) {
      const xhtml = await read(nav.path);
      const own = entitiesOf(xhtml, nav.path);
      return {
        toc: navDocumentLinks(xhtml, nav.path, 'toc', problems, own),
        landmarks: navDocumentLinks(xhtml, nav.path, 'landmarks', problems, own),
        pageList: navDocumentLinks(xhtml, nav.path, 'page-list', problems, own),
      };
    }
    const ncx = pkg.manifest.find((item) => item.mediaType === 'application/x-dtbncx+xml' && names.has(item.path));
    if (ncx) {
      const xml = await read(ncx.path);
      const own = entitiesOf(xml, ncx.path);
      return { toc: ncxLinks(xml, ncx.path, 'navPoint', problems, own), landmarks: [], pageList: ncxLinks(xml, ncx.path, 'pageTarget', problems, own) };
    }
  } catch (error) {
    // A damaged navigation document means no navigation; a busy server is not the book's fault.
    if (isTransientFailure(error)) throw error;
    problems.push(`the navigation could not be read, so the book has no table of contents: ${error instanceof Error ? error.message : String(error)}`);
  }
  return EMPTY;
}

/**
 * The entities a navigation document declares, held to what the package document and ComicInfo
 * get (xml-doctype.ts): one defined by other entities refuses the document, as it refuses theirs
 * (its references would otherwise stay in titles as written); plain ones are expanded, within
 * MAX_ENTITY_EXPANSION_CHARS for the document, past which it is not read either.
 */
function entitiesOf(xml: string, path: string): DocumentEntities {
  const unread = unexpandedEntity(xml);
  if (unread) throw new Error(`the navigation document ${path} is not read: ${unread}`);
  return documentEntities(xml, MAX_ENTITY_EXPANSION_CHARS);
}

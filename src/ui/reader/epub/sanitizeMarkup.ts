import DOMPurify, { type Config } from 'dompurify';
import { t } from '../../i18n.ts';
import { tooComplexToShow, tooLongToParse } from './chapterBounds.ts';

/*
 * Publication documents are hostile input. The rendering library shows each one in an iframe made
 * from a blob: URL, and a blob: document has the origin of the page that made it — Folio's. A
 * script left in a chapter would run with the reader's session, so every (X)HTML document is
 * cleaned before the library sees it: scripts, event handlers, javascript: URLs, frames, objects,
 * forms and <meta>/<base> go; text, styles, images, SVG and links stay. The library's own helper
 * scripts are added after this, so they keep working.
 */

const purifier = DOMPurify(window);

/*
 * SVG names with capitals. The sanitizer's lists are lower case, and in XHTML names keep their case,
 * so without these an XHTML chapter lost them: a cover page's <svg viewBox> (calibre's own cover
 * page) shrank to a 300 × 150 corner of its picture, gradients and clip paths vanished. They are the
 * HTML parser's table of SVG names it gives capitals back to, less the animation ones (which may
 * change other attributes) and foreignObject (HTML inside SVG, which the sanitizer refuses anyway).
 */
const SVG_TAGS = ['altGlyph', 'altGlyphDef', 'altGlyphItem', 'clipPath', 'glyphRef', 'linearGradient', 'radialGradient', 'textPath'];
const SVG_ATTRIBUTES = [
  'baseFrequency', 'clipPathUnits', 'diffuseConstant', 'edgeMode', 'filterUnits', 'glyphRef', 'gradientTransform',
  'gradientUnits', 'kernelMatrix', 'kernelUnitLength', 'lengthAdjust', 'limitingConeAngle', 'markerHeight', 'markerUnits',
  'markerWidth', 'maskContentUnits', 'maskUnits', 'numOctaves', 'pathLength', 'patternContentUnits', 'patternTransform',
  'patternUnits', 'pointsAtX', 'pointsAtY', 'pointsAtZ', 'preserveAlpha', 'preserveAspectRatio', 'primitiveUnits', 'refX',
  'refY', 'specularConstant', 'specularExponent', 'spreadMethod', 'startOffset', 'stdDeviation', 'stitchTiles',
  'surfaceScale', 'systemLanguage', 'tableValues', 'targetX', 'targetY', 'textLength', 'viewBox', 'xChannelSelector',
  'yChannelSelector',
];

/*
 * The lists are frozen: the sanitizer lower-cases the names of a list it may change in place, so a
 * document read as HTML would otherwise have taken the capitals from every later XHTML one.
 */
const OPTIONS: Config = {
  // The parsed document's root element is cleaned as a copy in the sanitizer's own inert document
  // and handed back as nodes (keeps head, styles, namespaces); see cleanRoot.
  RETURN_DOM: true,
  WHOLE_DOCUMENT: true,
  ADD_TAGS: Object.freeze(['link', ...SVG_TAGS]) as string[],
  ADD_ATTR: Object.freeze(['epub:type', 'xml:lang', 'lang', 'dir', 'rel', 'xmlns', 'xmlns:epub', ...SVG_ATTRIBUTES]) as string[],
  FORBID_TAGS: Object.freeze(['script', 'meta', 'base', 'iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'noscript', 'portal']) as string[],
  // Chapters are XHTML: element and attribute names are case-sensitive there.
  PARSER_MEDIA_TYPE: 'application/xhtml+xml',
};

export interface MarkupOptions {
  /** The book's text is in a right-to-left script (Arabic, Hebrew…), whatever its documents declare. */
  rtlScript?: boolean;
}

/**
 * The document without anything that could run: parsed as its media type says, cleaned,
 * written back in that type. An XHTML document that is not well-formed XML — HTML entities such as
 * &nbsp; that XHTML does not declare, an unclosed <br> or <p>, all common in real books — is read
 * by the HTML parser instead, which knows them, and written back as well-formed XHTML: the XML
 * parser would have shown its error page and the chapter only up to the first fault.
 */
export function sanitizeMarkup(markup: string, mediaType: string, options: MarkupOptions = {}): string {
  return writeMarkup(sanitizeDocument(markup, mediaType, options), mediaType);
}

/** A (cleaned) document as text of its media type. */
export function writeMarkup(doc: Document, mediaType: string): string {
  if (/xml/i.test(mediaType)) return new XMLSerializer().serializeToString(doc);
  return `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`;
}

/**
 * The cleaned document itself, as sanitizeMarkup writes it back (the reader's frames are built
 * from it without writing and parsing it again, see build/readiumBundle.ts). A document read as
 * HTML carries an HTML doctype, as the text sanitizeMarkup writes does, so its frame is never
 * laid out in quirks mode.
 */
export function sanitizeDocument(markup: string, mediaType: string, options: MarkupOptions = {}): Document {
  const xml = /xml/i.test(mediaType);
  const tooLong = tooLongToParse(markup);
  if (tooLong) return notShown(tooLong, xml);
  let doc = new DOMParser().parseFromString(markup, xml ? 'application/xhtml+xml' : 'text/html');
  let parsedAsXml = xml;
  const fault = xml ? xhtmlFault(doc) : null;
  if (fault) {
    console.warn(`A chapter of the book is not XHTML (${fault}); it is read as HTML`);
    doc = new DOMParser().parseFromString(markup, 'text/html');
    parsedAsXml = false;
  }
  const tooComplex = tooComplexToShow(doc);
  if (tooComplex) return notShown(tooComplex, xml);
  const viewport = pageSize(doc);
  cleanRoot(doc, parsedAsXml ? OPTIONS : { ...OPTIONS, PARSER_MEDIA_TYPE: 'text/html' });
  dropOutsideRoot(doc);
  if (viewport) restorePageSize(doc, viewport);
  markRightToLeft(doc, options.rtlScript ?? false);
  if (!parsedAsXml && !doc.doctype) doc.insertBefore(doc.implementation.createDocumentType('html', '', ''), doc.documentElement);
  return doc;
}

const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * The page shown instead of a chapter past the reader's bounds (chapterBounds.ts): one paragraph
 * saying so, in the reader's language, as a document of the chapter's kind. Why is logged.
 */
function notShown(reason: string, xml: boolean): Document {
  console.warn(`A chapter of the book is not shown: ${reason}`);
  const doc = xml
    ? document.implementation.createDocument(XHTML_NS, 'html', null)
    : document.implementation.createHTMLDocument('');
  const root = doc.documentElement;
  root.replaceChildren();
  const head = doc.createElementNS(XHTML_NS, 'head');
  const title = doc.createElementNS(XHTML_NS, 'title');
  const body = doc.createElementNS(XHTML_NS, 'body');
  const text = doc.createElementNS(XHTML_NS, 'p');
  const message = t('reader.epub.chapter_not_shown');
  title.textContent = message;
  text.textContent = message;
  head.append(title);
  body.append(text);
  root.append(head, body);
  return doc;
}

/**
 * The document's root element replaced by its cleaned copy. The sanitizer is given the root as a
 * node: it copies it into a document of its own (inert: nothing there loads or runs), walks the
 * copy once with the rules of its IN_PLACE mode, and returns it. IN_PLACE, used before, applies
 * the same rules to the tree where it is, but also walks it four more times and keeps every node in
 * sets (a hook could move nodes behind its walk, and a live document could fire a handler of a
 * removed node; Folio adds no hooks, and a parsed document neither loads nor runs): in a 2 MB
 * chapter, 110,000 nodes, 1.2–1.3 s against 0.3–0.6 s (bench/results/before-after.md).
 * The copy of an XHTML root comes back inside the sanitizer's own <html> (it keeps an HTML root of
 * its own only when the root is named "HTML", as an HTML document's is), as its last element; a
 * root the sanitizer refused leaves an empty <html>.
 */
function cleanRoot(doc: Document, config: Config): void {
  const root = doc.documentElement;
  const inOwnRoot = root.nodeName !== 'HTML';
  const returned = purifier.sanitize(root, config) as unknown as Element;
  const cleaned = inOwnRoot ? returned.lastElementChild : returned;
  const kept = cleaned !== null && cleaned.localName === 'html' && cleaned.namespaceURI === root.namespaceURI;
  const replacement = kept ? doc.adoptNode(cleaned) : doc.createElementNS(root.namespaceURI, 'html');
  doc.replaceChild(replacement, root);
}

/**
 * The sanitizer cleans the root element; the nodes before and after it (the prolog) are
 * none of its business and were written back as they came. An <?xml-stylesheet type="text/xsl"?>
 * there would have the browser transform the cleaned chapter into whatever the stylesheet says,
 * uncleaned. Only the root and the doctype are kept.
 */
function dropOutsideRoot(doc: Document): void {
  for (const node of [...doc.childNodes]) {
    if (node !== doc.documentElement && node.nodeType !== Node.DOCUMENT_TYPE_NODE) node.remove();
  }
}

/**
 * The page size a fixed-layout document declares (<meta name="viewport" content="width=600,
 * height=800">), the only <meta> worth keeping: the reader scales each page to the screen by it.
 * Only its width and height are kept, as numbers; every other <meta> (refresh, CSP, charset) goes.
 */
function pageSize(doc: Document): { width: number; height: number } | null {
  const meta = [...doc.getElementsByTagName('meta')].find((m) => m.getAttribute('name')?.trim().toLowerCase() === 'viewport');
  const content = meta?.getAttribute('content') ?? '';
  const number = (key: string) => Number.parseFloat(new RegExp(`\\b${key}\\s*=\\s*([0-9.]+)`, 'i').exec(content)?.[1] ?? '');
  const width = number('width');
  const height = number('height');
  return width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height) ? { width, height } : null;
}

function restorePageSize(doc: Document, size: { width: number; height: number }): void {
  const head = doc.head ?? doc.getElementsByTagName('head')[0];
  if (!head) return;
  const meta = doc.createElementNS(doc.documentElement.namespaceURI, 'meta');
  meta.setAttribute('name', 'viewport');
  meta.setAttribute('content', `width=${size.width}, height=${size.height}`);
  head.prepend(meta);
}

/**
 * Why a document parsed as XML is no XHTML chapter, or null: a parse error (the parser's message),
 * or a root that is not XHTML's <html> (no namespace declared, another vocabulary), which the
 * sanitizer would have to remove and cannot.
 */
function xhtmlFault(doc: Document): string | null {
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) return error.textContent?.trim() || 'parse error';
  const root = doc.documentElement;
  if (root.namespaceURI !== XHTML_NS || root.localName !== 'html') return `root element {${root.namespaceURI ?? ''}}${root.localName}`;
  return null;
}

/**
 * Right-to-left books: the text reads right to left, the pages follow each other as columns laid
 * out left to right. The library's pagination (this version) only knows left-to-right columns: when
 * the root or body reads right to left (dir attribute or CSS — the browser takes body's direction
 * for the whole viewport) it reports every place as the chapter's start and turns the wrong way.
 * So root and body stay left to right and everything inside body reads right to left; the reader
 * maps "forward" to the left arrow and left tap zone itself. Applies to documents that say they
 * are right to left, and to undeclared ones of a right-to-left-script book — not to vertical
 * Japanese or Chinese, whose right-to-left page order is no text direction.
 */
function markRightToLeft(doc: Document, rtlScript: boolean): void {
  const root = doc.documentElement;
  const body = doc.body ?? doc.getElementsByTagName('body')[0];
  const declared = (body?.getAttribute('dir') || root.getAttribute('dir') || (rtlScript ? 'rtl' : 'ltr')).toLowerCase();
  if (declared !== 'rtl') return;
  root.removeAttribute('dir');
  body?.removeAttribute('dir');
  const head = doc.head ?? doc.getElementsByTagName('head')[0];
  const style = doc.createElementNS(root.namespaceURI, 'style');
  style.textContent = 'html, body { direction: ltr !important; } body > * { direction: rtl; }';
  head?.appendChild(style);
}

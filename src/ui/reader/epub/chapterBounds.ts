/*
 * What one chapter may cost the reader before it is shown. Every chapter is parsed and cleaned on
 * the page's main thread (sanitizeMarkup.ts), and nothing else bounds it: measured in Chromium
 * (sanitizeDocument in the test Chromium, load 7 on 2 cores), a chapter of 1,000,000 elements
 * (8 MB) took 5.8 s to parse and clean, one of 50 MB of inline CSS 3.8 s, SVG nested 100,000 deep
 * 0.8 s to clean and 1.7 s more to lay out, the page frozen meanwhile. The longest real chapters
 * (a single-file novel of 5 MB, a 2 MB chapter of 110,000 nodes) stay well inside these bounds;
 * past them the chapter is replaced by a page saying it is not shown.
 */

/** Characters of markup parsed at all (a 5 MB novel is 5 M; this is 24 M). */
export const MAX_CHAPTER_CHARS = 24 * 1024 * 1024;
/** Elements cleaned (a 2 MB chapter has about 110,000 nodes). */
export const MAX_CHAPTER_ELEMENTS = 400_000;
/** How deep elements may nest: the HTML parser's own limit (deeper ones it makes siblings); the XML parser has none. */
export const MAX_CHAPTER_DEPTH = 512;

/** Why markup this long is not parsed, or null. */
export function tooLongToParse(markup: string): string | null {
  return markup.length > MAX_CHAPTER_CHARS ? `${markup.length} characters, over ${MAX_CHAPTER_CHARS}` : null;
}

/**
 * Why a parsed chapter is not cleaned and shown, or null: more elements than MAX_CHAPTER_ELEMENTS,
 * or nested deeper than MAX_CHAPTER_DEPTH. One walk, without recursion (a deep tree would
 * overflow the stack), that stops at the first bound passed.
 */
export function tooComplexToShow(doc: Document): string | null {
  let elements = 0;
  let depth = 0;
  let node: Element | null = doc.documentElement;
  while (node) {
    elements += 1;
    if (elements > MAX_CHAPTER_ELEMENTS) return `more than ${MAX_CHAPTER_ELEMENTS} elements`;
    if (depth > MAX_CHAPTER_DEPTH) return `elements nested more than ${MAX_CHAPTER_DEPTH} deep`;
    const child: Element | null = node.firstElementChild;
    if (child) {
      node = child;
      depth += 1;
      continue;
    }
    while (node && !node.nextElementSibling) {
      node = node.parentElement;
      depth -= 1;
    }
    node = node?.nextElementSibling ?? null;
  }
  return null;
}

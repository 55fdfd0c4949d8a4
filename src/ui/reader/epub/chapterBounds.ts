/*
 * What one chapter may cost the reader before it is shown. Every chapter is parsed and cleaned on
 * the page's main thread (sanitizeMarkup.ts), and nothing else bounds it: measured
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
/** How deep elements may nest: the HTML parser's own limit (deeper ones it makes siblings); the XML parser accepts more. */
export const MAX_CHAPTER_DEPTH = 512;

/**
 * How deep the markup's tags may nest before it is parsed at all. Chromium's HTML parser takes time
 * growing with the square of the nesting (measured: 10,000 nested <div> 1.4 s, 20,000 6.8 s, 40,000
 * 24 s, load 15), and an XHTML chapter nested deeper than the XML parser accepts is read by the
 * HTML parser too: 700 KB of <div> would hold the page for minutes. Four times
 * MAX_CHAPTER_DEPTH leaves room for sloppy HTML's unclosed elements (those whose end tag HTML lets
 * out are not counted), at about 60 ms of parsing.
 */
export const MAX_MARKUP_NESTING = 4 * MAX_CHAPTER_DEPTH;

/** Elements that never have an end tag, or whose end tag HTML lets out: not counted as nesting. */
const NOT_NESTING = new Set(
  'area base br col embed hr img input link meta param source track wbr p li dt dd tr td th option optgroup thead tbody tfoot colgroup caption rb rt rp rtc html head body'.split(' '),
);
/** A start or end tag: its slash, its name, and whether it closes itself (`[^>]*?` stops at the first `>`: linear). */
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9:._-]*)[^>]*?(\/?)>/g;

/**
 * Why markup is not parsed, or null: longer than MAX_CHAPTER_CHARS, more start tags than
 * MAX_CHAPTER_ELEMENTS (parsing 1,000,000 took 1.6 s before the elements could be counted), or its
 * tags nested deeper than MAX_MARKUP_NESTING. One pass (2 MB: 9-18 ms; 24 M characters of tags:
 * 0.3-0.75 s, at load 18).
 */
export function tooLongToParse(markup: string): string | null {
  if (markup.length > MAX_CHAPTER_CHARS) return `${markup.length} characters, over ${MAX_CHAPTER_CHARS}`;
  let depth = 0;
  let elements = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(markup); match; match = TAG.exec(markup)) {
    if (match[1] !== '/' && ++elements > MAX_CHAPTER_ELEMENTS) return `more than ${MAX_CHAPTER_ELEMENTS} elements`;
    if (match[3] === '/' || NOT_NESTING.has(match[2]!.toLowerCase())) continue;
    if (match[1] === '/') {
      depth = Math.max(0, depth - 1);
    } else if (++depth > MAX_MARKUP_NESTING) {
      return `tags nested more than ${MAX_MARKUP_NESTING} deep`;
    }
  }
  return null;
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

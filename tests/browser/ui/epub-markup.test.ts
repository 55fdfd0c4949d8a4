import { describe, expect, it } from 'vitest';
import { decodeMarkup } from '../../../src/ui/reader/epub/decodeMarkup.ts';
import { sanitizeMarkup } from '../../../src/ui/reader/epub/sanitizeMarkup.ts';

/*
 * Chapters as real books carry them, through the cleaning every document gets before the reader
 * shows it. The reader parses the result as its media type says; a parse error there is a chapter
 * the reader cannot show.
 */
const XHTML = 'application/xhtml+xml';
const head = '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>T</title></head>';

/** The cleaned chapter as the reader parses it, failing on a parse error. */
function shown(markup: string): Document {
  const doc = new DOMParser().parseFromString(sanitizeMarkup(markup, XHTML), XHTML);
  expect(doc.getElementsByTagName('parsererror')[0]?.textContent ?? null).toBeNull();
  return doc;
}

describe('chapters that are not well-formed XHTML', () => {
  it('HTML entities XHTML does not declare are read as the characters they name', () => {
    const doc = shown(`${head}<body><p id="p">One&nbsp;two&mdash;three &hellip; &copy; 2020 &amp; more.</p><p>The end.</p></body></html>`);
    expect(doc.getElementById('p')?.textContent).toBe('One\u00a0two\u2014three \u2026 \u00a9 2020 & more.');
    expect(doc.body.textContent).toContain('The end.');
  });

  it('unclosed tags keep all the text, footnote references and their links', () => {
    const doc = shown(
      `${head}<body><p>First line<br> second line<p>Note<a epub:type="noteref" href="notes.xhtml#n1" id="r1">1</a> here.<p>LAST WORDS</body></html>`,
    );
    expect(doc.body.textContent).toContain('LAST WORDS');
    const ref = doc.getElementById('r1');
    expect(ref?.getAttribute('href')).toBe('notes.xhtml#n1');
    expect(ref?.getAttributeNS('http://www.idpf.org/2007/ops', 'type') ?? ref?.getAttribute('epub:type')).toBe('noteref');
  });

  it('read as HTML, they still lose every script', () => {
    const doc = shown(
      `${head}<body><p>Text&nbsp;</p><script>parent.hit = 1</script><img src="x.png" onerror="parent.hit = 2"/><a href="javascript:parent.hit = 3">a</a><svg xmlns="http://www.w3.org/2000/svg" onload="parent.hit = 4"/></body></html>`,
    );
    expect(doc.getElementsByTagName('script')).toHaveLength(0);
    const html = new XMLSerializer().serializeToString(doc);
    expect(html).not.toMatch(/onerror|onload|javascript:/i);
  });

  it('a chapter without the XHTML namespace is read as HTML, not refused', () => {
    const doc = shown('<?xml version="1.0" encoding="UTF-8"?>\n<html><head><title>T</title></head><body><h1>No namespace</h1><p id="p">NO-NAMESPACE-TEXT</p><script>parent.hit = 1</script></body></html>');
    expect(doc.documentElement.namespaceURI).toBe('http://www.w3.org/1999/xhtml');
    expect(doc.getElementById('p')?.textContent).toBe('NO-NAMESPACE-TEXT');
    expect(doc.getElementsByTagName('script')).toHaveLength(0);
  });
});

describe('SVG in XHTML chapters', () => {
  it('keeps the names with capitals: a cover page’s viewBox, gradients, clip paths', () => {
    const doc = shown(
      `${head}<body><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100%" height="100%" viewBox="0 0 600 900" preserveAspectRatio="xMidYMid meet">` +
        '<defs><linearGradient id="g" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="red"/></linearGradient><clipPath id="c" clipPathUnits="userSpaceOnUse"><rect width="10" height="10"/></clipPath></defs>' +
        '<image width="600" height="900" xlink:href="../images/cover.jpg"/></svg></body></html>',
    );
    const svg = doc.getElementsByTagNameNS('http://www.w3.org/2000/svg', 'svg')[0]!;
    expect(svg.getAttribute('viewBox')).toBe('0 0 600 900');
    expect(svg.getAttribute('preserveAspectRatio')).toBe('xMidYMid meet');
    expect(doc.getElementById('g')?.localName).toBe('linearGradient');
    expect(doc.getElementById('g')?.getAttribute('gradientUnits')).toBe('userSpaceOnUse');
    expect(doc.getElementById('c')?.getAttribute('clipPathUnits')).toBe('userSpaceOnUse');
  });
});
describe('the encoding a chapter declares', () => {
  const bytes = (text: string, encode: (c: number) => number[]) => new Uint8Array([...text].flatMap((c) => encode(c.charCodeAt(0))));
  const latin1 = (text: string) => bytes(text, (c) => [c]);

  it('ISO-8859-1 and Windows-1252 chapters keep their accented letters', () => {
    expect(decodeMarkup(latin1('<?xml version="1.0" encoding="ISO-8859-1"?>\n<p>caf\u00e9 na\u00efve</p>'))).toContain('caf\u00e9 na\u00efve');
    expect(decodeMarkup(latin1('<html><head><meta charset="windows-1252"/></head><body>\u00e0 la fran\u00e7aise</body></html>'))).toContain('\u00e0 la fran\u00e7aise');
  });

  it('UTF-8 by default and with a byte order mark; UTF-16 by its mark; an unknown label is UTF-8', () => {
    const utf8 = new TextEncoder().encode('<p>caf\u00e9</p>');
    expect(decodeMarkup(utf8)).toBe('<p>caf\u00e9</p>');
    expect(decodeMarkup(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toBe('<p>caf\u00e9</p>');
    expect(decodeMarkup(new Uint8Array([0xff, 0xfe, ...bytes('<p>\u00e9</p>', (c) => [c & 0xff, c >> 8])]))).toBe('<p>\u00e9</p>');
    expect(decodeMarkup(new TextEncoder().encode('<?xml version="1.0" encoding="no-such-charset"?><p>caf\u00e9</p>'))).toContain('caf\u00e9');
  });
});

describe('the cleaned chapter names the encoding it is written in', () => {
  it('a declaration of ISO-8859-1 or UTF-16 says UTF-8 once decoded (the reader writes the chapter out as UTF-8)', () => {
    const latin1 = new Uint8Array([...'<?xml version="1.0" encoding="ISO-8859-1"?><p>caf\u00e9</p>'].map((c) => c.charCodeAt(0)));
    expect(decodeMarkup(latin1)).toBe('<?xml version="1.0" encoding="UTF-8"?><p>caf\u00e9</p>');
    const utf16 = '<?xml version="1.0" encoding="UTF-16"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><p>\u00e9</p></body></html>';
    const bytes = new Uint8Array([0xff, 0xfe, ...[...utf16].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])]);
    const cleaned = sanitizeMarkup(decodeMarkup(bytes), 'application/xhtml+xml');
    expect(cleaned).not.toMatch(/UTF-16|ISO-8859/i);
  });
});

describe('fixed-layout pages', () => {
  it('keep the page size they declare, and no other <meta>', () => {
    const doc = shown(
      `${head.replace('<title>T</title>', '<title>T</title><meta name="viewport" content="width=600, height=800, initial-scale=9"/><meta http-equiv="refresh" content="0;url=https://example.org/"/><meta http-equiv="Content-Security-Policy" content="default-src *"/>')}<body><p>Page</p></body></html>`,
    );
    const metas = [...doc.getElementsByTagName('meta')];
    expect(metas.map((m) => [m.getAttribute('name'), m.getAttribute('content')])).toEqual([['viewport', 'width=600, height=800']]);
  });

  it('a viewport without a page size, or with junk, is not kept', () => {
    const doc = shown(`${head.replace('<title>T</title>', '<title>T</title><meta name="viewport" content="width=device-width&quot;&gt;"/>')}<body><p>Page</p></body></html>`);
    expect(doc.getElementsByTagName('meta')).toHaveLength(0);
  });
});

describe('what lies outside the root element', () => {
  it('a stylesheet processing instruction (XSLT that would rebuild the chapter uncleaned) does not survive', () => {
    // The sanitizer cleans the root element in place; the prolog and what follows the root are
    // no part of it. Before, an <?xml-stylesheet type="text/xsl"?> there reached the reader's
    // XHTML document untouched, where the browser would transform the cleaned chapter with it.
    const markup = `<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="https://example.org/evil.xsl"?>\n<!-- a note -->\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><p id="p">Text</p></body></html>\n<?xml-stylesheet type="text/xsl" href="#again"?>`;
    const cleaned = sanitizeMarkup(markup, XHTML);
    expect(cleaned).not.toContain('xml-stylesheet');
    const doc = shown(markup);
    expect([...doc.childNodes].map((n) => n.nodeType)).toEqual([Node.ELEMENT_NODE]);
    expect(doc.getElementById('p')?.textContent).toBe('Text');
  });

  it('nor one in a chapter read as HTML', () => {
    const markup = `<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="evil.xsl"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><p>One&nbsp;two</p></body></html>\n<?xml-stylesheet type="text/xsl" href="#x"?>`;
    expect(sanitizeMarkup(markup, XHTML)).not.toContain('xml-stylesheet');
  });
});

import { describe, expect, it } from 'vitest';
import { t } from '../../src/ui/i18n.ts';
import { MAX_CHAPTER_CHARS, MAX_CHAPTER_DEPTH, MAX_CHAPTER_ELEMENTS, MAX_MARKUP_NESTING } from '../../src/ui/reader/epub/chapterBounds.ts';
import { sanitizeDocument, sanitizeMarkup } from '../../src/ui/reader/epub/sanitizeMarkup.ts';

/*
 * Chapters past what the reader may spend on one (chapterBounds.ts) are replaced by a page saying
 * they are not shown, instead of freezing the page for seconds while they are parsed and cleaned
 * on its main thread (1,000,000 elements: 5.8 s). Before, every one of these was cleaned and shown.
 */
const XHTML = 'application/xhtml+xml';
const chapter = (head: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter</title>${head}</head><body>${body}</body></html>`;
const nested = (depth: number) => `${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`;

function notShown(doc: Document): boolean {
  return doc.body?.textContent === t('reader.epub.chapter_not_shown') && doc.getElementsByTagName('*').length === 5;
}

describe('a chapter past the reader\'s bounds is not shown, and says so', () => {
  it('the message is a sentence of the reader\'s language', () => {
    expect(t('reader.epub.chapter_not_shown')).toMatch(/too large or too complex/);
  });

  it(`more than ${MAX_CHAPTER_ELEMENTS} elements (XHTML, and HTML)`, () => {
    const body = '<p>x</p>'.repeat(MAX_CHAPTER_ELEMENTS);
    expect(notShown(sanitizeDocument(chapter('', body), XHTML))).toBe(true);
    expect(notShown(sanitizeDocument(`<!DOCTYPE html><html><head><title>c</title></head><body>${body}</body></html>`, 'text/html'))).toBe(true);
    // Written back as its type, as a shown chapter is.
    expect(sanitizeMarkup(chapter('', body), XHTML)).toContain(t('reader.epub.chapter_not_shown'));
  });

  it(`elements nested more than ${MAX_CHAPTER_DEPTH} deep (the XML parser accepts them)`, () => {
    expect(notShown(sanitizeDocument(chapter('', nested(MAX_CHAPTER_DEPTH + 10)), XHTML))).toBe(true);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(MAX_CHAPTER_DEPTH + 10)}${'</g>'.repeat(MAX_CHAPTER_DEPTH + 10)}</svg>`;
    expect(notShown(sanitizeDocument(chapter('', svg), XHTML))).toBe(true);
  });

  it('tags nested 20,000 deep, XHTML or HTML: not even parsed (the HTML parser took 6.8 s, and 4 times that at twice the depth)', () => {
    expect(notShown(sanitizeDocument(chapter('', nested(20_000)), XHTML))).toBe(true);
    expect(notShown(sanitizeDocument(`<!DOCTYPE html><html><head><title>c</title></head><body>${nested(20_000)}</body></html>`, 'text/html'))).toBe(true);
    expect(MAX_MARKUP_NESTING).toBeGreaterThan(MAX_CHAPTER_DEPTH);
  });

  it(`more than ${MAX_CHAPTER_CHARS} characters (50 MB of inline CSS): not even parsed`, () => {
    const css = `<style>${'.a{color:red}\n'.repeat(Math.ceil(MAX_CHAPTER_CHARS / 14) + 1)}</style>`;
    expect(notShown(sanitizeDocument(chapter(css, '<p>x</p>'), XHTML))).toBe(true);
  });
});

describe('chapters within the bounds are shown as before', () => {
  it('a long ordinary chapter, nested a few hundred deep', () => {
    const doc = sanitizeDocument(chapter('<style>p { margin: 0 }</style>', `${'<p>Words, words.</p>'.repeat(20_000)}${nested(MAX_CHAPTER_DEPTH - 10)}`), XHTML);
    expect(notShown(doc)).toBe(false);
    expect(doc.getElementsByTagName('p')).toHaveLength(20_000);
    expect(doc.body.textContent).toContain('deep');
  });

  it('sloppy HTML of thousands of unclosed paragraphs and list items (their end tags may be left out)', () => {
    const doc = sanitizeDocument(`<!DOCTYPE html><html><head><title>c</title></head><body><ul>${'<li><p>Item<br>'.repeat(3000)}</ul></body></html>`, 'text/html');
    expect(notShown(doc)).toBe(false);
    expect(doc.getElementsByTagName('li')).toHaveLength(3000);
  });

  it('a <use> reference bomb costs nothing: the sanitizer keeps no <use>', () => {
    let defs = '<g id="l0"><rect width="1" height="1"/></g>';
    for (let level = 1; level <= 9; level++) defs += `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`;
    const doc = sanitizeDocument(chapter('', `<svg xmlns="http://www.w3.org/2000/svg"><defs>${defs}</defs><use href="#l9"/></svg>`), XHTML);
    expect(doc.getElementsByTagNameNS('http://www.w3.org/2000/svg', 'use')).toHaveLength(0);
    expect(doc.getElementsByTagNameNS('http://www.w3.org/2000/svg', 'rect')).toHaveLength(1);
  });
});

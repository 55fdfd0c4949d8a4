import { describe, expect, it } from 'vitest';
import { linkTarget } from '../../../src/engine/epubLinks.ts';

const ORIGIN = 'http://folio.example:8080';
const book = `${ORIGIN}/api/v1/books/B1/resource/OEBPS/text`;
const readingOrder = [`${book}/ch1.xhtml`, `${book}/notes%20and%20more.xhtml`];

describe('linkTarget', () => {
  it('a relative link the navigator joined into "http:/host/…" is the chapter it names, at its id', () => {
    expect(linkTarget(`http:/folio.example:8080/api/v1/books/B1/resource/OEBPS/text/notes%20and%20more.xhtml#note%201`, readingOrder, ORIGIN)).toEqual({
      kind: 'chapter',
      href: readingOrder[1],
      fragment: 'note 1',
    });
    expect(linkTarget(`${book}/ch1.xhtml`, readingOrder, ORIGIN)).toEqual({ kind: 'chapter', href: readingOrder[0], fragment: null });
  });

  it('a web page, an e-mail address or a phone number is outside', () => {
    expect(linkTarget('https://example.org/page#x', readingOrder, ORIGIN)).toEqual({ kind: 'outside', url: 'https://example.org/page#x' });
    expect(linkTarget('mailto:author@example.org', readingOrder, ORIGIN)).toEqual({ kind: 'outside', url: 'mailto:author@example.org' });
    expect(linkTarget('tel:+123', readingOrder, ORIGIN).kind).toBe('outside');
  });

  it('a file of the book that is no chapter, another Folio page, a script or junk lead nowhere', () => {
    expect(linkTarget(`${book}/../images/plate.jpg`, readingOrder, ORIGIN)).toEqual({ kind: 'nowhere' });
    expect(linkTarget(`${ORIGIN}/settings`, readingOrder, ORIGIN)).toEqual({ kind: 'nowhere' });
    expect(linkTarget('javascript:alert(1)', readingOrder, ORIGIN)).toEqual({ kind: 'nowhere' });
    expect(linkTarget('data:text/html,<p>x</p>', readingOrder, ORIGIN)).toEqual({ kind: 'nowhere' });
    expect(linkTarget('http://[bad', readingOrder, ORIGIN)).toEqual({ kind: 'nowhere' });
  });
});

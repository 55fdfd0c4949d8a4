import { describe, expect, it } from 'vitest';
import { currentTocEntry, type TocEntry } from '../../../src/engine/epubToc.ts';

const base = 'http://host/api/v1/books/1/resource/';
const entry = (href: string, children: TocEntry[] = []): TocEntry => ({ href: `${base}${href}`, children: { items: children } });
const departure = entry('text/ch1.xhtml#departure');
const storm = entry('text/ch1.xhtml#storm');
const chapter1 = entry('text/ch1.xhtml', [departure, storm]);
const chapter2 = entry('text/ch2.xhtml');
const toc = [chapter1, chapter2];
const reachedUpTo = (fragments: string[]) => (fragment: string) => fragments.includes(fragment);

describe('currentTocEntry', () => {
  it('marks the deepest section reached, not every entry of the document', () => {
    expect(currentTocEntry(toc, `${base}text/ch1.xhtml`, reachedUpTo(['departure', 'storm']))).toBe(storm);
    expect(currentTocEntry(toc, `${base}text/ch1.xhtml`, reachedUpTo(['departure']))).toBe(departure);
  });

  it('marks the chapter when no section is reached yet, and another chapter by its document', () => {
    expect(currentTocEntry(toc, `${base}text/ch1.xhtml`, reachedUpTo([]))).toBe(chapter1);
    expect(currentTocEntry(toc, `${base}text/ch2.xhtml`, reachedUpTo(['departure', 'storm']))).toBe(chapter2);
  });

  it('falls back to the document\'s first entry when only unreached sections lead into it', () => {
    const only = [entry('text/ch3.xhtml#a'), entry('text/ch3.xhtml#b')];
    expect(currentTocEntry(only, `${base}text/ch3.xhtml`, () => false)).toBe(only[0]);
    expect(currentTocEntry(only, `${base}text/ch3.xhtml`, () => null)).toBe(only[0]);
  });

  it('marks nothing for a document no entry leads into, or no place', () => {
    expect(currentTocEntry(toc, `${base}text/ch9.xhtml`, () => true)).toBeNull();
    expect(currentTocEntry(toc, null, () => true)).toBeNull();
  });

  it('of equal entries the deepest is marked, and escaped fragments are read decoded', () => {
    const inner = entry('text/ch1.xhtml');
    const escaped = entry('text/ch1.xhtml#caf%C3%A9');
    expect(currentTocEntry([entry('text/ch1.xhtml', [inner])], `${base}text/ch1.xhtml`, () => true)).toBe(inner);
    expect(currentTocEntry([escaped], `${base}text/ch1.xhtml`, (f) => f === 'café')).toBe(escaped);
  });
});

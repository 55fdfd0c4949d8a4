import { describe, expect, it } from 'vitest';
import type { Media } from '../../../server/db/media-repository.ts';
import { EpubPositions } from '../../../server/domain/reading/epub-positions.ts';
import { pageOfLocator, ProgressionError } from '../../../server/domain/reading/r2-progression.ts';

/** Positions as the server numbers them: `perDocument` per spine document, starts spread evenly. */
function positionsOf(documents: number, perDocument: number): EpubPositions {
  const spine = Array.from({ length: documents }, (_, i) => ({ path: `OEBPS/ch${i + 1}.xhtml`, mediaType: 'application/xhtml+xml' }));
  return new EpubPositions(spine, spine.map(() => perDocument));
}

const mediaOf = (pageCount: number): Media => ({
  bookId: 'b',
  status: 'READY',
  mediaType: 'application/epub+zip',
  comment: null,
  pageCount,
  epubDivinaCompatible: false,
  epubIsKepub: false,
  created: 0,
  lastModified: 0,
});

const at = (path: string, progression: number, totalProgression?: number) => ({
  href: `https://folio.example/api/v1/books/b/resource/${path}`,
  type: 'application/xhtml+xml',
  locations: { progression, totalProgression },
});

describe('pageOfLocator for EPUBs (Komga: completed from 0.99 of the book on)', () => {
  // 4 chapters × 50 positions: position k starts at (k - 1) / 200 of the book.
  const positions = positionsOf(4, 50);
  const media = mediaOf(positions.total);

  it('completes at the position that starts at 0.99 of the book, before the last one', () => {
    // Position 199 starts at 198/200 = 0.99 (chapter 4, progression 48/50).
    expect(pageOfLocator(media, at('OEBPS/ch4.xhtml', 0.96), positions)).toEqual({ page: 199, completed: true });
    expect(pageOfLocator(media, at('OEBPS/ch4.xhtml', 0.97), positions)).toEqual({ page: 199, completed: true });
    expect(pageOfLocator(media, at('OEBPS/ch4.xhtml', 0.99), positions)).toEqual({ page: 200, completed: true });
  });

  it('does not complete just before it, whatever totalProgression the client claims', () => {
    // Position 198 starts at 197/200 = 0.985.
    expect(pageOfLocator(media, at('OEBPS/ch4.xhtml', 0.95, 1), positions)).toEqual({ page: 198, completed: false });
    expect(pageOfLocator(media, at('OEBPS/ch1.xhtml', 0.5, 0.999), positions)).toEqual({ page: 26, completed: false });
  });

  it('completes a short book (every position before 0.99) at its last position', () => {
    const short = positionsOf(2, 2);
    expect(pageOfLocator(mediaOf(4), at('OEBPS/ch2.xhtml', 0.5), short)).toEqual({ page: 4, completed: true });
    expect(pageOfLocator(mediaOf(4), at('OEBPS/ch2.xhtml', 0.49), short)).toEqual({ page: 3, completed: false });
  });

  it('refuses a locator outside the book or without a progression', () => {
    expect(() => pageOfLocator(media, at('OEBPS/nope.xhtml', 0.5), positions)).toThrow(ProgressionError);
    expect(() => pageOfLocator(media, { href: at('OEBPS/ch1.xhtml', 0).href, type: 'application/xhtml+xml' }, positions)).toThrow(ProgressionError);
  });
});

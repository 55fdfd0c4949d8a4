import { describe, expect, it } from 'vitest';
import { navDocumentLinks, ncxLinks } from '../../../server/media/epub-navigation.ts';

/**
 * A book's navigation documents are hostile input read on the server's one JavaScript thread. The
 * regular expressions that read them retried a lazy scan to the end of the document at each of many
 * openings that never close: 8,000 of them (216 KB) took 1.2 s, the 2 MB the reader accepts minutes
 * (and 54 KB of unclosed `<` in one label, seconds),
 * during which the whole server waited. Timing is compared with an ordinary document of the same
 * size read in the same run.
 */
const N = 2_000;

/** The fastest of a few runs, in ms (the least disturbed by the rest of the machine). */
function fastest(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
    if (best > 1_000) break; // far too slow already: no need to wait for more
  }
  return best;
}

describe('navigation documents', () => {
  it('an NCX whose labels never close reads as fast as an ordinary one', () => {
    const ordinary = Array.from({ length: N }, (_, i) => `<navPoint id="p${i}"><navLabel><text>Chapter ${i}</text></navLabel><content src="c${i}.xhtml"/></navPoint>`).join('');
    const hostile = '<navPoint><navLabel><text>x'.repeat(Math.ceil(ordinary.length / 27));
    expect(ncxLinks(ordinary, 'OEBPS/toc.ncx', 'navPoint')).toHaveLength(N);
    expect(ncxLinks(hostile, 'OEBPS/toc.ncx', 'navPoint')).toEqual([]);
    const ratio = fastest(() => ncxLinks(hostile, 'OEBPS/toc.ncx', 'navPoint')) / Math.max(fastest(() => ncxLinks(ordinary, 'OEBPS/toc.ncx', 'navPoint')), 0.5);
    expect(ratio).toBeLessThan(10);
  });

  it('an NCX whose entries share one far label end, or hold unclosed tags, reads as fast as an ordinary one', () => {
    const ordinary = Array.from({ length: N }, (_, i) => `<navPoint><navLabel><text>Chapter ${i}</text></navLabel><content src="c${i}.xhtml"/></navPoint>`).join('');
    const sharedEnd = `${'<navPoint><navLabel><text>x'.repeat(N)}</text>`;
    const unclosedTags = `<navPoint><navLabel><text>${'<'.repeat(20_000)}</text></navLabel><content src="c.xhtml"/></navPoint>`;
    expect(ncxLinks(unclosedTags, 'toc.ncx', 'navPoint')).toHaveLength(1);
    const base = Math.max(fastest(() => ncxLinks(ordinary, 'toc.ncx', 'navPoint')), 0.5);
    expect(fastest(() => ncxLinks(sharedEnd, 'toc.ncx', 'navPoint')) / base).toBeLessThan(10);
    expect(fastest(() => ncxLinks(unclosedTags, 'toc.ncx', 'navPoint')) / base).toBeLessThan(10);
  });

  it('an EPUB 3 navigation document whose links never close reads as fast as an ordinary one', () => {
    const ordinary = `<nav epub:type="toc"><ol>${Array.from({ length: 4 * N }, (_, i) => `<li><a href="c${i}.xhtml">Chapter ${i}</a></li>`).join('')}</ol></nav>`;
    const hostile = `<nav epub:type="toc">${'<a href="x">'.repeat(Math.ceil(ordinary.length / 12))}</nav>`;
    const unclosedNavs = '<nav epub:type="toc"><a href="x">'.repeat(Math.ceil(ordinary.length / 33));
    expect(navDocumentLinks(ordinary, 'OEBPS/nav.xhtml', 'toc')).toHaveLength(4 * N);
    const base = Math.max(fastest(() => navDocumentLinks(ordinary, 'OEBPS/nav.xhtml', 'toc')), 0.5);
    expect(fastest(() => navDocumentLinks(hostile, 'OEBPS/nav.xhtml', 'toc')) / base).toBeLessThan(10);
    expect(fastest(() => navDocumentLinks(unclosedNavs, 'OEBPS/nav.xhtml', 'toc')) / base).toBeLessThan(10);
  });
});

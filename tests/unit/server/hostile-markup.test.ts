import { describe, expect, it } from 'vitest';
import { navDocumentLinks, ncxLinks } from '../../../server/media/epub-navigation.ts';
import { parseOpf, xhtmlImages } from '../../../server/media/epub-opf.ts';

/**
 * A book's markup (navigation documents, chapters measured during analysis, the OPF description) is
 * hostile input read on the server's one JavaScript thread. The regular expressions that read it
 * retried a scan to the end at each of many openings that never close (or along a run of `\r`):
 * 8,000 unclosed NCX labels (216 KB) took 1.2 s, a 200 KB chapter of `<img ` over a minute, 40,000
 * `\r` in a description seconds; the 2 MB navigation accepted, minutes. Each is timed against an
 * ordinary document of the same size in the same run.
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

describe('chapters and descriptions', () => {
  const ordinaryChapter = `<html><body>${Array.from({ length: 4 * N }, (_, i) => `<p>Paragraph ${i} <img src="i${i}.png"/></p>`).join('')}</body></html>`;
  const size = ordinaryChapter.length;

  it('a chapter of unclosed image tags, scripts or `<` is measured as fast as an ordinary one', () => {
    expect(xhtmlImages(ordinaryChapter, 'OEBPS/c.xhtml').images).toHaveLength(4 * N);
    const base = Math.max(fastest(() => xhtmlImages(ordinaryChapter, 'OEBPS/c.xhtml')), 0.5);
    for (const unit of ['<img ', '<script>', '<']) {
      const hostile = `<html><body>${unit.repeat(Math.ceil(size / unit.length))}`;
      expect(fastest(() => xhtmlImages(hostile, 'OEBPS/c.xhtml')) / base, unit).toBeLessThan(10);
    }
    // What the scan finds is unchanged: scripts and styles hold no visible text, tags are not text.
    expect(xhtmlImages('<body><script>var x = 1;</script><style>p{}</style><p>Hi <b>there</b></p><img src="a.png"></body>', 'c.xhtml')).toEqual({
      images: ['a.png'],
      textLength: 'Hithere'.length,
    });
  });

  it('a description of unclosed tags or a long run of carriage returns is read as fast as an ordinary one', () => {
    const opf = (description: string) =>
      `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title><dc:description>${description}</dc:description></metadata><manifest/><spine/></package>`;
    const ordinary = opf(Array.from({ length: N }, (_, i) => `Sentence ${i}.&lt;br/&gt;`).join(''));
    const base = Math.max(fastest(() => parseOpf(ordinary, 'OEBPS/content.opf')), 0.5);
    for (const hostile of [opf('&lt;'.repeat(40_000)), opf(`a${'\r'.repeat(40_000)}b`)]) {
      expect(fastest(() => parseOpf(hostile, 'OEBPS/content.opf')) / base).toBeLessThan(10);
    }
    expect(parseOpf(opf('One&lt;br/&gt;two &lt;b&gt;bold&lt;/b&gt;\r\r\n  three'), 'OEBPS/content.opf').metadata.description).toBe('One\ntwo bold\nthree');
  });
});

describe('package documents', () => {
  it('a package of many creators, each refined by a role, reads as fast as one of as many subjects', () => {
    const opf = (metadata: string) =>
      `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title>${metadata}</metadata><manifest/><spine/></package>`;
    const count = 5 * N;
    const creators = opf(Array.from({ length: count }, (_, i) => `<dc:creator id="c${i}">Name ${i}</dc:creator><meta refines="#c${i}" property="role">aut</meta>`).join(''));
    const subjects = opf(Array.from({ length: count }, (_, i) => `<dc:subject>Name ${i}</dc:subject><dc:subject>Other ${i}</dc:subject>`).join(''));
    // Every creator is credited once (up to the bound), with the role its refinement gives.
    const authors = parseOpf(creators, 'OEBPS/content.opf').metadata.authors;
    expect(authors[0]).toEqual({ name: 'Name 0', role: 'writer' });
    expect(new Set(authors.map((a) => a.name)).size).toBe(authors.length);
    const base = Math.max(fastest(() => parseOpf(subjects, 'OEBPS/content.opf')), 0.5);
    expect(fastest(() => parseOpf(creators, 'OEBPS/content.opf')) / base).toBeLessThan(10);
  });
});

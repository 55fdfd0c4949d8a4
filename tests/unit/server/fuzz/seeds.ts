import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createImageEpub, opfXml, writeEpub } from '../../../fixtures/epub.ts';
import { createCbz, renderPage } from '../../../fixtures/index.ts';
import { writePdf } from '../../../fixtures/pdf.ts';
import { writeRar4, writeRar5 } from '../../../fixtures/rar.ts';
import { writeSevenZip } from '../../../fixtures/sevenzip.ts';

/**
 * The books the archive fuzz damages: one per reader, and for EPUB both kinds analysis tells apart
 * (image-only and text), each written by the test. Every part a reader or a route reads should be
 * in one: the CBZ's ComicInfo.xml is deflated (as most writers store it), the PDF has an outline,
 * the text EPUB has metadata, a navigation document and an NCX, several chapters and a cover.
 */
export interface FuzzSeed {
  name: string;
  extension: string;
  bytes: Buffer;
  /** Share of the run's cases: the two EPUB seeds split one reader's budget, so CI takes no longer. */
  share: number;
}

const PAGES = [
  { width: 24, height: 36, color: [200, 40, 40] as [number, number, number], format: 'png' as const },
  { width: 24, height: 36, color: [40, 200, 40] as [number, number, number], format: 'jpeg' as const },
];

export async function writeSeeds(dir: string): Promise<FuzzSeed[]> {
  const png = await renderPage(PAGES[0]!);
  const jpeg = await renderPage(PAGES[1]!);
  const members = [{ name: '001.png', data: png }, { name: '002.jpg', data: jpeg }];
  const seed = async (name: string, extension: string, write: (path: string) => Promise<unknown>, share = 1): Promise<FuzzSeed> => {
    const path = join(dir, `seed-${name}.${extension}`);
    await write(path);
    return { name, extension, bytes: await readFile(path), share };
  };
  return [
    // yazl deflates ComicInfo.xml (the pages are stored or deflated as `compress` says).
    await seed('zip', 'cbz', (path) => createCbz(path, PAGES, { comicInfo: { title: 'Seed', series: 'Fuzz', number: '1', summary: 'A & B', writer: 'W' }, compress: true })),
    await seed('rar4', 'cbr', (path) => writeRar4(path, members)),
    await seed('rar5', 'cbr', (path) => writeRar5(path, members)),
    await seed('pdf', 'pdf', (path) =>
      writePdf(path, [{ width: 200, height: 300, color: [1, 0, 0] }, { width: 300, height: 200, color: [0, 0, 1] }], { outline: ['Opening', 'Ending'] }),
    ),
    await seed('epub-images', 'epub', (path) => createImageEpub(path, PAGES), 0.5),
    await seed('epub-text', 'epub', (path) => writeTextEpub(path, jpeg), 0.5),
    await seed('7z', 'cb7', (path) => writeSevenZip(path, members)),
  ];
}

const CHAPTERS = 3;

const chapter = (n: number) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en"><head><title>Chapter ${n}</title><link rel="stylesheet" href="../style.css"/></head>\n<body><h1 id="c${n}">Chapter ${n}</h1>\n${`<p>It was a dark and stormy night; the rain fell in torrents &amp; more. </p>\n`.repeat(20)}<span epub:type="pagebreak" id="p${n}" title="${n}"/></body></html>\n`;

/** A text EPUB 3 with what readers and the Readium routes read: nav (toc, landmarks, page list), NCX, cover. */
async function writeTextEpub(path: string, cover: Buffer): Promise<void> {
  const ids = Array.from({ length: CHAPTERS }, (_, i) => `ch${i + 1}`);
  const links = ids.map((id, i) => `<li><a href="text/${id}.xhtml#c${i + 1}">Chapter ${i + 1}</a></li>`).join('');
  const nav = `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body>
<nav epub:type="toc"><ol>${links}</ol></nav>
<nav epub:type="landmarks"><ol><li><a epub:type="cover" href="text/cover.xhtml">Cover</a></li><li><a epub:type="bodymatter" href="text/ch1.xhtml">Start</a></li></ol></nav>
<nav epub:type="page-list"><ol>${ids.map((id, i) => `<li><a href="text/${id}.xhtml#p${i + 1}">${i + 1}</a></li>`).join('')}</ol></nav>
</body></html>\n`;
  const points = ids.map((id, i) => `<navPoint id="n${i + 1}" playOrder="${i + 1}"><navLabel><text>Chapter ${i + 1}</text></navLabel><content src="text/${id}.xhtml"/></navPoint>`).join('\n');
  const ncx = `<?xml version="1.0" encoding="UTF-8"?>\n<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head><meta name="dtb:uid" content="urn:uuid:fuzz"/></head><docTitle><text>Fuzz</text></docTitle><navMap>\n${points}\n</navMap><pageList><pageTarget id="t1" type="normal" value="1"><navLabel><text>1</text></navLabel><content src="text/ch1.xhtml#p1"/></pageTarget></pageList></ncx>\n`;
  const metadata = [
    '    <dc:identifier id="uid">urn:uuid:3b0f4c58-fuzz</dc:identifier>',
    '    <dc:title>Fuzzed text</dc:title>',
    '    <dc:creator id="a1">A. Writer</dc:creator>',
    '    <meta refines="#a1" property="role" scheme="marc:relators">aut</meta>',
    '    <dc:language>en</dc:language>',
    '    <dc:publisher>Folio</dc:publisher>',
    '    <dc:date>2020-01-02</dc:date>',
    '    <dc:description>A book &amp; its &lt;summary&gt;.</dc:description>',
    '    <dc:subject>Tests</dc:subject>',
    '    <meta property="dcterms:modified">2020-01-02T00:00:00Z</meta>',
    '    <meta property="belongs-to-collection" id="s1">Fuzz series</meta>',
    '    <meta refines="#s1" property="group-position">2</meta>',
    '    <meta name="cover" content="cover-img"/>',
  ].join('\n');
  const manifest = [
    { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' },
    { id: 'ncx', href: 'toc.ncx', mediaType: 'application/x-dtbncx+xml' },
    { id: 'css', href: 'style.css', mediaType: 'text/css' },
    { id: 'cover-img', href: 'images/cover.jpg', mediaType: 'image/jpeg', properties: 'cover-image' },
    { id: 'cover', href: 'text/cover.xhtml', mediaType: 'application/xhtml+xml' },
    ...ids.map((id) => ({ id, href: `text/${id}.xhtml`, mediaType: 'application/xhtml+xml' })),
  ];
  const opf = opfXml({ metadata, manifest, spine: ['cover', ...ids] }).replace('<spine', '<spine toc="ncx"');
  await writeEpub(path, [
    { name: 'OEBPS/content.opf', data: opf },
    { name: 'OEBPS/nav.xhtml', data: nav },
    { name: 'OEBPS/toc.ncx', data: ncx },
    { name: 'OEBPS/style.css', data: 'body { margin-inline: 1em; }\nh1 { font-size: 1.4em; }\n' },
    { name: 'OEBPS/images/cover.jpg', data: cover },
    { name: 'OEBPS/text/cover.xhtml', data: chapter(0).replace(/<p>[^]*<\/p>\n/, '<p>Cover</p><img src="../images/cover.jpg" alt="Cover"/>') },
    ...ids.map((_, i) => ({ name: `OEBPS/text/ch${i + 1}.xhtml`, data: chapter(i + 1) })),
  ]);
}

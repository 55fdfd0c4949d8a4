import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { parseContainer, parseOpf, resolveHref, xhtmlImages } from '../../../server/media/epub-opf.ts';
import { epubReader } from '../../../server/media/epub-reader.ts';
import { zipReader } from '../../../server/media/zip-reader.ts';
import { BLUE, GREEN, RED, YELLOW } from '../../fixtures/index.ts';
import { createImageEpub, createTextEpub, opfXml, writeEpub, type WrittenImageEpub } from '../../fixtures/epub.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

const EPUB2_OPF = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="uuid_id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:title>The Hobbit</dc:title>
    <dc:creator opf:role="aut" opf:file-as="Tolkien, J. R. R.">J. R. R. Tolkien</dc:creator>
    <dc:creator>Anonymous Co-Author</dc:creator>
    <dc:contributor opf:role="ill">Alan Lee</dc:contributor>
    <dc:contributor opf:role="bkp">calibre (5.0) [https://calibre-ebook.com]</dc:contributor>
    <dc:contributor opf:role="trl">Francis Ledoux</dc:contributor>
    <dc:description>&lt;p&gt;In a hole in the ground &lt;b&gt;there lived&lt;/b&gt; a hobbit.&lt;/p&gt;&lt;p&gt;Not a nasty hole.&lt;/p&gt;</dc:description>
    <dc:publisher>Allen &amp; Unwin</dc:publisher>
    <dc:identifier opf:scheme="calibre" id="calibre_id">1234</dc:identifier>
    <dc:identifier opf:scheme="ISBN">978-0-261-10221-7</dc:identifier>
    <dc:identifier id="uuid_id" opf:scheme="uuid">0b4f2b0a-1111-2222-3333-444455556666</dc:identifier>
    <dc:date>1937-09-21T00:00:00+00:00</dc:date>
    <dc:language>en</dc:language>
    <dc:subject>Fantasy</dc:subject>
    <dc:subject>Classics</dc:subject>
    <meta name="calibre:series" content="Middle-earth"/>
    <meta name="calibre:series_index" content="1.5"/>
    <meta name="cover" content="cover"/>
  </metadata>
  <manifest>
    <item href="Text/chapter%201.xhtml" id="ch1" media-type="application/xhtml+xml"/>
    <item href="../Images/cover.jpeg" id="cover" media-type="image/jpeg"/>
    <item href="toc.ncx" id="ncx" media-type="application/x-dtbncx+xml"/>
  </manifest>
  <spine toc="ncx">
    <itemref idref="ch1"/>
    <itemref idref="missing"/>
    <itemref idref="ncx" linear="no"/>
  </spine>
</package>`;

const EPUB3_OPF = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" prefix="rendition: http://www.idpf.org/vocab/rendition/#">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="pub-id">urn:isbn:0306406152</dc:identifier>
    <dc:title id="t1">Saga Vol. 2</dc:title>
    <dc:creator id="c1">Brian K. Vaughan</dc:creator>
    <meta refines="#c1" property="role" scheme="marc:relators">aut</meta>
    <dc:creator id="c2">Fiona Staples</dc:creator>
    <meta refines="#c2" property="role" scheme="marc:relators">art</meta>
    <dc:contributor id="c3">Fonografiks</dc:contributor>
    <meta refines="#c3" property="role" scheme="marc:relators">let</meta>
    <dc:date>2013-06</dc:date>
    <dc:language>en-US</dc:language>
    <dc:publisher>Image Comics</dc:publisher>
    <meta property="belongs-to-collection" id="coll">Saga</meta>
    <meta refines="#coll" property="collection-type">series</meta>
    <meta refines="#coll" property="group-position">2</meta>
    <meta property="belongs-to-collection" id="set">Best of 2013</meta>
    <meta refines="#set" property="collection-type">set</meta>
    <meta property="rendition:layout">pre-paginated</meta>
    <meta property="dcterms:modified">2020-01-01T00:00:00Z</meta>
  </metadata>
  <manifest>
    <item id="cov" href="img/cover.png" media-type="image/png" properties="cover-image"/>
    <item id="p1" href="p1.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine page-progression-direction="rtl"><itemref idref="p1" properties="page-spread-right"/></spine>
</package>`;

describe('OPF parsing (pure)', () => {
  it('reads EPUB 2 metadata: roles from opf:role, ISBN by scheme, calibre series, HTML description', () => {
    const pkg = parseOpf(EPUB2_OPF, 'OEBPS/content.opf');
    expect(pkg.version).toBe('2.0');
    expect(pkg.metadata).toEqual({
      title: 'The Hobbit',
      authors: [
        { name: 'J. R. R. Tolkien', role: 'writer' },
        { name: 'Anonymous Co-Author', role: 'writer' },
        { name: 'Alan Lee', role: 'penciller' },
        { name: 'Francis Ledoux', role: 'translator' },
      ],
      description: 'In a hole in the ground there lived a hobbit.\nNot a nasty hole.',
      isbn: '9780261102217',
      publisher: 'Allen & Unwin',
      releaseDate: '1937-09-21',
      language: 'en',
      series: { name: 'Middle-earth', index: 1.5 },
      tags: ['Fantasy', 'Classics'],
    });
    expect(pkg.spine.map((s) => [s.path, s.linear])).toEqual([
      ['OEBPS/Text/chapter 1.xhtml', true],
      ['OEBPS/toc.ncx', false],
    ]);
    expect(pkg.coverImage).toBe('Images/cover.jpeg');
    expect(pkg.fixedLayout).toBe(false);
  });

  it('reads EPUB 3 metadata: refined roles, urn:isbn, series collection with position, layout, cover-image', () => {
    const pkg = parseOpf(EPUB3_OPF, 'content.opf');
    expect(pkg.metadata).toMatchObject({
      title: 'Saga Vol. 2',
      authors: [
        { name: 'Brian K. Vaughan', role: 'writer' },
        { name: 'Fiona Staples', role: 'penciller' },
        { name: 'Fonografiks', role: 'letterer' },
      ],
      isbn: '0306406152',
      releaseDate: '2013-06-01',
      language: 'en-US',
      publisher: 'Image Comics',
      series: { name: 'Saga', index: 2 },
      description: null,
      tags: [],
    });
    expect(pkg.fixedLayout).toBe(true);
    expect(pkg.pageProgression).toBe('rtl');
    expect(pkg.coverImage).toBe('img/cover.png');
    expect(pkg.spine[0]).toMatchObject({ path: 'p1.xhtml', properties: ['page-spread-right'] });
  });

  it('ignores calibre placeholder dates and identifiers that are not ISBNs', () => {
    const pkg = parseOpf(
      opfXml({
        metadata: '<dc:title>X</dc:title><dc:date>0101-01-01T00:00:00+00:00</dc:date><dc:identifier>9780261102218</dc:identifier>',
        manifest: [],
        spine: [],
      }),
      'a.opf',
    );
    expect(pkg.metadata).toMatchObject({ releaseDate: null, isbn: null, series: null, authors: [] });
  });

  it('finds the OPF in container.xml, resolves hrefs, and finds images of an XHTML page', () => {
    expect(parseContainer('<container><rootfiles><rootfile full-path="/OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')).toBe('OPS/book.opf');
    expect(parseContainer('<container/>')).toBeNull();
    expect(resolveHref('OEBPS/Text', '../Images/a%20b.png#frag')).toBe('OEBPS/Images/a b.png');
    expect(resolveHref('', 'x.xhtml')).toBe('x.xhtml');
    const page = xhtmlImages('<html><head><title>Long title text here</title></head><body><svg><image xlink:href="../i/1.jpg"/></svg></body></html>', 'OEBPS/p/1.xhtml');
    expect(page).toEqual({ images: ['OEBPS/i/1.jpg'], textLength: 0 });
    expect(xhtmlImages('<body><p>Once upon a time</p><img src="a.png"/><img src="http://x/y.png"/></body>', 'c.xhtml')).toEqual({ images: ['a.png'], textLength: 'Onceuponatime'.length });
  });
});

describe('EPUB signature', () => {
  it('claims zips whose first entry is "mimetype", leaves other zips to the zip reader', async () => {
    const dir = join(server.dir, 'sig');
    const epub = await readFile(await writeEpub(join(dir, 'a.epub'), []));
    const compressed = await readFile(await writeEpub(join(dir, 'b.epub'), [], { mimetype: null }));
    expect(epubReader.matchesSignature(epub.subarray(0, 64))).toBe(true);
    expect(zipReader.matchesSignature(epub.subarray(0, 64))).toBe(true); // hence EPUB is tried first
    expect(epubReader.matchesSignature(compressed.subarray(0, 64))).toBe(false);
    expect(epubReader.matchesSignature(epub.subarray(0, 20))).toBe(false);
  });
});

let server: TestServer;
let books: Map<string, BookDto>;
let comic: WrittenImageEpub;
let textChapters: number[];

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  const png = (color: [number, number, number]) => ({ width: 60, height: 90, color, format: 'png' as const });
  comic = await createImageEpub(join(root, 'Epubs', 'comic.epub'), [png(RED), { ...png(GREEN), format: 'jpeg' }, png(BLUE)]);
  await createImageEpub(join(root, 'Epubs', 'reflowable images.epub'), [png(YELLOW)], { fixedLayout: false });
  // An EPUB named like a comic archive: content decides.
  await createImageEpub(join(root, 'Epubs', 'disguised.cbz'), [png(GREEN)]);
  textChapters = (
    await createTextEpub(join(root, 'Epubs', 'novel.epub'), [5000, 1500, 100], {
      cover: { width: 40, height: 60, color: BLUE, format: 'jpeg' },
      metadata: '<dc:title>A Novel</dc:title><dc:creator>Some One</dc:creator>',
    })
  ).chapterBytes;

  const broken = join(root, 'Broken Epubs');
  const chapter = { name: 'OEBPS/c.xhtml', data: '<html><body><p>Hello</p></body></html>' };
  const opf = opfXml({ metadata: '<dc:title>B</dc:title>', manifest: [{ id: 'c', href: 'c.xhtml', mediaType: 'application/xhtml+xml' }], spine: ['c'] });
  await writeEpub(join(broken, 'wrong-mimetype.epub'), [chapter, { name: 'OEBPS/content.opf', data: opf }], { mimetype: 'application/x-not-epub' });
  await writeEpub(join(broken, 'no-container.epub'), [chapter, { name: 'OEBPS/content.opf', data: opf }], { opfPath: null });
  await writeEpub(join(broken, 'no-opf.epub'), [chapter]);
  await writeEpub(join(broken, 'bad-opf.epub'), [chapter, { name: 'OEBPS/content.opf', data: '<package><metadata>' }]);
  // Written on Windows: the package document in UTF-16 with a byte order mark, as XML allows.
  const wideOpf = opfXml({ metadata: '<dc:title>Wide Ünïcode</dc:title>', manifest: [{ id: 'c', href: 'c.xhtml', mediaType: 'application/xhtml+xml' }], spine: ['c'] });
  await writeEpub(join(root, 'Epubs', 'wide.epub'), [chapter, { name: 'OEBPS/content.opf', data: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(wideOpf, 'utf16le')]) }]);
  // Bought with DRM (Adobe ADEPT): encryption.xml lists the text, which is ciphertext. And an image
  // EPUB whose page images are the encrypted ones.
  const encryption = (algorithm: string, ...uris: string[]) =>
    `<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">${uris
      .map((uri) => `<enc:EncryptedData><enc:EncryptionMethod Algorithm="${algorithm}"/><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData>`)
      .join('')}</encryption>`;
  const adept = 'http://www.w3.org/2001/04/xmlenc#aes128-cbc';
  await writeEpub(join(broken, 'drm.epub'), [
    { name: 'META-INF/encryption.xml', data: encryption(adept, 'OEBPS/c.xhtml') },
    { name: 'META-INF/rights.xml', data: '<adept:rights xmlns:adept="http://ns.adobe.com/adept"/>' },
    { name: 'OEBPS/c.xhtml', data: Buffer.alloc(4000, 0x9c) },
    { name: 'OEBPS/content.opf', data: opf },
  ]);
  await writeEpub(join(broken, 'drm-images.epub'), [
    { name: 'META-INF/encryption.xml', data: encryption(adept, 'OEBPS/p.png') },
    { name: 'OEBPS/c.xhtml', data: '<html><body><img src="p.png"/></body></html>' },
    { name: 'OEBPS/p.png', data: Buffer.alloc(4000, 0x9c) },
    { name: 'OEBPS/content.opf', data: opfXml({ metadata: '<dc:title>I</dc:title>', manifest: [{ id: 'c', href: 'c.xhtml', mediaType: 'application/xhtml+xml' }, { id: 'p', href: 'p.png', mediaType: 'image/png' }], spine: ['c'] }) },
  ]);
  // DRM-free, with its embedded font obfuscated as publishers do (IDPF's algorithm): only the font is unreadable.
  await writeEpub(join(root, 'Epubs', 'obfuscated font.epub'), [
    { name: 'META-INF/encryption.xml', data: encryption('http://www.idpf.org/2008/embedding', 'OEBPS/font.otf') },
    chapter,
    { name: 'OEBPS/font.otf', data: Buffer.alloc(2000, 0x5a) },
    { name: 'OEBPS/content.opf', data: opfXml({ metadata: '<dc:title>F</dc:title>', manifest: [{ id: 'c', href: 'c.xhtml', mediaType: 'application/xhtml+xml' }, { id: 'f', href: 'font.otf', mediaType: 'font/otf' }], spine: ['c'] }) },
  ]);
  await writeEpub(join(broken, 'empty-spine.epub'), [{ name: 'OEBPS/content.opf', data: opfXml({ metadata: '<dc:title>E</dc:title>', manifest: [], spine: [] }) }]);
  const good = await readFile(comic.path);
  await writeFile(join(broken, 'truncated.epub'), good.subarray(0, Math.floor(good.length / 2)));
  await writeFile(join(broken, 'empty.epub'), Buffer.alloc(0));
  // A page whose image is missing from the zip: not image-only any more, read as a text EPUB.
  await writeEpub(join(broken, 'missing-image.epub'), [
    { name: 'OEBPS/p.xhtml', data: '<html><body><img src="gone.png"/></body></html>' },
    { name: 'OEBPS/content.opf', data: opfXml({ metadata: '<dc:title>M</dc:title>', manifest: [{ id: 'p', href: 'p.xhtml', mediaType: 'application/xhtml+xml' }], spine: ['p'] }) },
  ]);

  await addLibrary(server, root);
  const page = await server.json<Page<BookDto>>('/api/v1/books?unpaged=true');
  books = new Map(page.content.map((b) => [b.name, b]));
});
afterAll(async () => server.close());

describe('EPUB books through the server', () => {
  it('exposes an image-only EPUB as pages (epubDivinaCompatible) and serves the exact image bytes', async () => {
    const book = books.get('comic')!;
    expect(book.media).toMatchObject({
      status: 'READY',
      mediaType: 'application/epub+zip',
      mediaProfile: 'EPUB',
      epubDivinaCompatible: true,
      epubIsKepub: false,
      pagesCount: 3,
      comment: '',
    });
    const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
    expect(pages.map((p) => [p.fileName, p.mediaType, p.width, p.height, p.sizeBytes])).toEqual(
      comic.pages.map((p) => [p.name, p.spec.format === 'jpeg' ? 'image/jpeg' : 'image/png', 60, 90, p.bytes.length]),
    );
    for (const [i, written] of comic.pages.entries()) {
      const response = await server.get(`/api/v1/books/${book.id}/pages/${i + 1}`);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(written.bytes)).toBe(true);
    }
    const raw = await server.get(`/api/v1/books/${book.id}/pages/2/raw`);
    expect(raw.rawPayload.equals(comic.pages[1]!.bytes)).toBe(true);
    expect((await server.get(`/api/v1/books/${book.id}/thumbnail`)).statusCode).toBe(200);
  });

  it('treats single-image pages as pages even without fixed layout, and detects EPUB whatever the extension', () => {
    expect(books.get('reflowable images')!.media).toMatchObject({ status: 'READY', epubDivinaCompatible: true, pagesCount: 1 });
    expect(books.get('disguised')!.media).toMatchObject({ status: 'READY', mediaType: 'application/epub+zip', epubDivinaCompatible: true, pagesCount: 1 });
  });

  it('analyses a text EPUB: page count estimated from content size, no page images, poster from the cover', async () => {
    const book = books.get('novel')!;
    const expected = textChapters.reduce((sum, size) => sum + Math.max(1, Math.ceil(size / 1024)), 0);
    expect(expected).toBeGreaterThan(3);
    expect(book.media).toMatchObject({ status: 'READY', mediaType: 'application/epub+zip', mediaProfile: 'EPUB', epubDivinaCompatible: false, pagesCount: expected });
    expect(await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`)).toEqual([]);
    const pageResponse = await server.get(`/api/v1/books/${book.id}/pages/1`);
    expect(pageResponse.statusCode).toBeGreaterThanOrEqual(400);
    expect(pageResponse.statusCode).toBeLessThan(500);
    const poster = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(poster.statusCode).toBe(200);
    const { data } = await sharp(poster.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(data[2]!).toBeGreaterThan(200); // the blue cover
    expect(data[0]!).toBeLessThan(60);
  });

  it('reads a package document written in UTF-16', () => {
    expect(books.get('wide')!.media).toMatchObject({ status: 'READY', mediaProfile: 'EPUB', pagesCount: 1 });
    expect(books.get('wide')!.metadata.title).toBe('Wide Ünïcode');
  });

  it('reads a DRM-free EPUB whose font is obfuscated, and says why a DRM-protected one is an error', async () => {
    expect(books.get('obfuscated font')!.media).toMatchObject({ status: 'READY', comment: '', pagesCount: 1 });
    const drm = await epubReader.open(join(server.dir, 'library', 'Broken Epubs', 'drm.epub'));
    try {
      await expect(drm.describe!(true)).rejects.toThrow('EPUB is protected by DRM: 1 of its 1 reading-order documents are encrypted (META-INF/encryption.xml lists OEBPS/c.xhtml)');
    } finally {
      drm.close();
    }
  });

  it('reads an EPUB whose page image is missing as text rather than failing', () => {
    expect(books.get('missing-image')!.media).toMatchObject({ status: 'READY', epubDivinaCompatible: false, pagesCount: 1 });
  });

  it.each([
    ['wrong-mimetype', 'ERR_1032'],
    ['no-container', 'ERR_1008'],
    ['no-opf', 'ERR_1008'],
    ['bad-opf', 'ERR_1008'],
    ['empty-spine', 'ERR_1006'],
    ['truncated', 'ERR_1008'],
    ['drm', 'ERR_1008'],
    ['drm-images', 'ERR_1008'],
    ['empty', 'ERR_1001'],
  ])('marks %s as ERROR %s and keeps serving', async (name, code) => {
    const book = books.get(name)!;
    // A file that is no such archive at all is UNSUPPORTED (ERR_1001), as Komga marks it.
    expect(book.media).toMatchObject({ status: code === 'ERR_1001' ? 'UNSUPPORTED' : 'ERROR', comment: code, pagesCount: 0 });
    expect((await server.get(`/api/v1/books/${book.id}/pages`)).statusCode).toBe(404);
    expect((await server.get('/api/v2/users/me')).statusCode).toBe(200);
  });
});

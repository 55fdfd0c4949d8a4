import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { IMPORT_LIMITS } from '../../../server/domain/metadata/imported-text.ts';
import { AGGREGATED_VALUES } from '../../../server/domain/metadata/series-aggregation.ts';
import { logFilePath } from '../../../server/logging.ts';
import { MAX_NAV_LINKS } from '../../../server/media/epub-navigation.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { createTextEpub, opfXml, writeEpub } from '../../fixtures/epub.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Metadata read from a library's files is hostile input: a ComicInfo.xml, an EPUB package document
 * or a series.json may carry a title of hundreds of KB, tens of thousands of tags, control
 * characters, impossible dates and numbers. Imported through the real server into real SQLite,
 * what is stored stays within IMPORT_LIMITS, the book stays READY, and the cut is logged.
 */

let server: TestServer;
let root: string;
beforeEach(async () => {
  server = await startServer({ logLevel: 'warn' });
  root = join(server.dir, 'lib');
});
afterEach(async () => server.close());

const page = { width: 10, height: 10, color: RED, format: 'png' as const };
const names = (count: number, prefix: string, width = 8) => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(width, '0')}`).join(',');

interface StoredBook {
  title: string;
  summary: string;
  number: string;
  number_sort: number;
  release_date: string | null;
  authors: string;
  tags: string;
}
const storedBooks = () => server.app.folio.db.prepare('SELECT title, summary, number, number_sort, release_date, authors, tags FROM book_metadata').all() as StoredBook[];
const storedSeries = () =>
  server.app.folio.db.prepare('SELECT title, summary, publisher, genres, total_book_count FROM series_metadata').all() as {
    title: string;
    summary: string;
    publisher: string;
    genres: string;
    total_book_count: number | null;
  }[];
const logText = async () => readFile(logFilePath(server.dataDir), 'utf8');
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

function expectBounded(book: StoredBook): void {
  expect(book.title.length).toBeLessThanOrEqual(IMPORT_LIMITS.textChars);
  expect(book.summary.length).toBeLessThanOrEqual(IMPORT_LIMITS.longTextChars);
  expect(book.number.length).toBeLessThanOrEqual(IMPORT_LIMITS.textChars);
  const tags = JSON.parse(book.tags) as string[];
  const authors = JSON.parse(book.authors) as { name: string }[];
  expect(tags.length).toBeLessThanOrEqual(IMPORT_LIMITS.listValues);
  expect(authors.length).toBeLessThanOrEqual(IMPORT_LIMITS.listValues);
  expect(tags.join('').length).toBeLessThanOrEqual(IMPORT_LIMITS.listChars);
  expect(authors.map((a) => a.name).join('').length).toBeLessThanOrEqual(IMPORT_LIMITS.listChars);
  expect(CONTROL.test(book.title + book.summary + book.tags + book.authors)).toBe(false);
}

describe('ComicInfo.xml beyond every limit', () => {
  it('stores a bounded, clean, valid book; the book stays READY and the cut is logged; an ordinary book is kept whole', async () => {
    const hostile = `<?xml version="1.0"?><ComicInfo>
      <Title>Huge\u0001 &#0;title${'x'.repeat(300_000)}</Title>
      <Series>S${'s'.repeat(50_000)}</Series>
      <Summary>${'Long summary. '.repeat(20_000)}</Summary>
      <Tags>${names(5000, 't')}</Tags>
      <Genre>${names(5000, 'g')}</Genre>
      <Writer>${names(800, 'w'.repeat(200))}</Writer>
      <Number>1e309</Number><Count>99999999999999999999</Count><Volume>-0</Volume>
      <Year>2020</Year><Month>2</Month><Day>31</Day>
    </ComicInfo>`;
    expect(hostile.length).toBeLessThan(1024 * 1024); // within the entry read: it is the fields that are too large
    await createCbz(join(root, 'hostile', 'hostile.cbz'), [page], { comicInfo: hostile });
    const summary = 'A real summary, several KB long. '.repeat(200);
    const tags = names(40, 'tag', 2);
    await createCbz(join(root, 'real', 'real.cbz'), [page], { comicInfo: { title: 'Real', summary, tags, year: 2021, month: 3, day: 9, count: 12 } });
    await addLibrary(server, root);

    const books = new Map((await server.json<Page<BookDto>>('/api/v1/books')).content.map((b) => [b.name, b]));
    expect(books.get('hostile')!.media.status).toBe('READY');
    for (const book of storedBooks()) expectBounded(book);
    const hostileBook = books.get('hostile')!.metadata;
    expect(hostileBook.title.startsWith('Huge title')).toBe(true);
    expect(hostileBook.releaseDate).toBeNull(); // 31 February is no date
    for (const series of storedSeries()) {
      expect(series.title.length).toBeLessThanOrEqual(IMPORT_LIMITS.textChars);
      expect((JSON.parse(series.genres) as string[]).length).toBeLessThanOrEqual(IMPORT_LIMITS.listValues);
      expect(series.total_book_count === null || series.total_book_count <= IMPORT_LIMITS.maxNumber).toBe(true);
    }
    // The ordinary book is intact.
    const real = books.get('real')!.metadata;
    expect(real).toMatchObject({ title: 'Real', summary: summary.trim(), releaseDate: '2021-03-09', tags: tags.split(',') });
    const realSeries = await server.json<SeriesDto>(`/api/v1/series/${books.get('real')!.seriesId}`);
    expect(realSeries.metadata.totalBookCount).toBe(12);
    // The log file is written asynchronously: wait for the warning's line.
    const warning = await pollUntil('the warning that the ComicInfo.xml was cut', async () => (await logText()).split('\n').find((line) => line.includes('cut to fit')));
    expect(warning).toMatch(/hostile\.cbz.*book\.title: 3000\d\d characters cut to 1024/);
  });
});

describe('a 50 MB ComicInfo.xml', () => {
  it('is skipped unread past its first MiB, saying it is too large; the book is READY', async () => {
    const huge = Buffer.from(`<ComicInfo><Title>T</Title><Summary>${'x'.repeat(50 * 1024 * 1024)}</Summary></ComicInfo>`);
    await createCbz(join(root, 'huge', 'huge.cbz'), [page], { compress: true, extraEntries: [{ name: 'ComicInfo.xml', data: huge }] });
    await addLibrary(server, root);
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    expect(book!.media.status).toBe('READY');
    // Before: its first MiB was parsed and reported as "not well-formed".
    expect(book!.media.comment).toBe('ComicInfo.xml skipped: ComicInfo.xml is larger than 1048576 bytes, more than any real one');
    expect(book!.metadata.title).toBe('huge');
  });
});

describe('a ComicInfo.xml naming hundreds of story arcs and series groups', () => {
  it('puts its book in at most groupValues read lists and its series in as many collections', async () => {
    const arcs = names(200, 'Arc ', 3);
    await createCbz(join(root, 'arcs', 'arcs.cbz'), [page], { comicInfo: { title: 'Arcs', storyArc: arcs, seriesGroup: names(200, 'Group ', 3) } });
    await addLibrary(server, root);
    const count = (table: string) => (server.app.folio.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count('readlist')).toBe(IMPORT_LIMITS.groupValues);
    expect(count('collection')).toBe(IMPORT_LIMITS.groupValues);
  });
});

describe("a series' books together", () => {
  it('keep a bounded aggregation of their distinct tags and authors', async () => {
    const books = Math.ceil(AGGREGATED_VALUES / IMPORT_LIMITS.listValues) + 2;
    for (let b = 0; b < books; b++) {
      const tags = Array.from({ length: IMPORT_LIMITS.listValues }, (_, i) => `b${b}t${i}`).join(',');
      await createCbz(join(root, 'many', `many ${b}.cbz`), [page], { comicInfo: { title: `M${b}`, tags, writer: `Writer ${b}` } });
    }
    await addLibrary(server, root);
    const [series] = (await server.json<Page<SeriesDto>>('/api/v1/series')).content;
    expect(series!.booksCount).toBe(books);
    expect(series!.booksMetadata.tags.length).toBe(AGGREGATED_VALUES);
    expect(series!.booksMetadata.authors).toHaveLength(books); // under the bound: all kept
  });
});

describe('EPUB package document beyond every limit', () => {
  it('stores a bounded, clean book from a 2 MB description, 3,000 subjects and impossible numbers', async () => {
    const metadata = `<dc:title>Big\u0002 ${'t'.repeat(100_000)}</dc:title>
      <dc:description>${'d'.repeat(2_000_000)}</dc:description>
      ${Array.from({ length: 3000 }, (_, i) => `<dc:subject>subject ${String(i).padStart(90, '0')}</dc:subject>`).join('')}
      <dc:date>2021-02-30</dc:date>
      <meta name="calibre:series" content="Night"/><meta name="calibre:series_index" content="1e300"/>`;
    await createTextEpub(join(root, 'Night', 'big.epub'), [3000], { metadata, version: '2.0' });
    await addLibrary(server, root);
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    expect(book!.media.status).toBe('READY');
    for (const stored of storedBooks()) {
      expectBounded(stored);
      expect(Math.abs(stored.number_sort)).toBeLessThanOrEqual(IMPORT_LIMITS.maxNumber);
    }
    expect(book!.metadata.title.startsWith('Big t')).toBe(true);
    expect(book!.metadata.releaseDate).toBeNull();
  });
});

describe('series.json beyond every limit', () => {
  it('stores bounded, clean series metadata', async () => {
    await createCbz(join(root, 'Saga', 'Saga 001.cbz'), [page]);
    const doc = { metadata: { name: `Saga\u0000${'n'.repeat(100_000)}`, publisher: 'p'.repeat(50_000), description_text: 'd'.repeat(800_000), total_issues: 1e300, status: 'Ended' } };
    await writeFile(join(root, 'Saga', 'series.json'), JSON.stringify(doc));
    await addLibrary(server, root);
    const [series] = (await server.json<Page<SeriesDto>>('/api/v1/series')).content;
    expect(series!.metadata.status).toBe('ENDED');
    const [stored] = storedSeries();
    expect(stored!.title.length).toBeLessThanOrEqual(IMPORT_LIMITS.textChars);
    expect(stored!.publisher.length).toBeLessThanOrEqual(IMPORT_LIMITS.textChars);
    expect(stored!.summary.length).toBeLessThanOrEqual(IMPORT_LIMITS.longTextChars);
    expect(stored!.total_book_count).toBeNull();
    expect(series!.metadata.title.startsWith('Sagan')).toBe(true);
  });
});

describe('series.json nested a million levels deep', () => {
  it('is refused as no Mylar document before JSON.parse spends a third of a second on it; the series keeps its name', async () => {
    await createCbz(join(root, 'Deep', 'Deep 001.cbz'), [page]);
    await writeFile(join(root, 'Deep', 'series.json'), `{"metadata":${'['.repeat(500_000)}${']'.repeat(500_000)}}`);
    await addLibrary(server, root);
    const [series] = (await server.json<Page<SeriesDto>>('/api/v1/series')).content;
    expect(series!.metadata.title).toBe('Deep');
    // Before, JSON.parse took 230-770 ms on the request thread and the array was read as the metadata.
    const warning = await pollUntil('the warning that series.json was not read', async () => (await logText()).split('\n').find((line) => line.includes('series.json')));
    expect(warning).toContain('is not a Mylar series document');
  });
});

describe('an EPUB table of contents of tens of thousands of links', () => {
  it(`keeps the first MAX_NAV_LINKS in the manifest, and logs the cut`, async () => {
    const chapter = '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title></head><body><p>Text</p></body></html>';
    const anchors = Array.from({ length: MAX_NAV_LINKS + 2000 }, (_, i) => `<li><a href="c.xhtml#${i}">${i}</a></li>`).join('');
    const nav = `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>n</title></head><body><nav epub:type="toc"><ol>${anchors}</ol></nav></body></html>`;
    const manifest = [
      { id: 'c', href: 'c.xhtml', mediaType: 'application/xhtml+xml' },
      { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' },
    ];
    await writeEpub(join(root, 'Toc', 'toc.epub'), [
      { name: 'OEBPS/c.xhtml', data: chapter },
      { name: 'OEBPS/nav.xhtml', data: nav },
      { name: 'OEBPS/content.opf', data: opfXml({ metadata: '<dc:title>Toc</dc:title>', manifest, spine: ['c'] }) },
    ]);
    await addLibrary(server, root);
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    const publication = await server.json<{ toc: { title?: string }[] }>(`/api/v1/books/${book!.id}/manifest/epub`);
    expect(publication.toc).toHaveLength(MAX_NAV_LINKS);
    expect(publication.toc.at(-1)!.title).toBe(String(MAX_NAV_LINKS - 1));
    // The cut is logged with the book and the document (it was silent).
    const warning = await pollUntil('the warning that the table of contents was cut', async () =>
      (await logText()).split('\n').find((line) => line.includes('EPUB navigation read with losses')),
    );
    expect(warning).toContain(book!.id);
    expect(warning).toContain(`OEBPS/nav.xhtml: the toc list has more than ${MAX_NAV_LINKS} links`);
  });
});

describe('EPUB navigation with impossible character references and links out of the book', () => {
  it('keeps every entry inside the book, with clean titles, and drops the links that leave it', async () => {
    const chapter = '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title></head><body><p>Text</p></body></html>';
    const anchors = [
      '<li><a href="ch1.xhtml#a">One &#99999999; two</a></li>', // no such character: before, the whole table of contents was lost
      '<li><a href="ch1.xhtml#b">Nul &#0; and &#x1F; gone</a></li>',
      '<li><a href="../../../../etc/passwd">Out</a></li>',
      '<li><a href="ch1.xhtml#c">Last</a></li>',
    ].join('');
    const nav = `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>n</title></head><body><nav epub:type="toc"><ol>${anchors}</ol></nav></body></html>`;
    const manifest = [
      { id: 'ch1', href: 'ch1.xhtml', mediaType: 'application/xhtml+xml' },
      { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' },
    ];
    await writeEpub(join(root, 'Nav', 'nav.epub'), [
      { name: 'OEBPS/ch1.xhtml', data: chapter },
      { name: 'OEBPS/nav.xhtml', data: nav },
      { name: 'OEBPS/content.opf', data: opfXml({ metadata: '<dc:title>Nav</dc:title>', manifest, spine: ['ch1'] }) },
    ]);
    await addLibrary(server, root);
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    const publication = await server.json<{ toc: { href: string; title?: string }[] }>(`/api/v1/books/${book!.id}/manifest/epub`);
    expect(publication.toc.map((l) => l.title)).toEqual(['One two', 'Nul and gone', 'Last']);
    expect(publication.toc.every((l) => !l.href.includes('..'))).toBe(true);
  });
});

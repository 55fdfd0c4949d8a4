import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createImageEpub, opfXml, writeEpub } from '../../fixtures/epub.ts';
import { createCbz, renderPage } from '../../fixtures/index.ts';
import { writePdf } from '../../fixtures/pdf.ts';
import { writeRar5 } from '../../fixtures/rar.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';
import { addLibrary, loggedLines, startServer, type TestServer } from './helpers.ts';

/*
 * One damaged book of each kind through the whole server: scan, analysis, metadata import, pages
 * and an EPUB's Readium routes. Each book ends ERROR with the code that says why, or READY with
 * the pages that can be read (ERR_1007 naming the others); the log names the book, its file and
 * what failed; every request is answered (an error code, never a dropped connection), and the
 * server is still up at the end. What the archive fuzz checks one reader at a time, here end to end.
 */

let server: TestServer;
const books = new Map<string, BookDto>();
const files = new Map<string, string>();
type LogLine = { level: number; msg: string; bookId?: string; file?: string; code?: string; entries?: string[]; err?: { message: string } };

// A deflate stream whose first block is "stored" with a length and its complement that disagree.
const BAD_DEFLATE = Buffer.from([0x01, 0x05, 0x00, 0x00, 0x00]);
const PAGES = [
  { width: 24, height: 36, color: [200, 40, 40] as [number, number, number], format: 'png' as const },
  { width: 24, height: 36, color: [40, 200, 40] as [number, number, number], format: 'png' as const },
];

/** Overwrites the start of a deflated zip entry's data, found through its local header. */
function damageDeflated(zip: Buffer, name: string): void {
  const header = zip.indexOf(`${name}`) - 30;
  expect(zip.toString('latin1', header + 30, header + 30 + name.length)).toBe(name);
  expect(zip.readUInt16LE(header + 8)).toBe(8);
  BAD_DEFLATE.copy(zip, header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28));
}

/** Writes a book with `write`, then damages its bytes with `damage`. */
async function damaged(name: string, write: (path: string) => Promise<unknown>, damage: (bytes: Buffer) => Buffer | void): Promise<void> {
  const path = join(server.dir, 'library', name.replace(/\..*$/, ''), name);
  await write(path);
  const bytes = await readFile(path);
  await writeFile(path, damage(bytes) ?? bytes);
  files.set(name.replace(/\..*$/, ''), path);
}

beforeAll(async () => {
  server = await startServer({ logLevel: 'warn', logStdout: false });
  const jpeg = await renderPage({ ...PAGES[0]!, format: 'jpeg' });
  const png = await renderPage(PAGES[1]!);
  // A CBZ whose second page and ComicInfo.xml are deflated and cannot be inflated.
  await damaged('comic.cbz', (path) => createCbz(path, PAGES, { comicInfo: { title: 'Damaged', series: 'Damaged' }, compress: true }), (zip) => {
    damageDeflated(zip, 'page-002.png');
    damageDeflated(zip, 'ComicInfo.xml');
  });
  // A RAR and a 7z archive whose second half is gone.
  const members = [{ name: '001.jpg', data: jpeg }, { name: '002.png', data: png }];
  await damaged('rar.cbr', (path) => writeRar5(path, members), (bytes) => bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  await damaged('sevenzip.cb7', (path) => writeSevenZip(path, members), (bytes) => bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  // A PDF whose second page's object is overwritten.
  await damaged('pdf.pdf', (path) => writePdf(path, [{ width: 200, height: 300, color: [1, 0, 0] }, { width: 300, height: 200, color: [0, 0, 1] }], { outline: ['One', 'Two'] }), (bytes) => {
    const at = bytes.indexOf('5 0 obj');
    Buffer.from('garbage garbage garbage').copy(bytes, at);
  });
  // An image EPUB whose second page document cannot be inflated.
  await damaged('images.epub', (path) => createImageEpub(path, PAGES), (zip) => damageDeflated(zip, 'OEBPS/pages/p002.xhtml'));
  // A text EPUB whose second chapter cannot be inflated (analysis reads only the first).
  await damaged('text.epub', (path) => writeTextEpub(path), (zip) => damageDeflated(zip, 'OEBPS/text/ch2.xhtml'));
  await addLibrary(server, join(server.dir, 'library'));
  for (const book of (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content) books.set(book.name, book);
}, 120_000);

afterAll(async () => {
  await server.close();
});

async function writeTextEpub(path: string): Promise<void> {
  const chapter = (n: number) => `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${n}</title></head><body>${'<p>Rain fell in torrents. </p>'.repeat(60)}</body></html>\n`;
  const manifest = [1, 2, 3].map((n) => ({ id: `ch${n}`, href: `text/ch${n}.xhtml`, mediaType: 'application/xhtml+xml' }));
  await writeEpub(path, [
    { name: 'OEBPS/content.opf', data: opfXml({ metadata: '    <dc:title>Text</dc:title>', manifest, spine: ['ch1', 'ch2', 'ch3'] }) },
    ...[1, 2, 3].map((n) => ({ name: `OEBPS/text/ch${n}.xhtml`, data: chapter(n) })),
  ]);
}

async function log(): Promise<LogLine[]> {
  return (await loggedLines(server))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine);
}

/** The log's warnings and errors about a book. */
async function logged(name: string): Promise<LogLine[]> {
  return (await log()).filter((line) => line.bookId === books.get(name)!.id && line.level >= 40);
}

/** Each page's status code, in order. */
async function pageAnswers(name: string): Promise<number[]> {
  const book = books.get(name)!;
  const answers: number[] = [];
  for (let n = 1; n <= book.media.pagesCount; n++) answers.push((await server.get(`/api/v1/books/${book.id}/pages/${n}`)).statusCode);
  return answers;
}

const resource = (name: string, path: string) => server.get(`/api/v1/books/${books.get(name)!.id}/resource/${path}`);

it('a CBZ with a damaged page and ComicInfo.xml is READY with its good page, ERR_1007 naming both', async () => {
  expect(books.get('comic')!.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
  expect(await logged('comic')).toContainEqual(expect.objectContaining({ code: 'ERR_1007', file: files.get('comic'), entries: ['ComicInfo.xml', 'page-002.png'] }));
  expect(await pageAnswers('comic')).toEqual([200, 422]);
  const page = await server.get(`/api/v1/books/${books.get('comic')!.id}/pages/2`);
  expect(page.json()).toMatchObject({ status: 422, message: expect.stringContaining('ERR_1007') });
});

it('RAR and 7z archives cut short are ERROR ERR_1008, the log saying why', async () => {
  for (const [name, says] of [['rar', 'RAR'], ['sevenzip', '7-Zip']] as const) {
    expect(books.get(name)!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1008', pagesCount: 0 });
    expect(await logged(name)).toContainEqual(
      expect.objectContaining({ code: 'ERR_1008', file: files.get(name), msg: 'book analysis failed', err: expect.objectContaining({ message: expect.stringContaining(says) }) }),
    );
  }
});

it('a PDF with a damaged page object is READY: mupdf repairs it and both pages are drawn', async () => {
  expect(books.get('pdf')!.media).toMatchObject({ status: 'READY', pagesCount: 2 });
  expect(await pageAnswers('pdf')).toEqual([200, 200]);
});

it('an image EPUB with a damaged page document is READY as text (ERR_1007 naming it); the EPUB reader gets every other page', async () => {
  expect(books.get('images')!.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', epubDivinaCompatible: false, mediaProfile: 'EPUB' });
  expect(await logged('images')).toContainEqual(expect.objectContaining({ code: 'ERR_1007', file: files.get('images'), entries: ['OEBPS/pages/p002.xhtml'] }));
  expect((await server.get(`/api/v1/books/${books.get('images')!.id}/manifest`)).statusCode).toBe(200);
  expect((await resource('images', 'OEBPS/pages/p001.xhtml')).statusCode).toBe(200);
  expect((await resource('images', 'OEBPS/images/p002.png')).statusCode).toBe(200);
  const broken = await resource('images', 'OEBPS/pages/p002.xhtml');
  expect(broken.statusCode).toBe(422);
  expect(broken.json()).toMatchObject({ message: expect.stringContaining('ERR_1007') });
});

it('a text EPUB with a damaged chapter is READY; that chapter is a 422, the rest of the Readium routes answer', async () => {
  const book = books.get('text')!;
  expect(book.media).toMatchObject({ status: 'READY', mediaProfile: 'EPUB' });
  for (const route of ['manifest', 'positions']) expect((await server.get(`/api/v1/books/${book.id}/${route}`)).statusCode, route).toBe(200);
  expect((await resource('text', 'OEBPS/text/ch1.xhtml')).statusCode).toBe(200);
  const broken = await resource('text', 'OEBPS/text/ch2.xhtml');
  expect(broken.statusCode).toBe(422);
  expect(broken.json()).toMatchObject({ message: expect.stringMatching(/ERR_1007.*OEBPS\/text\/ch2\.xhtml/) });
});

it('is still up after all of it', async () => {
  expect((await server.get('/actuator/health')).statusCode).toBe(200);
});

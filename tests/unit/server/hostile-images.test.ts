import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { renderPage } from '../../fixtures/index.ts';
import { jpegBomb, oddImages, pngBomb, webpBomb } from '../../fixtures/odd-images.ts';
import { oddZip } from '../../fixtures/odd-zip.ts';
import { opfXml, writeEpub } from '../../fixtures/epub.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Odd and hostile page images, scanned and served by the real server. Headers that claim 60,000 ×
 * 60,000 pixels are bad pages (ERR_1007): never decoded, their slots kept, the book's good pages
 * served. Unusual but valid images are pages like any other: their stored size reported, served
 * as stored, converted and made into thumbnails.
 */

let server: TestServer;
const books = new Map<string, BookDto>();
let images: Awaited<ReturnType<typeof oddImages>>;
let good: Buffer;

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library', 'Images');
  await mkdir(root, { recursive: true });
  images = await oddImages();
  good = await renderPage({ width: 40, height: 60, color: [200, 30, 30], format: 'png' });
  await writeFile(
    join(root, 'bombs.cbz'),
    oddZip([
      { name: '1.png', data: pngBomb() },
      { name: '2.jpg', data: await jpegBomb() },
      { name: '3.webp', data: webpBomb() },
      { name: '4.png', data: good },
    ]),
  );
  // Cut short before the header gives the size: a JPEG ending inside its APP0 segment, a PNG of its
  // signature alone, a GIF of its version alone. Copies interrupted, or scrapes saved part way.
  const cut = [(await renderPage({ width: 40, height: 60, color: [1, 2, 3], format: 'jpeg' })).subarray(0, 12), good.subarray(0, 8), Buffer.from('GIF89a')];
  await writeFile(join(root, 'cut.cbz'), oddZip([{ name: '1.jpg', data: cut[0]! }, { name: '2.png', data: cut[1]! }, { name: '3.gif', data: cut[2]! }, { name: '4.png', data: good }]));
  // The same pages as an image-only EPUB (one image per spine document), with a pixel bomb too.
  const epubPages = [{ name: 'bomb.png', data: pngBomb() }, { name: 'cut.png', data: cut[1]! }, { name: 'good.png', data: good }];
  await writeEpub(join(root, 'cut pages.epub'), [
    ...epubPages.flatMap((page, i) => [
      { name: `OEBPS/${page.name}`, data: page.data },
      { name: `OEBPS/p${i}.xhtml`, data: `<html xmlns="http://www.w3.org/1999/xhtml"><body><img src="${page.name}"/></body></html>` },
    ]),
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '<dc:title>Cut</dc:title>',
        manifest: epubPages.flatMap((page, i) => [
          { id: `i${i}`, href: page.name, mediaType: 'image/png' },
          { id: `p${i}`, href: `p${i}.xhtml`, mediaType: 'application/xhtml+xml' },
        ]),
        spine: epubPages.map((_, i) => `p${i}`),
      }),
    },
  ]);
  // Beside the pages, a scan group's note whose text happens to start with "BM", as bitmaps do.
  const credits = { name: 'credits.txt', data: Buffer.from('BMX Bandits scans: thanks for reading! Find us at example.org.\n') };
  await writeFile(join(root, 'odd.cbz'), oddZip([...Object.values(images).map((image) => ({ name: image.name, data: image.bytes })), credits]));
  await addLibrary(server, join(server.dir, 'library'));
  for (const book of (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content) books.set(book.name, book);
});
afterAll(async () => {
  await server.close();
});

describe('page images that claim 60,000 × 60,000 pixels', () => {
  it('are bad pages of a readable book: ERR_1007, no dimensions, never decoded', async () => {
    const book = books.get('bombs')!;
    expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 4 });
    const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
    expect(pages.map((p) => [p.fileName, p.width ?? null, p.height ?? null])).toEqual([
      ['1.png', null, null],
      ['2.jpg', null, null],
      ['3.webp', null, null],
      ['4.png', 40, 60],
    ]);
    for (const number of [1, 2, 3]) expect((await server.get(`/api/v1/books/${book.id}/pages/${number}/thumbnail`)).statusCode).toBe(422);
    // Asked as PNG: the PNG goes out as stored (no conversion, no decoding), the others cannot be converted.
    const converted = [];
    for (const number of [1, 2, 3]) converted.push((await server.get(`/api/v1/books/${book.id}/pages/${number}?convert=png`)).statusCode);
    expect(converted).toEqual([200, 422, 422]);
    const last = await server.get(`/api/v1/books/${book.id}/pages/4`);
    expect(last.statusCode).toBe(200);
    expect(last.rawPayload.equals(good)).toBe(true);
  });
});

describe('page images that end before their header gives their size', () => {
  it('are bad pages (ERR_1007) as lying headers are, in a comic archive and in an image EPUB, and the good page reads', async () => {
    const cbz = books.get('cut')!;
    expect(cbz.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 4 });
    const cbzPages = await server.json<PageDto[]>(`/api/v1/books/${cbz.id}/pages`);
    expect(cbzPages.map((p) => [p.fileName, p.width ?? null, p.height ?? null])).toEqual([
      ['1.jpg', null, null],
      ['2.png', null, null],
      ['3.gif', null, null],
      ['4.png', 40, 60],
    ]);
    const epub = books.get('cut pages')!;
    expect(epub.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 3, epubDivinaCompatible: true });
    const epubPages = await server.json<PageDto[]>(`/api/v1/books/${epub.id}/pages`);
    expect(epubPages.map((p) => [p.fileName, p.width ?? null, p.height ?? null])).toEqual([
      ['OEBPS/bomb.png', null, null],
      ['OEBPS/cut.png', null, null],
      ['OEBPS/good.png', 40, 60],
    ]);
    const last = await server.get(`/api/v1/books/${epub.id}/pages/3`);
    expect(last.statusCode).toBe(200);
    expect(last.rawPayload.equals(good)).toBe(true);
  });
});

describe('unusual but valid page images', () => {
  it('are pages with their size (as shown) and type, served, converted and made into thumbnails; other files are not pages', async () => {
    const book = books.get('odd')!;
    expect(book.media).toMatchObject({ status: 'READY', comment: '', pagesCount: Object.keys(images).length });
    const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
    for (const image of Object.values(images)) {
      const page = pages.find((p) => p.fileName === image.name)!;
      expect([page.mediaType, page.width, page.height], image.name).toEqual([image.mediaType, image.width, image.height]);
      const raw = await server.get(`/api/v1/books/${book.id}/pages/${page.number}`);
      expect(raw.statusCode, image.name).toBe(200);
      expect(raw.rawPayload.equals(image.bytes), image.name).toBe(true);
      const png = await server.get(`/api/v1/books/${book.id}/pages/${page.number}?convert=png`);
      expect(png.statusCode, image.name).toBe(200);
      expect((await sharp(png.rawPayload).metadata()).format, image.name).toBe('png');
      expect((await server.get(`/api/v1/books/${book.id}/pages/${page.number}/thumbnail`)).statusCode, image.name).toBe(200);
    }
    expect((await server.get(`/api/v1/books/${book.id}/thumbnail`)).statusCode).toBe(200);
  });
});

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { oddZip } from '../../fixtures/odd-zip.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Photos stored sideways with an EXIF orientation, as phones write them: a page stored 160 × 80
 * with orientation 6 or 8 is shown 80 × 160 by every browser (createImageBitmap and ImageDecoder
 * turn it). The page list reports that shown size, and every image the server draws from the page
 * (conversion, thumbnail, book poster) is turned the same way, so readers lay the page out in a box
 * of its real shape. Real server, real SQLite, a CBZ written here.
 */

let server: TestServer;
let book: BookDto;

/** A stored `width` × `height` JPEG carrying EXIF `orientation`. */
const stored = (width: number, height: number, orientation: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withMetadata({ orientation })
    .toBuffer();

const size = async (bytes: Buffer) => {
  const { width, height, orientation } = await sharp(bytes).metadata();
  return { width, height, orientation: orientation ?? 1 };
};

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library', 'Photos');
  await mkdir(root, { recursive: true });
  const entries = [
    { name: '1.jpg', data: await stored(160, 80, 6) },
    { name: '2.jpg', data: await stored(160, 80, 8) },
    { name: '3.jpg', data: await stored(160, 80, 3) },
    { name: '4.jpg', data: await stored(160, 80, 1) },
  ];
  await writeFile(join(root, 'turned.cbz'), oddZip(entries));
  await addLibrary(server, join(server.dir, 'library'));
  [book] = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content as [BookDto];
});
afterAll(async () => {
  await server.close();
});

describe('a JPEG page turned a quarter by its EXIF orientation', () => {
  it('is listed with its size as shown: width and height swapped for orientations 6 and 8 only', async () => {
    const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
    expect(pages.map((p) => [p.number, p.width, p.height])).toEqual([
      [1, 80, 160],
      [2, 80, 160],
      [3, 160, 80],
      [4, 160, 80],
    ]);
  });

  it('is converted upright, at the listed size, with no orientation left for the browser to apply again', async () => {
    for (const number of [1, 2]) {
      const png = await server.get(`/api/v1/books/${book.id}/pages/${number}?convert=png`);
      expect(png.statusCode).toBe(200);
      expect(await size(png.rawPayload), `page ${number}`).toEqual({ width: 80, height: 160, orientation: 1 });
    }
  });

  it('has a page thumbnail and a book poster drawn upright', async () => {
    const thumbnail = await server.get(`/api/v1/books/${book.id}/pages/1/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    const drawn = await size(thumbnail.rawPayload);
    expect(drawn.height).toBeGreaterThan(drawn.width);
    const poster = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(poster.statusCode).toBe(200);
    const posterSize = await size(poster.rawPayload);
    expect(posterSize.height).toBeGreaterThan(posterSize.width);
  });
});

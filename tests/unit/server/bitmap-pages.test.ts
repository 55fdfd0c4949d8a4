import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { type BitmapKind, type Rgb, storedColour, writeBitmap } from '../../fixtures/bitmaps.ts';
import { writeStoredCbz } from '../../fixtures/comics.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Pages that are Windows bitmaps (BMP), which sharp's libvips cannot read, were served as stored
 * but their thumbnails, the book's poster and `?convert` answered 422; Komga draws them. They are
 * now decoded by server/media/bmp-decode.ts and drawn like any page, in every layout writers use.
 */

const KINDS: BitmapKind[] = ['24-bit', '24-bit top-down', '32-bit', '16-bit 565', '8-bit grey', '4-bit palette', '1-bit', 'OS/2 8-bit palette'];
// An odd width, so that rows are padded; four quadrants of distinct colours, so that flips and
// swapped channels show.
const WIDTH = 37;
const HEIGHT = 23;
const QUADRANTS: Rgb[] = [[200, 30, 30], [30, 200, 30], [30, 30, 200], [240, 200, 40]];
const colourAt = (x: number, y: number): Rgb => QUADRANTS[(y < HEIGHT / 2 ? 0 : 2) + (x < WIDTH / 2 ? 0 : 1)]!;

let server: TestServer;
let book: BookDto;

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  await writeStoredCbz(join(root, 'Bitmaps', 'bitmaps.cbz'), KINDS.map((kind) => writeBitmap(kind, WIDTH, HEIGHT, colourAt)));
  await addLibrary(server, root);
  book = (await server.json<Page<BookDto>>('/api/v1/books')).content[0]!;
});
afterAll(async () => {
  await server.close();
});

describe('pages that are bitmaps (BMP)', () => {
  it('are converted to PNG pixel for pixel, whatever their layout', async () => {
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: KINDS.length });
    const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
    for (const [i, kind] of KINDS.entries()) {
      expect([pages[i]!.mediaType, pages[i]!.width, pages[i]!.height], kind).toEqual(['image/bmp', WIDTH, HEIGHT]);
      const png = await server.get(`/api/v1/books/${book.id}/pages/${i + 1}?convert=png`);
      expect(png.statusCode, `${kind}: ${png.body.slice(0, 200)}`).toBe(200);
      const { data, info } = await sharp(png.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height], kind).toEqual([WIDTH, HEIGHT]);
      const at = (x: number, y: number) => [...data.subarray((y * WIDTH + x) * info.channels, (y * WIDTH + x) * info.channels + 3)];
      const corners = [at(0, 0), at(WIDTH - 1, 0), at(0, HEIGHT - 1), at(WIDTH - 1, HEIGHT - 1)];
      const expected = QUADRANTS.map((colour) => storedColour(kind, colour)).map((colour) => (info.channels < 3 ? colour.slice(0, 1) : colour));
      expect(corners.map((c) => (info.channels < 3 ? c.slice(0, 1) : c)), kind).toEqual(expected);
    }
  });

  it('are converted to JPEG, and drawn as page thumbnails and as the book poster', async () => {
    const jpeg = await server.get(`/api/v1/books/${book.id}/pages/1?convert=jpeg`);
    expect(jpeg.statusCode).toBe(200);
    expect(await sharp(jpeg.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: WIDTH, height: HEIGHT });
    for (const number of [1, 5, 8]) {
      const thumbnail = await server.get(`/api/v1/books/${book.id}/pages/${number}/thumbnail`);
      expect(thumbnail.statusCode, `page ${number}`).toBe(200);
      expect((await sharp(thumbnail.rawPayload).metadata()).format).toBe('jpeg');
    }
    const poster = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(poster.statusCode).toBe(200);
    // Drawn from the first page: its top-left quadrant is red.
    const { data } = await sharp(poster.rawPayload).extract({ left: 0, top: 0, width: 4, height: 4 }).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(150);
    expect(data[2]).toBeLessThan(80);
  });
});

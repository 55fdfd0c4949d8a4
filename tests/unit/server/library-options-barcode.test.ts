import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, LibraryDto, Page, PageDto } from '../../../src/api/types.ts';
import sharp from 'sharp';
import { barcodePageNumbers } from '../../../server/domain/metadata/barcode-isbn.ts';
import { barcodeRegions, decodeGrey, detectionSide, findIsbnInImage } from '../../../server/media/barcode-scan.ts';
import { BLUE, GREEN, RED, YELLOW, createCbz } from '../../fixtures/index.ts';
import { barcodePage, ean13CheckDigit, ean13Modules, ean13Svg } from '../../fixtures/ean13.ts';
import { startServer, type TestServer } from './helpers.ts';
import { openByContent } from '../../../server/media/analyse-container.ts';
import { PagesWithoutBars } from '../../../server/domain/metadata/pages-without-bars.ts';
import type { Book } from '../../../server/db/book-repository.ts';

const ISBN_BACK = '9781402894626';
const ISBN_FRONT = '9791034756124';
const NOT_A_BOOK = '4006381333931'; // a valid EAN-13 outside the 978/979 "Bookland" range

const plainPages = [RED, GREEN, BLUE, YELLOW].map((color) => ({ width: 40, height: 60, color, format: 'png' as const }));

let server: TestServer;
let root: string;
beforeEach(async () => {
  server = await startServer();
  root = join(server.dir, 'library');
  await writeBooks(root);
});
async function writeBooks(root: string): Promise<void> {
  // Barcode on the back cover (last page), after four plain pages.
  await createCbz(join(root, 'A', 'Back.cbz'), plainPages, { extraEntries: [{ name: 'zz-back.jpg', data: await barcodePage(ISBN_BACK) }] });
  // Barcode on the first page, followed by four plain pages (beyond the last two searched).
  await createCbz(join(root, 'A', 'Front.cbz'), plainPages, { extraEntries: [{ name: 'aa-front.jpg', data: await barcodePage(ISBN_FRONT) }] });
  // A product EAN-13 that is not an ISBN, on the last page.
  await createCbz(join(root, 'A', 'Product.cbz'), plainPages, { extraEntries: [{ name: 'zz-back.jpg', data: await barcodePage(NOT_A_BOOK) }] });
  await createCbz(join(root, 'A', 'Plain.cbz'), plainPages);
}
afterEach(async () => server.close());

const send = (method: 'PATCH' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: server.admin, ...(payload ? { payload } : {}) });
const isbns = async () =>
  Object.fromEntries((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b.metadata.isbn]));
async function createLibrary(options: Record<string, unknown>): Promise<LibraryDto> {
  const response = await send('POST', '/api/v1/libraries', { name: 'Comics', root, ...options });
  expect(response.statusCode).toBe(200);
  await server.app.folio.tasks.idle();
  return response.json<LibraryDto>();
}

describe('EAN-13 fixture', () => {
  it('draws 95 modules with the right guards, and ZXing reads it back', async () => {
    expect(ean13CheckDigit('978140289462')).toBe(6);
    const modules = ean13Modules(ISBN_BACK);
    expect(modules).toHaveLength(95);
    expect([modules.slice(0, 3), modules.slice(45, 50), modules.slice(92)]).toEqual(['101', '01010', '101']);
    expect(await findIsbnInImage(await barcodePage(ISBN_BACK))).toBe(ISBN_BACK);
    expect(await findIsbnInImage(await barcodePage(NOT_A_BOOK))).toBeNull();
  });
});

describe('barcode search cost', () => {
  it('searches only the covers: the last two pages and the first', () => {
    expect(barcodePageNumbers(12)).toEqual([12, 11, 1]);
    expect(barcodePageNumbers(2)).toEqual([2, 1]);
    expect(barcodePageNumbers(1)).toEqual([1]);
  });

  it('reads a cover-sized barcode on a 24 MP scan from the small decode', async () => {
    // A 4000×6000 back cover whose barcode spans a quarter of its width (10 px per module), as printed.
    const barcode = await sharp(Buffer.from(ean13Svg(ISBN_BACK, 10, 400))).png().toBuffer();
    const { width = 0, height = 0 } = await sharp(barcode).metadata();
    const page = await sharp({ create: { width: 4000, height: 6000, channels: 3, background: { r: 235, g: 230, b: 220 } } })
      .composite([{ input: barcode, left: 4000 - width - 200, top: 6000 - height - 200 }])
      .jpeg({ quality: 85 })
      .toBuffer();
    expect(await findIsbnInImage(page)).toBe(ISBN_BACK);
  });
});

/** A back cover of `width`×`height` with the barcode drawn `moduleWidth` px per module in its lower right, upright or turned. */
async function backCover(width: number, height: number, moduleWidth: number, turned = false): Promise<Buffer> {
  let barcode = await sharp(Buffer.from(ean13Svg(ISBN_BACK, moduleWidth, moduleWidth * 40))).png().toBuffer();
  if (turned) barcode = await sharp(barcode).rotate(90).png().toBuffer();
  const { width: bw = 0, height: bh = 0 } = await sharp(barcode).metadata();
  return sharp({ create: { width, height, channels: 3, background: { r: 235, g: 230, b: 220 } } })
    .composite([{ input: barcode, left: width - bw - 60, top: height - bh - 60 }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * A scanned back cover of a comic 168 mm wide: art all over (noise), the EAN-13 label printed at
 * `magnification` of GS1's nominal 0.33 mm module and 50 modules tall near the lower left, the
 * whole softened like a scan (Gaussian blur, σ 0.8 px) and saved as JPEG.
 */
async function scannedBackCover(width: number, height: number, magnification: number, turned = false): Promise<Buffer> {
  const moduleWidth = (0.33 * magnification * width) / 168;
  let label = await sharp(Buffer.from(ean13Svg(ISBN_BACK, moduleWidth, Math.round(moduleWidth * 50)))).png().toBuffer();
  if (turned) label = await sharp(label).rotate(90).png().toBuffer();
  const { height: labelHeight = 0 } = await sharp(label).metadata();
  const art = await noisePage(width, height);
  const page = await sharp(art)
    .composite([{ input: label, left: Math.round(width * 0.08), top: height - labelHeight - Math.round(height * 0.05) }])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(page.data, { raw: page.info }).blur(0.8).jpeg({ quality: 85 }).toBuffer();
}

/** Pages without a barcode: photo-like noise, and lines of "text" (small dark blocks on white). */
async function noisePage(width: number, height: number): Promise<Buffer> {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 255;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = random();
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}
async function textPage(width: number, height: number): Promise<Buffer> {
  const glyphs: string[] = [];
  for (let y = 60; y < height - 60; y += 28) {
    for (let x = 60; x < width - 60; x += 14) if ((x * 31 + y * 17) % 5 !== 0) glyphs.push(`<rect x="${x}" y="${y}" width="9" height="14"/>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g fill="#222">${glyphs.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

describe('barcode search: where ZXing looks', () => {
  it('finds no barcode-like region on pages without a barcode, so ZXing never runs on them', async () => {
    for (const page of [await noisePage(1200, 1800), await textPage(1200, 1800), await sharp({ create: { width: 1200, height: 1800, channels: 3, background: '#c04020' } }).jpeg().toBuffer()]) {
      expect(barcodeRegions(await decodeGrey(page, 800))).toEqual([]);
      expect(await findIsbnInImage(page)).toBeNull();
    }
  });

  it('finds the one region of an upright or turned barcode, on a small decode of the page', async () => {
    const upright = barcodeRegions(await decodeGrey(await backCover(1200, 1800, 3), 800));
    expect(upright).toHaveLength(1);
    // 800 px tall decode of a 1800 px page: the barcode (113 modules × 3 px, quiet zones included) sits in the lower right.
    expect(upright[0]).toMatchObject({ across: 'x' });
    expect(upright[0]!.left).toBeGreaterThan(300);
    expect(upright[0]!.top).toBeGreaterThan(600);
    const turned = barcodeRegions(await decodeGrey(await backCover(1200, 1800, 3, true), 800));
    expect(turned).toHaveLength(1);
    expect(turned[0]).toMatchObject({ across: 'y' });
  });

  it('reads the barcode of a back cover scanned larger than the detection decode, upright or turned', async () => {
    expect(await findIsbnInImage(await backCover(1988, 3056, 3))).toBe(ISBN_BACK);
    expect(await findIsbnInImage(await backCover(1200, 1800, 3, true))).toBe(ISBN_BACK);
  });

  it('looks for bars on a fifth of a page of 1,800 px or more (a quarter-scale JPEG decode), on 360–800 px of others', () => {
    // sharp asks libjpeg for a quarter-scale decode only when it shrinks by 5 or more.
    expect(detectionSide(1200, 1800)).toBe(360);
    expect(detectionSide(2100, 1400)).toBe(420);
    expect(detectionSide(1988, 3056)).toBe(611);
    expect(detectionSide(4000, 6000)).toBe(800);
    expect(detectionSide(800, 1200)).toBe(360);
    expect(detectionSide(300, 400)).toBe(360);
  });

  it('reads an EAN-13 printed at the nominal and the smallest GS1 size on scanned back covers, upright or turned', async () => {
    // 100 % on a 1,200 px scan of a comic's 168 mm width is 2.4 px per module, 80 % on a 1,988 px one 3.1 px.
    expect(await findIsbnInImage(await scannedBackCover(1200, 1800, 1))).toBe(ISBN_BACK);
    expect(await findIsbnInImage(await scannedBackCover(1200, 1800, 1, true))).toBe(ISBN_BACK);
    expect(await findIsbnInImage(await scannedBackCover(1988, 3056, 0.8))).toBe(ISBN_BACK);
    expect(await findIsbnInImage(await scannedBackCover(1400, 2100, 0.8, true))).toBe(ISBN_BACK);
  });

  it('still reads a barcode 16 % of a 1,200 px page wide (2 px modules) from that fifth, upright or turned', async () => {
    expect(await findIsbnInImage(await backCover(1200, 1800, 2))).toBe(ISBN_BACK);
    expect(await findIsbnInImage(await backCover(1200, 1800, 2, true))).toBe(ISBN_BACK);
    expect(await findIsbnInImage(await backCover(1400, 2100, 2, true))).toBe(ISBN_BACK);
  });
});

describe('importBarcodeIsbn', () => {
  it('sets the ISBN from a barcode on the last or first page (option on by default)', async () => {
    await createLibrary({});
    expect(await isbns()).toEqual({ Back: ISBN_BACK, Front: ISBN_FRONT, Product: '', Plain: '' });
  });

  it('never decodes the pages of a book whose ISBN is already known', async () => {
    // ComicInfo gives the ISBN during analysis; the back cover carries another one.
    await createCbz(join(root, 'B', 'Known.cbz'), plainPages, {
      comicInfo: `<?xml version="1.0"?><ComicInfo><GTIN>${ISBN_FRONT}</GTIN></ComicInfo>`,
      extraEntries: [{ name: 'zz-back.jpg', data: await barcodePage(ISBN_BACK) }],
    });
    await createLibrary({});
    expect((await isbns()).Known).toBe(ISBN_FRONT);
    // One barcode search per book without an ISBN (Back, Front, Product, Plain), none for Known.
    const metric = await server.json<{ measurements: { statistic: string; value: number }[] }>('/actuator/metrics/komga.tasks.execution?tag=type:RefreshBookMetadata');
    expect(metric.measurements.find((m) => m.statistic === 'COUNT')?.value).toBe(4);
  });

  it('does nothing when off, and leaves a locked ISBN alone on refresh', async () => {
    const library = await createLibrary({ importBarcodeIsbn: false });
    expect(await isbns()).toEqual({ Back: '', Front: '', Product: '', Plain: '' });
    const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    const front = books.find((b) => b.name === 'Front')!;
    expect((await send('PATCH', `/api/v1/books/${front.id}/metadata`, { isbnLock: true })).statusCode).toBe(204);
    expect((await send('PATCH', `/api/v1/libraries/${library.id}`, { importBarcodeIsbn: true })).statusCode).toBe(204);
    expect((await send('POST', `/api/v1/libraries/${library.id}/metadata/refresh`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect(await isbns()).toEqual({ Back: ISBN_BACK, Front: '', Product: '', Plain: '' });
  });
});

describe('one decode of page 1 for the poster and the barcode search', () => {
  it('draws the poster and looks for bars from the same read of page 1; a page 1 with bars is still searched', async () => {
    await server.close();
    // The real archives, with the whole-entry reads (what posters and the barcode search decode) counted.
    const wholeReads: string[] = [];
    server = await startServer({
      archivePool: {
        open: async (path) => {
          const handle = await openByContent(path);
          const readWhole = handle.book.readWhole?.bind(handle.book);
          if (readWhole) {
            handle.book.readWhole = (name, target) => {
              wholeReads.push(`${path.split('/').pop()}:${name}`);
              return readWhole(name, target);
            };
          }
          return handle;
        },
      },
    });
    root = join(server.dir, 'library');
    await writeBooks(root);
    await createLibrary({});
    // Front.cbz's page 1 carries a barcode: the poster's look finds bars, the search reads it again and finds the ISBN.
    expect(await isbns()).toEqual({ Back: ISBN_BACK, Front: ISBN_FRONT, Product: '', Plain: '' });
    const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    const plain = books.find((b) => b.name === 'Plain')!;
    expect((await server.json<{ posters: number }[]>(`/api/v1/books/${plain.id}/thumbnails`)).length).toBe(1);
    const firstPage = (await server.json<PageDto[]>(`/api/v1/books/${plain.id}/pages`))[0]!.fileName;
    // Plain's page 1 has no bars: read once, for the poster; the search read only the last two pages.
    expect(wholeReads.filter((read) => read === `Plain.cbz:${firstPage}`)).toHaveLength(1);
    expect(wholeReads.filter((read) => read.startsWith('Plain.cbz:'))).toHaveLength(3);
    const front = (await server.json<PageDto[]>(`/api/v1/books/${books.find((b) => b.name === 'Front')!.id}/pages`))[0]!.fileName;
    expect(wholeReads.filter((read) => read === `Front.cbz:${front}`)).toHaveLength(2);
  });

  it('remembers a page without bars for one search of the same file content', () => {
    const pages = new PagesWithoutBars();
    const book = { id: 'b1', fileLastModified: 1000, fileSize: 5000 } as Book;
    pages.remember(book, 1);
    expect(pages.take({ ...book, fileLastModified: 2000 }, 1)).toBe(false);
    expect(pages.take(book, 2)).toBe(false);
    expect(pages.take(book, 1)).toBe(true);
    expect(pages.take(book, 1)).toBe(false);
  });
});

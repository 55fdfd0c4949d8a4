import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { decodeImage, decoder } from '../../media/image-decode.ts';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { FolioContext } from '../context.ts';
import { openBookPage } from '../pages/page-content.ts';

/**
 * Barcodes are printed on covers: the back cover (the last page, or the one before a scanner's credit
 * page) and, on newsstand comics, the front one. Only those are searched.
 */
const LAST_PAGES = 2;
/**
 * Pages are decoded for the search at most this large (longest side). A cover barcode spans about a
 * quarter of the page's width, so at 1,500 px its 95 modules keep 2.5+ pixels each, which ZXing
 * reads; and a 4000×6000 JPEG then decodes at a quarter of its scale (libvips shrink-on-load), in a
 * tenth of the time and memory of a 3,000 px decode, with ZXing itself ten times faster too.
 */
const MAX_SIDE = 1500;
const MAX_PAGE_BYTES = 64 * 1024 * 1024;

let ready: Promise<unknown> | undefined;

/**
 * The ZXing reader, compiled to WebAssembly, loaded once from the package's own .wasm file (the
 * package would otherwise fetch it from a CDN, and the server must work offline).
 */
function zxing(): Promise<unknown> {
  ready ??= (async () => {
    const wasmPath = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bytes = await readFile(wasmPath);
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  ready.catch(() => (ready = undefined));
  return ready;
}

/** A valid ISBN-13 (978/979 "Bookland" prefix, EAN check digit), or null. */
export function isbnFromEan(text: string): string | null {
  if (!/^97[89]\d{10}$/.test(text)) return null;
  const sum = [...text].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return sum % 10 === 0 ? text : null;
}

/** The first ISBN found among the EAN-13 barcodes of an image, or null. */
export async function findIsbnInImage(image: Buffer): Promise<string | null> {
  await zxing();
  const { data, info } = await decodeImage(() =>
    decoder(image)
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const pixels = { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, colorSpace: 'srgb' } as ImageData;
  const results = await readBarcodes(pixels, { formats: ['EAN13'], tryHarder: true, tryRotate: true, maxNumberOfSymbols: 4 });
  for (const result of results) {
    const isbn = result.isValid ? isbnFromEan(result.text) : null;
    if (isbn) return isbn;
  }
  return null;
}

/** Last pages first, then the first page (each once). */
export function barcodePageNumbers(pageCount: number): number[] {
  const numbers: number[] = [];
  for (let n = pageCount; n > Math.max(0, pageCount - LAST_PAGES); n--) numbers.push(n);
  if (pageCount > 0 && !numbers.includes(1)) numbers.push(1);
  return numbers;
}

async function pageImage(ctx: FolioContext, bookId: string, number: number): Promise<Buffer | null> {
  const content = await openBookPage(ctx, bookId, number);
  if (!content) return null;
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of content.stream) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length > MAX_PAGE_BYTES) {
      content.stream.destroy();
      return null;
    }
  }
  return Buffer.concat(chunks, length);
}

/**
 * Library option importBarcodeIsbn: an EAN-13 barcode carrying an ISBN on one of the last pages
 * (or the first) becomes the book's ISBN, unless the ISBN is locked or already known (another
 * source filled it, or a previous scan did). Returns the ISBN set, or null.
 */
export async function importBarcodeIsbn(ctx: FolioContext, bookId: string): Promise<string | null> {
  const book = ctx.repos.books.findById(bookId);
  const library = book && ctx.repos.libraries.findById(book.libraryId);
  const media = ctx.repos.media.findByBookId(bookId);
  const meta = ctx.repos.bookMetadata.findByBookId(bookId);
  if (!book || !library?.importBarcodeIsbn || !meta || meta.isbnLock || meta.isbn !== '') return null;
  if (media?.status !== 'READY') return null;
  // Page images only: a text EPUB has a page count but no pages to look at.
  const pageCount = ctx.repos.media.findPages(bookId).length;
  for (const number of barcodePageNumbers(pageCount)) {
    let isbn: string | null = null;
    try {
      const image = await pageImage(ctx, bookId, number);
      if (image) isbn = await findIsbnInImage(image);
    } catch (error) {
      ctx.log(`barcode search failed on page ${number} of ${book.url}`, error);
    }
    if (!isbn) continue;
    const current = ctx.repos.bookMetadata.findByBookId(bookId);
    if (!current || current.isbnLock || current.isbn !== '') return null;
    ctx.repos.bookMetadata.update({ ...current, isbn, lastModified: Date.now() });
    return isbn;
  }
  return null;
}

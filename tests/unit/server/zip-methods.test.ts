import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { type OddZipEntry, oddZip } from '../../fixtures/odd-zip.ts';
import { type MethodPayload, sevenZipPayload, shrinkLiterals } from '../../fixtures/zip-methods.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * CBZs whose entries use the compression methods other than Stored and Deflate that Komga reads
 * (Apache commons-compress: Shrink, Deflate64, BZIP2; Implode has no writer at hand) and the two
 * more 7-Zip writes into zips (LZMA, PPMd), scanned by the real server: READY, every page's exact
 * bytes served, a thumbnail made. Methods not read (XZ) say so per entry. Hostile entries (a size
 * that lies, a bomb, truncated data, a wrong CRC, a greedy LZMA dictionary) end as an unreadable
 * entry with its code, the page refused with a message, the server answering on.
 */

let server: TestServer;
const books = new Map<string, BookDto>();
let pages: [Buffer, Buffer];

/** A PNG written without compression (deflate's stored blocks): every method shrinks it, so 7-Zip uses it. */
async function page(color: [number, number, number], width: number, height: number): Promise<Buffer> {
  const [r, g, b] = color;
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

const entry = (name: string, data: Buffer, packed: MethodPayload, extra: Partial<OddZipEntry> = {}): OddZipEntry => ({
  name,
  data,
  method: packed.method,
  methodFlags: packed.methodFlags,
  payload: packed.payload,
  ...extra,
});

type Method = 'Deflate64' | 'BZip2' | 'LZMA' | 'PPMd' | 'XZ';
const pack = (data: Buffer, method: Method | 'Shrink') => (method === 'Shrink' ? Promise.resolve(shrinkLiterals(data)) : sevenZipPayload(data, method));

/** Two pages compressed with `method`. */
async function twoPages(method: Method | 'Shrink'): Promise<OddZipEntry[]> {
  return [entry('01.png', pages[0], await pack(pages[0], method)), entry('02.png', pages[1], await pack(pages[1], method))];
}

/** A stored first page, then `second` (the hostile entry). */
const afterGoodPage = (second: OddZipEntry): OddZipEntry[] => [{ name: '01.png', data: pages[0] }, second];

const readable = ['Deflate64', 'BZip2', 'LZMA', 'PPMd', 'Shrink'] as const;

beforeAll(async () => {
  server = await startServer();
  // Small enough that analysis unpacks each whole (its first read is 64 KiB): a lie is seen then.
  pages = [await page([200, 30, 30], 60, 80), await page([20, 30, 200], 70, 50)];
  const zeros = Buffer.alloc(40 * 1024 * 1024);
  const big = await page([10, 160, 10], 400, 300);
  const library: Record<string, OddZipEntry[]> = {};
  for (const method of readable) library[method.toLowerCase()] = await twoPages(method);
  library['xz-only'] = await twoPages('XZ');
  library['xz-and-stored'] = afterGoodPage(entry('02.png', pages[1], await sevenZipPayload(pages[1], 'XZ')));
  const bzip2 = await sevenZipPayload(pages[1], 'BZip2');
  library['declares-less'] = afterGoodPage(entry('02.png', pages[1], bzip2, { declaredSize: pages[1].length - 100 }));
  library['declares-more'] = afterGoodPage(entry('02.png', pages[1], bzip2, { declaredSize: pages[1].length + 100 }));
  library.truncated = afterGoodPage(entry('02.png', pages[1], { ...bzip2, payload: bzip2.payload.subarray(0, bzip2.payload.length >> 1) }));
  library['wrong-crc'] = afterGoodPage(entry('02.png', pages[1], await sevenZipPayload(pages[1], 'Deflate64'), { declaredCrc: 0x12345678 }));
  // 40 MiB of zeros declared as a page of 20 KB: 7-Zip must stop one byte past it.
  library.bomb = afterGoodPage(entry('02.png', zeros.subarray(0, 20_000), await sevenZipPayload(zeros, 'BZip2')));
  const lzma = await sevenZipPayload(pages[1], 'LZMA');
  const greedy = Buffer.from(lzma.payload);
  greedy.writeUInt32LE(0xffffffff, 5);
  library['lzma-4gb-dictionary'] = afterGoodPage(entry('02.png', pages[1], { ...lzma, payload: greedy }));
  // Larger than analysis reads of it: the lie shows only when the page is read.
  library['lies-past-prefix'] = afterGoodPage(entry('02.png', big, await sevenZipPayload(big, 'Deflate64'), { declaredSize: big.length - 1000 }));
  const root = join(server.dir, 'library');
  await mkdir(join(root, 'Methods'), { recursive: true });
  for (const [name, entries] of Object.entries(library)) await writeFile(join(root, 'Methods', `${name}.cbz`), oddZip(entries));
  await addLibrary(server, root);
  for (const book of (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content) books.set(book.name, book);
}, 120_000);
afterAll(async () => {
  await server.close();
});

describe('zip entries of other compression methods', () => {
  it.each(readable.map((m) => m.toLowerCase()))('%s: READY, exact page bytes, a thumbnail', async (name) => {
    const book = books.get(name)!;
    expect(book.media).toMatchObject({ status: 'READY', comment: '', pagesCount: 2 });
    const listed = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
    expect(listed.map((p) => [p.fileName, p.width, p.height])).toEqual([
      ['01.png', 60, 80],
      ['02.png', 70, 50],
    ]);
    for (const [i, expected] of pages.entries()) {
      const response = await server.get(`/api/v1/books/${book.id}/pages/${i + 1}`);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(expected)).toBe(true);
    }
    const thumbnail = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    expect((await sharp(thumbnail.rawPayload).metadata()).width).toBeGreaterThan(0);
  });

  it('a book whose only method is not read is ERROR ERR_1006', () => {
    expect(books.get('xz-only')!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1006' });
  });

  it.each([
    ['xz-and-stored', /method 95 \(XZ\).*not supported/],
    // 7-Zip holds the data to the declared size itself; past it, our bound stops it.
    ['declares-less', /Data Error|unpacks to more than/],
    ['declares-more', /Unexpected end of data|unpacks to \d+ bytes, not the/],
    ['truncated', /cannot unpack zip entry 02\.png \(method 12 \(BZIP2\)\)/],
    ['wrong-crc', /cannot unpack zip entry 02\.png \(method 9 \(Deflate64\)\).*CRC/i],
    ['bomb', /Data Error|unpacks to more than/],
    ['lzma-4gb-dictionary', /LZMA dictionary of 4294967295 bytes/],
  ])('%s: the entry is unreadable (ERR_1007), its page refused with why', async (name, why) => {
    const book = books.get(name)!;
    expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
    const good = await server.get(`/api/v1/books/${book.id}/pages/1`);
    expect(good.statusCode).toBe(200);
    expect(good.rawPayload.equals(pages[0])).toBe(true);
    const bad = await server.get(`/api/v1/books/${book.id}/pages/2`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ message: string }>().message).toMatch(why);
  });

  it('a size that lies past what analysis reads is refused when the page is read (422 with why)', async () => {
    const book = books.get('lies-past-prefix')!;
    expect(book.media).toMatchObject({ status: 'READY', comment: '' });
    const bad = await server.get(`/api/v1/books/${book.id}/pages/2`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ message: string }>().message).toMatch(/ERR_1007.*(Data Error|unpacks to more than)/);
    // Still answering, and the book's other page still served.
    const good = await server.get(`/api/v1/books/${book.id}/pages/1`);
    expect(good.statusCode).toBe(200);
  });
});

describe('pages of other methods are held within the budget of bytes held for pages', () => {
  let small: TestServer;
  let book: BookDto;
  let large: Buffer;

  beforeAll(async () => {
    // A budget of 64 KiB for pages held in memory; the BZIP2 page unpacks to about 90 KB.
    small = await startServer({ archivePool: { wholeReadBytes: 64 * 1024 } });
    large = await page([90, 90, 200], 200, 150);
    const root = join(small.dir, 'library');
    await mkdir(join(root, 'Budget'), { recursive: true });
    const entries = [{ name: '01.png', data: pages[0] }, entry('02.png', large, await sevenZipPayload(large, 'BZip2'))];
    await writeFile(join(root, 'Budget', 'budget.cbz'), oddZip(entries));
    await addLibrary(small, root);
    book = (await small.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content[0]!;
  }, 60_000);
  afterAll(async () => {
    await small.close();
  });

  it('a page unpacked in memory larger than the whole budget is refused as busy (503), never held outside it', async () => {
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 2 });
    expect((await small.get(`/api/v1/books/${book.id}/pages/1`)).statusCode).toBe(200);
    const refused = await small.get(`/api/v1/books/${book.id}/pages/2`);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { renderPage } from '../../fixtures/index.ts';
import { type OddZipEntry, type OddZipOptions, oddZip } from '../../fixtures/odd-zip.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Zips as odd writers and damaged disks leave them, scanned by the real server: each ends READY
 * (with ERR_1007 when some entries cannot be read, as Komga says it) or with the error code Komga
 * gives it, and every page listed as readable is served. One damaged entry must not take the
 * readable pages of its book with it.
 */

let server: TestServer;
const books = new Map<string, BookDto>();
let png: Buffer;
let jpeg: Buffer;

/** Book name → the zip, written by hand. */
const library: Record<string, (png: Buffer, jpeg: Buffer) => { entries: OddZipEntry[]; options?: OddZipOptions }> = {
  zip64: (p, j) => ({ entries: [{ name: '01.png', data: p, zip64: true }, { name: '02.jpg', data: j, zip64: true }] }),
  'streamed-deflated': (p, j) => ({ entries: [{ name: '01.png', data: p, descriptor: true, method: 8 }, { name: '02.jpg', data: j, descriptor: true, method: 8 }] }),
  'streamed-stored': (p, j) => ({ entries: [{ name: '01.png', data: p, descriptor: true }, { name: '02.jpg', data: j, descriptor: true }] }),
  'streamed-zip64': (p) => ({ entries: [{ name: '01.png', data: p, descriptor: true, zip64: true, method: 8 }] }),
  'one-encrypted': (p, j) => ({ entries: [{ name: '01.png', data: p }, { name: '02.jpg', data: j, encrypted: true }] }),
  'all-encrypted': (p, j) => ({ entries: [{ name: '01.png', data: p, encrypted: true }, { name: '02.jpg', data: j, encrypted: true }] }),
  'escaping-names': (p, j) => ({ entries: [{ name: '../up.png', data: p }, { name: '/abs.png', data: p }, { name: 'a\\..\\..\\b.png', data: p }, { name: 'in.jpg', data: j }] }),
  'only-folders': () => ({ entries: [{ name: 'a/', data: Buffer.alloc(0) }, { name: 'a/b/', data: Buffer.alloc(0) }] }),
  'empty-entry': (p) => ({ entries: [{ name: '01.png', data: Buffer.alloc(0) }, { name: '02.png', data: p }] }),
  'comment-only': () => ({ entries: [], options: { comment: Buffer.from('nothing here') } }),
  'deflate64-only': (p) => ({ entries: [{ name: '01.png', data: p, method: 9, payload: deflateRawSync(p) }] }),
  'bzip2-and-stored': (p, j) => ({ entries: [{ name: '01.png', data: p, method: 12, payload: Buffer.from('BZh91AY&SY') }, { name: '02.jpg', data: j }] }),
  'nested-cbz': (p) => ({ entries: [{ name: 'inner.cbz', data: oddZip([{ name: '01.png', data: p }]) }] }),
  'declares-2gb': (p, j) => ({ entries: [{ name: '01.png', data: p, declaredSize: 2_000_000_000 }, { name: '02.jpg', data: j }] }),
  'declares-5gb-zip64': (p, j) => ({ entries: [{ name: '01.png', data: p, declaredSize: 5_000_000_000, zip64: true }, { name: '02.jpg', data: j }] }),
  'stored-sizes-disagree': (p, j) => ({ entries: [{ name: '01.png', data: p, declaredSize: 5000, declaredCompressedSize: p.length }, { name: '02.jpg', data: j }] }),
  // Its zip64 field declares a terabyte: past any whole read, so the page went to the entry stream,
  // which sent 200 and then cut the response at the real bytes' end.
  'stored-zip64-declares-1tb': (p, j) => ({ entries: [{ name: '01.png', data: p, zip64: true, declaredSize: 2 ** 40, declaredCompressedSize: p.length }, { name: '02.jpg', data: j }] }),
  // A damaged disk block in the central directory: the entries listed before it are whole (Komga's
  // commons-compress keeps them too); the whole book was ERROR ERR_1008.
  'directory-damaged-at-third': (p, j) => ({ entries: [{ name: '01.png', data: p }, { name: '02.jpg', data: j }, { name: '03.png', data: p }], options: { brokenCentral: 2 } }),
  // The end record counts more entries than the directory holds: nothing is lost.
  'count-says-65535': (p, j) => ({ entries: [{ name: '01.png', data: p }, { name: '02.jpg', data: j }], options: { declaredCount: 65535 } }),
  // Fewer: a writer without zip64 counts 70,000 entries as 4,464 (modulo 65,536); Komga's reader
  // goes by the directory, yauzl stopped at the count and the rest were lost without a word.
  'count-says-1': (p, j) => ({ entries: [{ name: '01.png', data: p }, { name: '02.jpg', data: j }, { name: '03.png', data: p }], options: { declaredCount: 1 } }),
  'count-says-0': (p, j) => ({ entries: [{ name: '01.png', data: p }, { name: '02.jpg', data: j }], options: { declaredCount: 0 } }),
  'zip64-count-says-2^40': (p, j) => ({ entries: [{ name: '01.png', data: p }, { name: '02.jpg', data: j }], options: { zip64End: true, declaredCount: 2 ** 40 } }),
};

/** What each book must end as: status, comment, and the pages that must be served. */
const expected: Record<string, { status: string; comment: string; served: string[]; unservable?: string[] }> = {
  zip64: { status: 'READY', comment: '', served: ['01.png', '02.jpg'] },
  'streamed-deflated': { status: 'READY', comment: '', served: ['01.png', '02.jpg'] },
  'streamed-stored': { status: 'READY', comment: '', served: ['01.png', '02.jpg'] },
  'streamed-zip64': { status: 'READY', comment: '', served: ['01.png'] },
  'one-encrypted': { status: 'READY', comment: 'ERR_1007', served: ['01.png'], unservable: ['02.jpg'] },
  'all-encrypted': { status: 'ERROR', comment: 'ERR_1006', served: [] },
  'escaping-names': { status: 'READY', comment: '', served: ['in.jpg'] },
  'only-folders': { status: 'ERROR', comment: 'ERR_1006', served: [] },
  'empty-entry': { status: 'READY', comment: '', served: ['02.png'] },
  'comment-only': { status: 'ERROR', comment: 'ERR_1006', served: [] },
  // zlib's Deflate of a small page is also valid Deflate64 (it uses no 258-byte match, the one code
  // the two read differently), and Deflate64 is read (zip-entry-methods.ts).
  'deflate64-only': { status: 'READY', comment: '', served: ['01.png'] },
  'bzip2-and-stored': { status: 'READY', comment: 'ERR_1007', served: ['02.jpg'], unservable: ['01.png'] },
  'nested-cbz': { status: 'ERROR', comment: 'ERR_1006', served: [] },
  'declares-2gb': { status: 'READY', comment: 'ERR_1007', served: ['02.jpg'], unservable: ['01.png'] },
  'declares-5gb-zip64': { status: 'READY', comment: 'ERR_1007', served: ['02.jpg'], unservable: ['01.png'] },
  'stored-sizes-disagree': { status: 'READY', comment: 'ERR_1007', served: ['02.jpg'], unservable: ['01.png'] },
  'stored-zip64-declares-1tb': { status: 'READY', comment: 'ERR_1007', served: ['02.jpg'], unservable: ['01.png'] },
  'directory-damaged-at-third': { status: 'READY', comment: 'ERR_1007', served: ['01.png', '02.jpg'] },
  'count-says-65535': { status: 'READY', comment: '', served: ['01.png', '02.jpg'] },
  'count-says-1': { status: 'READY', comment: '', served: ['01.png', '02.jpg', '03.png'] },
  'count-says-0': { status: 'READY', comment: '', served: ['01.png', '02.jpg'] },
  // Past MAX_ARCHIVE_ENTRIES: refused before anything is listed.
  'zip64-count-says-2^40': { status: 'ERROR', comment: 'ERR_1008', served: [] },
};

beforeAll(async () => {
  server = await startServer();
  png = await renderPage({ width: 40, height: 60, color: [200, 30, 30], format: 'png' });
  jpeg = await renderPage({ width: 50, height: 70, color: [20, 200, 20], format: 'jpeg' });
  const root = join(server.dir, 'library');
  await mkdir(join(root, 'Odd'), { recursive: true });
  for (const [name, make] of Object.entries(library)) {
    const { entries, options } = make(png, jpeg);
    await writeFile(join(root, 'Odd', `${name}.cbz`), oddZip(entries, options));
  }
  await addLibrary(server, root);
  for (const book of (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content) books.set(book.name, book);
});
afterAll(async () => {
  await server.close();
});

describe('odd and damaged zips', () => {
  it.each(Object.keys(expected))('%s', async (name) => {
    const want = expected[name]!;
    const book = books.get(name)!;
    expect(book.media).toMatchObject({ status: want.status, comment: want.comment });
    const pages = want.status === 'READY' ? await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`) : [];
    expect(pages.map((p) => p.fileName)).toEqual([...want.served, ...(want.unservable ?? [])].toSorted());
    for (const page of pages) {
      const response = await server.get(`/api/v1/books/${book.id}/pages/${page.number}`);
      if (want.served.includes(page.fileName)) {
        expect(response.statusCode).toBe(200);
        expect(response.rawPayload.equals(page.fileName.endsWith('.png') ? png : jpeg)).toBe(true);
      } else {
        // Known damaged: refused with the book's code, never sent half-read.
        expect(response.statusCode).toBe(422);
      }
    }
  });
});

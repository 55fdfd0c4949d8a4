import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { MAX_BUFFERED_MEMBER_BYTES, rar4Reader, rar5Reader } from '../../../server/media/rar-reader.ts';
import { analysisBounds } from '../../../server/media/analysis-bounds.ts';
import { analyseContainer, analyseOpened } from '../../../server/media/analyse-container.ts';
import { AnalysisTooCostly, MAX_ARCHIVE_ENTRIES } from '../../../server/media/book-reader.ts';
import { describeChecked } from '../../../server/media/checked-file.ts';
import { RarClient, extractRar, rarWorker } from '../../../server/media/rar-client.ts';
import { OperationTimeout, isTransientFailure } from '../../../server/media/transient-errors.ts';
import { BLUE, GREEN, RED, YELLOW, createCbz, renderPage } from '../../fixtures/index.ts';
import { rar4Bytes, rar5Bytes, writeRar4, writeRar5, writeRar5WithLargeMember, type RarMember } from '../../fixtures/rar.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

async function pngMembers(colors: [number, number, number][], width = 60, height = 90): Promise<RarMember[]> {
  const members: RarMember[] = [];
  for (const [i, color] of colors.entries()) {
    members.push({ name: `page-${i + 1}.png`, data: await renderPage({ width, height, color, format: 'png' }) });
  }
  return members;
}

describe('RAR reader', () => {
  let dir: string;
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ claim: false });
    dir = join(server.dir, 'direct');
    await mkdir(dir, { recursive: true });
  });
  afterAll(async () => server.close());

  it('recognises RAR 4 and RAR 5 by their exact signatures only', () => {
    const four = rar4Bytes([]);
    const five = rar5Bytes([]);
    expect(rar4Reader.matchesSignature(four)).toBe(true);
    expect(rar5Reader.matchesSignature(four)).toBe(false);
    expect(rar5Reader.matchesSignature(five)).toBe(true);
    expect(rar4Reader.matchesSignature(five)).toBe(false);
    expect(rar4Reader.matchesSignature(Buffer.from('Rar!'))).toBe(false);
    expect(rar4Reader.matchesSignature(Buffer.from('PK\x03\x04'))).toBe(false);
  });

  it.each([
    ['RAR 4', writeRar4, 'application/x-rar-compressed; version=4'],
    ['RAR 5', writeRar5, 'application/x-rar-compressed; version=5'],
  ] as const)('lists and reads members of a %s archive, prefixes included', async (_label, write, mediaType) => {
    const members = [
      ...(await pngMembers([RED, GREEN])),
      { name: 'Sub Folder/naïve page 3.png', data: await renderPage({ width: 7, height: 9, color: BLUE, format: 'png' }) },
      { name: 'notes.txt', data: Buffer.from('not a page') },
    ];
    const path = await write(join(dir, `${mediaType.slice(-1)}.cbr`), members);
    const analysis = await analyseContainer(path);
    expect(analysis.reader.mediaType).toBe(mediaType);
    expect(analysis.pages.map((p) => [p.fileName, p.mediaType, p.width, p.height, p.fileSize])).toEqual([
      ['page-1.png', 'image/png', 60, 90, members[0]!.data.length],
      ['page-2.png', 'image/png', 60, 90, members[1]!.data.length],
      ['Sub Folder/naïve page 3.png', 'image/png', 7, 9, members[2]!.data.length],
    ]);
    expect(analysis.files.map((f) => f.fileName)).toEqual(['notes.txt']);

    const book = await analysis.reader.open(path);
    try {
      expect((await book.readPrefix('page-2.png', 8)).equals(members[1]!.data.subarray(0, 8))).toBe(true);
      const chunks: Buffer[] = [];
      for await (const chunk of await book.openEntry('Sub Folder/naïve page 3.png')) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(members[2]!.data)).toBe(true);
      await expect(book.openEntry('missing.png')).rejects.toMatchObject({ code: 'ERR_1033' });
    } finally {
      book.close();
    }
  });

  it.each([
    ['encrypted headers (RAR 4)', () => rar4Bytes([{ name: 'a.png', data: Buffer.alloc(10) }], { encryptedHeaders: true }), 'ERR_1002'],
    ['encrypted headers (RAR 5)', () => rar5Bytes([{ name: 'a.png', data: Buffer.alloc(10) }], { encryptedHeaders: true }), 'ERR_1002'],
    ['encrypted members (RAR 4)', () => rar4Bytes([{ name: 'a.png', data: Buffer.alloc(10) }], { encryptedFiles: true }), 'ERR_1002'],
    ['solid (RAR 4)', () => rar4Bytes([{ name: 'a.png', data: Buffer.alloc(10) }, { name: 'b.png', data: Buffer.alloc(10) }], { solid: true }), 'ERR_1003'],
    ['solid (RAR 5)', () => rar5Bytes([{ name: 'a.png', data: Buffer.alloc(10) }], { solid: true }), 'ERR_1003'],
    ['multi-volume (RAR 4)', () => rar4Bytes([{ name: 'a.png', data: Buffer.alloc(10) }], { multiVolume: true }), 'ERR_1004'],
    ['multi-volume (RAR 5)', () => rar5Bytes([{ name: 'a.png', data: Buffer.alloc(10) }], { multiVolume: true }), 'ERR_1004'],
  ])('refuses %s with %s', async (label, bytes, code) => {
    const path = join(dir, `${label.replace(/\W+/g, '-')}.cbr`);
    await writeFile(path, bytes());
    await expect(analyseContainer(path)).rejects.toMatchObject({ name: 'MediaError', code });
  });
  it('refuses an archive listing more than MAX_ARCHIVE_ENTRIES entries (ERR_1008) before holding its listing', async () => {
    const path = join(dir, 'too-many.cbr');
    const folders: RarMember[] = Array.from({ length: MAX_ARCHIVE_ENTRIES }, (_, i) => ({ name: `f${i}`, data: Buffer.alloc(0), directory: true }));
    await writeRar5(path, [...folders, ...(await pngMembers([RED]))]);
    await expect(analyseContainer(path)).rejects.toMatchObject({ name: 'MediaError', code: 'ERR_1008', message: expect.stringMatching(/more than 100000 entries/) });
  }, 60_000);

  it('analyses thousands of small members in a few walks of the archive, not one walk each', async () => {
    const path = join(dir, 'small-members.cbr');
    const [page] = await pngMembers([RED]);
    const notes: RarMember[] = Array.from({ length: 4_000 }, (_, i) => ({ name: `notes/${i}.txt`, data: Buffer.from(`note ${i}`) }));
    await writeRar5(path, [page!, ...notes]);
    const calls = rarWorker.calls;
    const analysis = await analyseContainer(path);
    // Before: one call per member (4,002), each walking every header before its member (65 s here).
    expect(rarWorker.calls - calls).toBeLessThanOrEqual(3);
    expect(analysis.pages.map((p) => [p.fileName, p.width, p.height])).toEqual([['page-1.png', 60, 90]]);
    expect(analysis.files).toHaveLength(4_000);
    expect(analysis.failedEntries).toEqual([]);
    const book = await rar5Reader.open(path);
    try {
      for (const i of [0, 1_234, 3_999]) expect((await book.readPrefix(`notes/${i}.txt`, 1024)).toString()).toBe(`note ${i}`);
    } finally {
      book.close();
    }
  });

  it('analyses hundreds of pages over 64 KiB in one walk of the archive, not one walk each', async () => {
    const path = join(dir, 'large-members.cbr');
    const [page] = await pngMembers([RED]);
    // Each page is a real PNG followed by padding past the 64 KiB analysis reads whole.
    const pages: RarMember[] = Array.from({ length: 300 }, (_, i) => ({
      name: `pages/${String(i).padStart(3, '0')}.png`,
      data: Buffer.concat([page!.data, Buffer.alloc(70 * 1024, i)]),
    }));
    await writeRar5(path, pages);
    const calls = rarWorker.calls;
    const analysis = await analyseContainer(path);
    // Before: one call per page (301), each walking every header before its page.
    expect(rarWorker.calls - calls).toBeLessThanOrEqual(3);
    expect(analysis.pages).toHaveLength(300);
    expect(analysis.pages.every((p) => p.width === 60 && p.height === 90)).toBe(true);
    expect(analysis.failedEntries).toEqual([]);
  });

  it('analyses pages stored in reverse order in one walk too', async () => {
    const path = join(dir, 'reversed.cbr');
    const [page] = await pngMembers([GREEN]);
    const pages: RarMember[] = Array.from({ length: 300 }, (_, i) => ({
      name: `pages/${String(299 - i).padStart(3, '0')}.png`,
      data: Buffer.concat([page!.data, Buffer.alloc(i % 2 ? 70 * 1024 : 100, i)]),
    }));
    await writeRar5(path, pages);
    const calls = rarWorker.calls;
    const analysis = await analyseContainer(path);
    // Before: entries were read in natural order, each walk starting at the one asked for and
    // finding no unread member after it (the archive's last): one walk per page.
    expect(rarWorker.calls - calls).toBeLessThanOrEqual(3);
    expect(analysis.pages.map((p) => p.fileName)).toEqual(pages.map((p) => p.name).reverse());
    expect(analysis.pages.every((p) => p.width === 60 && p.height === 90)).toBe(true);
    expect(analysis.failedEntries).toEqual([]);
  });

  it('analyses a few big pages member by member, unpacking little more than their first 64 KiB', async () => {
    const path = join(dir, 'big-pages.cbr');
    const [page] = await pngMembers([BLUE]);
    const pages: RarMember[] = Array.from({ length: 12 }, (_, i) => ({
      name: `pages/${String(i).padStart(2, '0')}.png`,
      data: Buffer.concat([page!.data, Buffer.alloc(3 * 1024 * 1024 - page!.data.length, i)]),
    }));
    // A page of exactly the prefix analysis reads, and a smaller one: both read whole, checksums checked.
    pages.push({ name: 'pages/12.png', data: Buffer.concat([page!.data, Buffer.alloc(64 * 1024 - page!.data.length, 12)]) });
    pages.push({ name: 'pages/13.png', data: page!.data });
    await writeRar5(path, pages);
    const unpacked = rarWorker.unpacked;
    const analysis = await analyseContainer(path);
    // Before: one walk unpacked every page whole, 36 MiB (and reads member by member did too:
    // unrar unpacks a member to its end whatever write() answers).
    expect(rarWorker.unpacked - unpacked).toBeLessThanOrEqual(14 * (64 * 1024 + 1));
    expect(analysis.pages.map((p) => [p.fileName, p.width, p.height])).toEqual(pages.map((p) => [p.name, 60, 90]));
    expect(analysis.failedEntries).toEqual([]);
    // Page reads still get every byte of a member.
    const book = await rar5Reader.open(path);
    try {
      for (const member of [pages[5]!, pages[12]!]) {
        const chunks: Buffer[] = [];
        for await (const chunk of await book.openEntry(member.name)) chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).equals(member.data)).toBe(true);
      }
      expect((await book.readPrefix('pages/07.png', 64 * 1024)).equals(pages[7]!.data.subarray(0, 64 * 1024))).toBe(true);
    } finally {
      book.close();
    }
  });

  it('stops unpacking a member soon after the prefix asked for, and still reads it whole', async () => {
    const path = join(dir, 'one-big.cbr');
    const [page] = await pngMembers([RED]);
    const data = Buffer.concat([page!.data, Buffer.alloc(3 * 1024 * 1024, 9)]);
    await writeRar5(path, [{ name: 'big.png', data }]);
    const handle = await open(path, 'r');
    try {
      const { checked: file } = await describeChecked(handle, path);
      const unpacked = rarWorker.unpacked;
      const prefix = await extractRar(file, 'big.png', 64 * 1024, 64 * 1024);
      expect(prefix.equals(data.subarray(0, 64 * 1024))).toBe(true);
      // Before: unrar unpacked all 3 MiB, write() refusing the rest changing nothing but what was kept.
      expect(rarWorker.unpacked - unpacked).toBeLessThanOrEqual(64 * 1024 + 1);
      expect((await extractRar(file, 'big.png', data.length + 1, data.length + 1)).equals(data)).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it('reads the small members around a damaged one, and fails only that one', async () => {
    const path = join(dir, 'one-damaged.cbr');
    const members = await pngMembers([RED, GREEN, BLUE]);
    const bytes = rar5Bytes(members);
    // The second page's data, past its PNG header: its CRC no longer matches.
    const at = bytes.indexOf(members[1]!.data) + 100;
    bytes.fill(0x00, at, at + 8);
    await writeFile(path, bytes);
    const analysis = await analyseContainer(path);
    expect(analysis.failedEntries).toEqual(['page-2.png']);
    expect(analysis.pages.map((p) => [p.fileName, p.width])).toEqual([
      ['page-1.png', 60],
      ['page-2.png', null],
      ['page-3.png', 60],
    ]);
  });

  it('reads the file it was opened from, whatever its path leads to later', async () => {
    const path = join(dir, 'swapped.cbr');
    const [first] = await pngMembers([RED]);
    const [second] = await pngMembers([BLUE]);
    await writeRar5(path, [{ name: 'page.png', data: first!.data }]);
    const book = await rar5Reader.openFile!(await open(path, 'r'), path, 0);
    try {
      await writeRar5(join(dir, 'other.cbr'), [{ name: 'page.png', data: second!.data }]);
      await rename(join(dir, 'other.cbr'), path);
      const chunks: Buffer[] = [];
      for await (const chunk of await book.openEntry('page.png')) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(first!.data)).toBe(true);
    } finally {
      book.close();
    }
  });

  it('ends a call over its time limit as a time out naming what it did, and the next call gets a fresh worker', async () => {
    const path = join(dir, 'timed.cbr');
    const folders: RarMember[] = Array.from({ length: 20_000 }, (_, i) => ({ name: `f${i}`, data: Buffer.alloc(0), directory: true }));
    const [page] = await pngMembers([GREEN]);
    await writeRar5(path, [...folders, page!]);
    const client = new RarClient({ timeLimitMs: 1 });
    const handle = await open(path, 'r');
    try {
      const { checked: file } = await describeChecked(handle, path);
      const failure = await client.call({ op: 'extract', file, name: page!.name, limit: 1024, expected: 1024 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OperationTimeout);
      expect(isTransientFailure(failure)).toBe(true);
      expect((failure as Error).message).toBe(`RAR unpacking of ${page!.name} in ${path} took longer than 1 ms`);
      client.timeLimitMs = 60_000;
      const result = await client.call({ op: 'extract', file, name: page!.name, limit: 8, expected: 8 });
      expect('length' in result && Buffer.from(result.bytes, 0, result.length).equals(page!.data.subarray(0, 8))).toBe(true);
    } finally {
      await client.stop();
      await handle.close();
    }
  });
});

/**
 * The whole server against a library mixing good, mislabelled and broken RAR books: every broken one
 * ends in ERROR with its code, the good ones serve their exact page bytes, and the server keeps
 * answering throughout.
 */
describe('RAR books through the server', () => {
  let server: TestServer;
  let root: string;
  const written = new Map<string, RarMember[]>();
  let books: Map<string, BookDto>;

  beforeAll(async () => {
    server = await startServer();
    root = join(server.dir, 'library');
    const rars = join(root, 'Rars');
    const good4 = await pngMembers([RED, GREEN, BLUE]);
    const good5 = await pngMembers([YELLOW, RED]);
    written.set('good4', good4);
    written.set('good5', good5);
    written.set('really-rar', good5);
    await writeRar4(join(rars, 'good4.cbr'), good4);
    await writeRar5(join(rars, 'good5.cbr'), good5);
    // Content decides: a RAR named .cbz and a zip named .cbr.
    await writeRar5(join(rars, 'really-rar.cbz'), good5);
    await createCbz(join(rars, 'really-zip.cbr'), [{ width: 30, height: 40, color: GREEN, format: 'jpeg' }]);

    const broken = join(root, 'Broken Rars');
    const one = [{ name: 'a.png', data: good4[0]!.data }];
    await writeRar4(join(broken, 'encrypted.cbr'), one, { encryptedHeaders: true });
    await writeRar4(join(broken, 'encrypted-members.cbr'), one, { encryptedFiles: true });
    await writeRar5(join(broken, 'encrypted5.cbr'), one, { encryptedHeaders: true });
    await writeRar4(join(broken, 'solid.cbr'), [...one, { name: 'b.png', data: good4[1]!.data }], { solid: true });
    await writeRar5(join(broken, 'multi.part1.cbr'), one, { multiVolume: true });
    const full = rar4Bytes(good4);
    // Cut inside its first page: nothing whole to read (cut later, it keeps its whole pages: rar-cut-short.test.ts).
    await writeFile(join(broken, 'truncated.cbr'), full.subarray(0, full.indexOf(good4[0]!.data) + 20));
    const corrupt = Buffer.from(full);
    corrupt.fill(0xee, 30, 90); // inside the first file header: its CRC no longer matches
    await writeFile(join(broken, 'corrupt.cbr'), corrupt);
    await writeFile(join(broken, 'empty.cbr'), Buffer.alloc(0));
    await writeFile(join(broken, 'no-members.cbr'), rar4Bytes([]));
    await writeFile(join(broken, 'not-images.cbr'), rar4Bytes([{ name: 'readme.txt', data: Buffer.from('hello') }]));

    await addLibrary(server, root);
    const page = await server.json<Page<BookDto>>('/api/v1/books?unpaged=true');
    books = new Map(page.content.map((b) => [b.name, b]));
  });
  afterAll(async () => server.close());

  it('analyses RAR 4 and RAR 5 books as DIVINA with their versioned media type', () => {
    expect(books.get('good4')!.media).toMatchObject({
      status: 'READY',
      mediaType: 'application/x-rar-compressed; version=4',
      mediaProfile: 'DIVINA',
      pagesCount: 3,
      comment: '',
    });
    expect(books.get('good5')!.media).toMatchObject({
      status: 'READY',
      mediaType: 'application/x-rar-compressed; version=5',
      mediaProfile: 'DIVINA',
      pagesCount: 2,
    });
  });

  it('detects the real format whatever the extension says', () => {
    expect(books.get('really-rar')!.media).toMatchObject({ status: 'READY', mediaType: 'application/x-rar-compressed; version=5', pagesCount: 2 });
    expect(books.get('really-zip')!.media).toMatchObject({ status: 'READY', mediaType: 'application/zip', pagesCount: 1 });
  });

  it.each([
    ['encrypted', 'ERR_1002'],
    ['encrypted-members', 'ERR_1002'],
    ['encrypted5', 'ERR_1002'],
    ['solid', 'ERR_1003'],
    ['multi.part1', 'ERR_1004'],
    ['truncated', 'ERR_1008'],
    ['corrupt', 'ERR_1008'],
    ['empty', 'ERR_1001'],
    ['no-members', 'ERR_1006'],
    ['not-images', 'ERR_1006'],
  ])('marks %s as ERROR %s and refuses its pages', async (name, code) => {
    const book = books.get(name)!;
    // A file that is no such archive at all is UNSUPPORTED (ERR_1001), as Komga marks it.
    expect(book.media).toMatchObject({ status: code === 'ERR_1001' ? 'UNSUPPORTED' : 'ERROR', comment: code, pagesCount: 0 });
    const pages = await server.get(`/api/v1/books/${book.id}/pages`);
    expect(pages.statusCode).toBe(404);
    expect((await server.get(`/api/v1/books/${book.id}/pages/1`)).statusCode).toBe(404);
  });

  it.each(['good4', 'good5', 'really-rar'])('serves the exact page bytes of %s, in order', async (name) => {
    const book = books.get(name)!;
    const members = written.get(name)!;
    const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
    expect(pages.map((p) => [p.fileName, p.mediaType, p.width, p.height, p.sizeBytes])).toEqual(
      members.map((m) => [m.name, 'image/png', 60, 90, m.data.length]),
    );
    for (const [i, member] of members.entries()) {
      const response = await server.get(`/api/v1/books/${book.id}/pages/${i + 1}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.rawPayload.equals(member.data)).toBe(true);
    }
    const converted = await server.get(`/api/v1/books/${book.id}/pages/1?convert=jpeg`);
    expect(converted.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(converted.rawPayload).metadata()).format).toBe('jpeg');
    const thumbnail = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    expect((await sharp(thumbnail.rawPayload).metadata()).format).toBe('jpeg');
  });

  it('serves the zip-in-disguise from its zip entries', async () => {
    const book = books.get('really-zip')!;
    const response = await server.get(`/api/v1/books/${book.id}/pages/1`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(response.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 30, 40]);
  });

  it('keeps answering after the broken books', async () => {
    expect((await server.get('/api/v2/users/me')).statusCode).toBe(200);
    const file = await readFile(join(root, 'Rars', 'good4.cbr'));
    expect(file.subarray(0, 7).toString('latin1')).toBe('Rar!\x1a\x07\x00');
  });
});

/**
 * A RAR member cannot be streamed, so a page is buffered whole: up to 128 MiB. A member declaring
 * more is refused with ERR_1007 before anything is unpacked, and analysis reads only its first bytes.
 */
describe('a RAR member over the page limit', () => {
  let server: TestServer;
  afterAll(async () => server.close());

  it('is a bad page (ERR_1007, 422) while the rest of the book reads, and memory stays bounded', async () => {
    server = await startServer();
    const root = join(server.dir, 'library');
    const [first] = await pngMembers([GREEN]);
    const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await writeRar5WithLargeMember(join(root, 'Huge', 'huge.cbr'), [first!], {
      name: 'page-2.png',
      head: pngSignature,
      size: MAX_BUFFERED_MEMBER_BYTES + 1,
    });
    const before = process.memoryUsage().rss;
    await addLibrary(server, root);
    const book = (await server.json<Page<BookDto>>('/api/v1/books')).content[0]!;
    expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
    const good = await server.get(`/api/v1/books/${book.id}/pages/1`);
    expect(good.statusCode).toBe(200);
    expect(good.rawPayload.equals(first!.data)).toBe(true);
    const huge = await server.get(`/api/v1/books/${book.id}/pages/2`);
    expect(huge.statusCode).toBe(422);
    expect(huge.json().message).toMatch(/ERR_1007.*over the 134217728-byte limit/);
    // Neither the analysis nor the refused page held the 128 MiB member.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  }, 60_000);
});

describe('the bound on analysing one RAR book', () => {
  let server: TestServer;
  let root: string;
  const defaults = { ...analysisBounds };
  beforeAll(async () => {
    server = await startServer();
    root = join(server.dir, 'library');
  });
  afterAll(async () => {
    Object.assign(analysisBounds, defaults);
    await server.close();
  });

  /** `count` real pages, each padded past the 64 KiB analysis reads whole. */
  async function paddedPages(count: number, padding: number): Promise<RarMember[]> {
    const [page] = await pngMembers([BLUE]);
    return Array.from({ length: count }, (_, i) => ({ name: `${String(i).padStart(3, '0')}.png`, data: Buffer.concat([page!.data, Buffer.alloc(padding, i)]) }));
  }

  it('ends the analysis of a book that unpacks past it (ERR_1008, saying why), not one entry', async () => {
    const path = join(server.dir, 'unbounded.cbr');
    await writeRar5(path, await paddedPages(30, 70 * 1024));
    analysisBounds.unpackedBytes = 1024 * 1024;
    try {
      // Before: no bound; the book analysed as 30 pages whatever it cost.
      const failure = await analyseContainer(path).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AnalysisTooCostly);
      expect(failure).toMatchObject({ code: 'ERR_1008', message: expect.stringMatching(/unpacked \d+ bytes, over the 1048576-byte limit for one book/) });
      expect(isTransientFailure(failure)).toBe(false);
    } finally {
      analysisBounds.unpackedBytes = defaults.unpackedBytes;
    }
  });

  it("ends the analysis of a book that takes unrar past its time (ERR_1008, saying why)", async () => {
    const path = join(server.dir, 'slow.cbr');
    await writeRar5(path, await paddedPages(3, 70 * 1024));
    analysisBounds.workMs = 0;
    try {
      const failure = await analyseContainer(path).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'ERR_1008', message: expect.stringMatching(/ms of unrar's time, over the 0 ms limit for one book/) });
    } finally {
      analysisBounds.workMs = defaults.workMs;
    }
  });

  it('ends the analysis of a book whose unrar calls always run out of time after a few of them, instead of putting it off again and again', async () => {
    const path = join(server.dir, 'always-late.cbr');
    await writeRar5(path, await paddedPages(3, 70 * 1024));
    const book = await rar5Reader.open(path);
    // Every call from here on runs out of time: each has a fresh worker (a time-out ends the
    // worker; this stop ends the warm one), which alone takes longer than 1 ms to start.
    await rarWorker.stop();
    const calls = rarWorker.calls;
    const timeLimit = rarWorker.timeLimitMs;
    rarWorker.timeLimitMs = 1;
    analysisBounds.workMs = 5;
    try {
      // Before: the first time-out put the whole analysis off (transient), and the next attempt,
      // and the 12 after it, did the same, each holding the worker for a whole time limit.
      const failure = await analyseOpened(rar5Reader, book).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AnalysisTooCostly);
      expect(failure).toMatchObject({
        code: 'ERR_1008',
        message: expect.stringMatching(/^RAR book .*always-late\.cbr: analysis took 6 ms of unrar's time \(6 calls ran out of their time limit\), over the 5 ms limit for one book$/),
      });
      expect(rarWorker.calls - calls).toBe(6);
    } finally {
      rarWorker.timeLimitMs = timeLimit;
      analysisBounds.workMs = defaults.workMs;
      book.close();
    }
  });

  it('tries a call that ran out of time again (a loaded machine) and analyses the book', async () => {
    const path = join(server.dir, 'once-late.cbr');
    await writeRar5(path, await paddedPages(3, 70 * 1024));
    const book = await rar5Reader.open(path);
    await rarWorker.stop();
    const calls = rarWorker.calls;
    const timeLimit = rarWorker.timeLimitMs;
    rarWorker.timeLimitMs = 1;
    try {
      const analysis = analyseOpened(rar5Reader, book);
      // The first call (or the first few) run out of time; the next ones have the usual limit.
      await pollUntil('an unrar call to run out of time', () => rarWorker.calls > calls, { intervalMs: 1 });
      rarWorker.timeLimitMs = timeLimit;
      // Before: the time-out put the analysis off (OperationTimeout).
      expect((await analysis).pages.map((p) => [p.fileName, p.width])).toEqual(['000.png', '001.png', '002.png'].map((name) => [name, 60]));
      expect(rarWorker.calls - calls).toBeGreaterThan(1);
    } finally {
      rarWorker.timeLimitMs = timeLimit;
      book.close();
    }
  });

  it('records such a book as ERROR while the other books of the library read', async () => {
    await writeRar5(join(root, 'Big', 'big.cbr'), await paddedPages(30, 70 * 1024));
    await writeRar5(join(root, 'Small', 'small.cbr'), await paddedPages(2, 100));
    analysisBounds.unpackedBytes = 1024 * 1024;
    try {
      await addLibrary(server, root);
    } finally {
      analysisBounds.unpackedBytes = defaults.unpackedBytes;
    }
    const books = new Map((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b]));
    expect(books.get('big')!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1008', pagesCount: 0 });
    expect(books.get('small')!.media).toMatchObject({ status: 'READY', pagesCount: 2 });
  });

  it('reads only the first bytes of a member over the page limit, never unpacking it whole', async () => {
    const path = join(server.dir, 'huge.cbr');
    const [page] = await pngMembers([GREEN]);
    await writeRar5WithLargeMember(path, [page!], { name: 'page-2.png', head: page!.data, size: MAX_BUFFERED_MEMBER_BYTES + 1 });
    analysisBounds.unpackedBytes = 16 * 1024 * 1024;
    try {
      // Before: the walk unpacked its 128 MiB, past this bound (and a member declaring terabytes
      // would hold a walk past its time limit on every retry).
      const analysis = await analyseContainer(path);
      expect(analysis.pages.map((p) => [p.fileName, p.width])).toEqual([
        ['page-1.png', 60],
        ['page-2.png', 60],
      ]);
    } finally {
      analysisBounds.unpackedBytes = defaults.unpackedBytes;
    }
  }, 60_000);

  it('is not reached by a walk cut short by the server (the worker stopped): that is not the book’s doing', async () => {
    const path = join(server.dir, 'stopped.cbr');
    // Big enough that the walk is still running when the poll below sees it, and with members
    // enough that analysis walks rather than reading them one by one (24 pages of 4 MiB, as
    // before, are now read one by one).
    await writeRar5(path, await paddedPages(300, 256 * 1024));
    const calls = rarWorker.calls;
    const analysis = analyseContainer(path).catch((error: unknown) => error);
    // The listing, then the walk.
    await pollUntil('the walk in the worker', () => rarWorker.calls === calls + 2 && rarWorker.inFlight(), { intervalMs: 1 });
    await rarWorker.stop();
    const failure = await analysis;
    expect(failure).not.toBeInstanceOf(AnalysisTooCostly);
    expect(isTransientFailure(failure)).toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { analyseContainer, analyseOpened } from '../../../server/media/analyse-container.ts';
import { analysisBounds } from '../../../server/media/analysis-bounds.ts';
import { AnalysisTooCostly } from '../../../server/media/book-reader.ts';
import { type CheckedFile, describeChecked } from '../../../server/media/checked-file.ts';
import { SevenZipClient, sevenZip } from '../../../server/media/sevenzip-client.ts';
import { OperationTimeout, ServerBusy, isTransientFailure } from '../../../server/media/transient-errors.ts';
import { MAX_7Z_MEMBER_BYTES, declaredCoderMemory, sevenZipAnalysisPass, sevenZipReader } from '../../../server/media/sevenzip-reader.ts';
import { BLUE, GREEN, RED, YELLOW, renderPage } from '../../fixtures/index.ts';
import { writeSevenZip, type SevenZipEntry } from '../../fixtures/sevenzip.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

async function pngEntries(colors: [number, number, number][], width = 60, height = 90): Promise<SevenZipEntry[]> {
  const entries: SevenZipEntry[] = [];
  for (const [i, color] of colors.entries()) {
    entries.push({ name: `page-${i + 1}.png`, data: await renderPage({ width, height, color, format: 'png' }) });
  }
  return entries;
}

/** A book opened and described as a reader hands it to the 7-Zip worker; the caller closes `handle`. */
async function checkedBook(path: string): Promise<{ file: CheckedFile; handle: FileHandle }> {
  const handle = await open(path, 'r');
  return { file: (await describeChecked(handle, path)).checked, handle };
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('7z reader', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startServer({ claim: false });
    dir = join(server.dir, 'direct');
    await mkdir(dir, { recursive: true });
  });
  afterAll(async () => server.close());

  it('recognises 7z by its signature only', () => {
    expect(sevenZipReader.matchesSignature(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]))).toBe(true);
    expect(sevenZipReader.matchesSignature(Buffer.from('7z'))).toBe(false);
    expect(sevenZipReader.matchesSignature(Buffer.from('PK\x03\x04'))).toBe(false);
  });

  it('reads the working memory coders declare (dictionary, PPMd model)', () => {
    expect(declaredCoderMemory('LZMA2:24')).toBe(16 * 1024 * 1024);
    expect(declaredCoderMemory('LZMA:384k BCJ')).toBe(384 * 1024);
    expect(declaredCoderMemory('LZMA2:1536m')).toBe(1536 * 1024 * 1024);
    expect(declaredCoderMemory('PPMD:o6:mem23')).toBe(8 * 1024 * 1024);
    expect(declaredCoderMemory('Copy')).toBe(0);
  });

  it.each([
    ['solid', true],
    ['non-solid', false],
  ])('lists and reads the members of a %s archive, prefixes included', async (label, solid) => {
    const entries = [
      ...(await pngEntries([RED, GREEN])),
      { name: 'Sub Folder/naïve page 3.png', data: await renderPage({ width: 7, height: 9, color: BLUE, format: 'png' }) },
      // Taken literally: 7-Zip's wildcards are off, so this never means "every .png".
      { name: '*.png', data: await renderPage({ width: 5, height: 5, color: YELLOW, format: 'png' }) },
      { name: 'notes.txt', data: Buffer.from('not a page') },
    ];
    const path = join(dir, `${label}.cb7`);
    await writeSevenZip(path, entries, { solid });
    const analysis = await analyseContainer(path);
    expect(analysis.reader.mediaType).toBe('application/x-7z-compressed');
    expect(analysis.pages.map((p) => [p.fileName, p.mediaType, p.width, p.height, p.fileSize])).toEqual([
      ['*.png', 'image/png', 5, 5, entries[3]!.data.length],
      ['page-1.png', 'image/png', 60, 90, entries[0]!.data.length],
      ['page-2.png', 'image/png', 60, 90, entries[1]!.data.length],
      ['Sub Folder/naïve page 3.png', 'image/png', 7, 9, entries[2]!.data.length],
    ]);
    expect(analysis.files.map((f) => f.fileName)).toEqual(['notes.txt']);
    expect(analysis.failedEntries).toEqual([]);

    const book = await analysis.reader.open(path);
    try {
      expect((await book.readPrefix('page-2.png', 8)).equals(entries[1]!.data.subarray(0, 8))).toBe(true);
      expect((await readAll(await book.openEntry('Sub Folder/naïve page 3.png'))).equals(entries[2]!.data)).toBe(true);
      expect((await readAll(await book.openEntry('*.png'))).equals(entries[3]!.data)).toBe(true);
      await expect(book.openEntry('missing.png')).rejects.toMatchObject({ code: 'ERR_1033' });
    } finally {
      book.close();
    }
  });

  it('unpacks the next members of a solid block with the page asked for: the next turns cost no 7-Zip call', async () => {
    const entries = await pngEntries([RED, GREEN, BLUE, YELLOW, RED]);
    const path = join(dir, 'turning.cb7');
    await writeSevenZip(path, entries);
    const book = await sevenZipReader.open(path);
    try {
      expect((await readAll(await book.openEntry('page-1.png'))).equals(entries[0]!.data)).toBe(true);
      const calls = sevenZip.calls;
      for (const entry of entries.slice(1)) expect((await readAll(await book.openEntry(entry.name))).equals(entry.data)).toBe(true);
      expect(sevenZip.calls).toBe(calls);
    } finally {
      book.close();
    }
    // A rewritten file is a new key: its pages are unpacked afresh, never served from the old bytes.
    const replaced = await pngEntries([BLUE, BLUE, BLUE, BLUE, BLUE]);
    await rm(path);
    await writeSevenZip(path, replaced);
    await utimes(path, new Date(), new Date(Date.now() + 5_000));
    const again = await sevenZipReader.open(path);
    try {
      expect((await readAll(await again.openEntry('page-2.png'))).equals(replaced[1]!.data)).toBe(true);
    } finally {
      again.close();
    }
  });

  it('ends a call over its time limit (a time limit, retried later) and starts a fresh worker; a full queue is busy', async () => {
    const path = join(dir, 'timed.cb7');
    await writeSevenZip(path, await pngEntries([RED]));
    const client = new SevenZipClient({ timeLimitMs: 1, maxWaiting: 1 });
    const { file, handle } = await checkedBook(path);
    try {
      const first = client.call({ op: 'list', file, maxMembers: 10 });
      const second = client.call({ op: 'list', file, maxMembers: 10 });
      // One running, one waiting: the next is refused at once, as a busy server (503), not an error.
      await expect(client.call({ op: 'list', file, maxMembers: 10 })).rejects.toBeInstanceOf(ServerBusy);
      await expect(first).rejects.toBeInstanceOf(OperationTimeout);
      await expect(second).rejects.toBeInstanceOf(OperationTimeout);
      expect(isTransientFailure(await first.catch((error: unknown) => error))).toBe(true);
      client.timeLimitMs = 60_000;
      await expect(client.call({ op: 'list', file, maxMembers: 10 })).resolves.toMatchObject({ members: [{ name: 'page-1.png' }] });
    } finally {
      await client.stop();
      await handle.close();
    }
  });

  it('stopping the worker ends the call in flight as busy (asked again later), instead of leaving it waiting for ever', async () => {
    const path = join(dir, 'stopped.cb7');
    await writeSevenZip(path, await pngEntries([RED]));
    const client = new SevenZipClient();
    const { file, handle } = await checkedBook(path);
    // Handled from the start: the rejection comes during stop(), before the next line awaits it.
    const refused = expect(client.call({ op: 'list', file, maxMembers: 10 })).rejects.toBeInstanceOf(ServerBusy);
    // Before the shared SerialWorker, stop() dropped the worker without settling this call.
    await client.stop();
    await refused;
    await expect(client.call({ op: 'list', file, maxMembers: 10 })).resolves.toMatchObject({ members: [{ name: 'page-1.png' }] });
    await client.stop();
    await handle.close();
  });

  it('refuses encrypted and damaged archives with ERR_1008', async () => {
    const one = await pngEntries([RED]);
    const encrypted = join(dir, 'encrypted.cb7');
    await writeSevenZip(encrypted, one, { password: 'secret' });
    await expect(analyseContainer(encrypted)).rejects.toMatchObject({ name: 'MediaError', code: 'ERR_1008' });
    const good = join(dir, 'to-damage.cb7');
    await writeSevenZip(good, await pngEntries([RED, GREEN, BLUE]));
    const bytes = await readFile(good);
    const truncated = join(dir, 'truncated.cb7');
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(analyseContainer(truncated)).rejects.toMatchObject({ name: 'MediaError', code: 'ERR_1008' });
    const signatureOnly = join(dir, 'signature-only.7z');
    await writeFile(signatureOnly, Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04]), Buffer.alloc(56)]));
    await expect(analyseContainer(signatureOnly)).rejects.toMatchObject({ name: 'MediaError', code: 'ERR_1008' });
  });

  it('refuses a member over the page limit with ERR_1007, unpacking it without holding it', async () => {
    const path = join(dir, 'huge-member.cb7');
    const page = await pngEntries([GREEN]);
    // Zeros pack to almost nothing; declared (and real) size is one byte over the limit.
    await writeSevenZip(path, [...page, { name: 'page-2.png', data: Buffer.alloc(MAX_7Z_MEMBER_BYTES + 1) }], { level: 1 });
    const before = process.memoryUsage().rss;
    const analysis = await analyseContainer(path);
    // The zeros are no image: a file, not a page; the real page is still read.
    expect(analysis.pages.map((p) => p.fileName)).toEqual(['page-1.png']);
    const book = await analysis.reader.open(path);
    try {
      await expect(book.openEntry('page-2.png')).rejects.toMatchObject({ name: 'MediaError', code: 'ERR_1007' });
      expect((await readAll(await book.openEntry('page-1.png'))).equals(page[0]!.data)).toBe(true);
    } finally {
      book.close();
    }
    // Analysis unpacked all 128 MiB to look at the first bytes; memory grew by far less than that.
    expect(process.memoryUsage().rss - before).toBeLessThan(96 * 1024 * 1024);
  }, 60_000);
});

/**
 * The whole server with a library of 7-Zip books: good ones (solid .cb7, non-solid .7z, PPMd) are
 * READY and serve their exact page bytes, conversions and thumbnails; broken ones end in ERROR.
 */
describe('7z books through the server', () => {
  let server: TestServer;
  let books: Map<string, BookDto>;
  const written = new Map<string, SevenZipEntry[]>();

  beforeAll(async () => {
    server = await startServer();
    const root = join(server.dir, 'library');
    const sevens = join(root, 'Sevens');
    written.set('solid', await pngEntries([RED, GREEN, BLUE]));
    written.set('loose', await pngEntries([YELLOW, RED]));
    written.set('ppmd', await pngEntries([BLUE]));
    await writeSevenZip(join(sevens, 'solid.cb7'), written.get('solid')!);
    await writeSevenZip(join(sevens, 'loose.7z'), written.get('loose')!, { solid: false });
    await writeSevenZip(join(sevens, 'ppmd.cb7'), written.get('ppmd')!, { method: 'PPMd' });
    const broken = join(root, 'Broken Sevens');
    await writeSevenZip(join(broken, 'encrypted.cb7'), written.get('ppmd')!, { password: 'secret' });
    await writeFile(join(broken, 'signature-only.cb7'), Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04]), Buffer.alloc(56)]));
    await writeSevenZip(join(broken, 'not-images.cb7'), [{ name: 'readme.txt', data: Buffer.from('hello') }]);
    await addLibrary(server, root);
    const page = await server.json<Page<BookDto>>('/api/v1/books?unpaged=true');
    books = new Map(page.content.map((b) => [b.name, b]));
  }, 60_000);
  afterAll(async () => server.close());

  it.each(['solid', 'loose', 'ppmd'])('serves the exact page bytes of %s, a conversion and a thumbnail', async (name) => {
    const book = books.get(name)!;
    const entries = written.get(name)!;
    expect(book.media).toMatchObject({ status: 'READY', mediaType: 'application/x-7z-compressed', mediaProfile: 'DIVINA', pagesCount: entries.length });
    const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
    expect(pages.map((p) => [p.fileName, p.mediaType, p.width, p.height, p.sizeBytes])).toEqual(
      entries.map((e) => [e.name, 'image/png', 60, 90, e.data.length]),
    );
    for (const [i, entry] of entries.entries()) {
      const response = await server.get(`/api/v1/books/${book.id}/pages/${i + 1}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.rawPayload.equals(entry.data)).toBe(true);
    }
    const converted = await server.get(`/api/v1/books/${book.id}/pages/1?convert=jpeg`);
    expect((await sharp(converted.rawPayload).metadata()).format).toBe('jpeg');
    const thumbnail = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    expect((await sharp(thumbnail.rawPayload).metadata()).format).toBe('jpeg');
  });

  it.each([
    ['encrypted', 'ERR_1008'],
    ['signature-only', 'ERR_1008'],
    ['not-images', 'ERR_1006'],
  ])('marks %s as ERROR %s and refuses its pages', async (name, code) => {
    const book = books.get(name)!;
    expect(book.media).toMatchObject({ status: 'ERROR', comment: code, pagesCount: 0 });
    expect((await server.get(`/api/v1/books/${book.id}/pages/1`)).statusCode).toBe(404);
    expect((await server.get('/api/v2/users/me')).statusCode).toBe(200);
  });
});

describe('the bound on analysing one 7z book', () => {
  let server: TestServer;
  let root: string;
  const defaults = { ...analysisBounds };
  const defaultTimeLimit = sevenZip.timeLimitMs;
  beforeAll(async () => {
    server = await startServer();
    root = join(server.dir, 'library');
  });
  afterAll(async () => {
    Object.assign(analysisBounds, defaults);
    sevenZip.timeLimitMs = defaultTimeLimit;
    await server.close();
  });

  /** `count` real pages, each padded (with random bytes if `random`) past the 64 KiB analysis reads whole. */
  async function paddedPages(count: number, padding: number, random = false): Promise<SevenZipEntry[]> {
    const page = await renderPage({ width: 60, height: 90, color: BLUE, format: 'png' });
    return Array.from({ length: count }, (_, i) => ({
      name: `${String(i).padStart(3, '0')}.png`,
      data: Buffer.concat([page, random ? randomBytes(padding) : Buffer.alloc(padding, i + 1)]),
    }));
  }

  /**
   * 40 pages of 100 KiB in one solid block, the last one damaged: 7-Zip's one pass over every
   * member fails, so analysis reads the members one by one, and each read unpacks the block from
   * its start up to its member (40 reads of 2 MiB on average, 84 MB in all). The pages are random
   * bytes, which LZMA2 stores as they are (Copy is never solid), so the last one can be found in
   * the file and damaged.
   */
  async function damagedSolidBook(path: string): Promise<void> {
    const entries = await paddedPages(40, 100 * 1024, true);
    await writeSevenZip(path, entries, { level: 1 });
    const bytes = await readFile(path);
    // Stored in chunks of 64 KiB with a header each: a 64-byte run of the last page is found whole.
    const last = entries.at(-1)!.data;
    const at = [1_000, 2_000, 3_000].map((from) => bytes.indexOf(last.subarray(last.length - from, last.length - from + 64))).find((found) => found > 0);
    expect(at).toBeGreaterThan(0);
    bytes[at!]! ^= 0xff;
    await writeFile(path, bytes);
  }

  it('ends the analysis of a solid book read member by member once it unpacks past the bound (ERR_1008, saying why)', async () => {
    const path = join(server.dir, 'damaged-solid.cb7');
    await damagedSolidBook(path);
    analysisBounds.unpackedBytes = 16 * 1024 * 1024;
    const calls = sevenZip.calls;
    try {
      // Before: no bound on the reads one by one; the book analysed as 40 pages (one failed) in
      // 42 calls, however much each read unpacked again.
      const failure = await analyseContainer(path).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AnalysisTooCostly);
      expect(failure).toMatchObject({
        code: 'ERR_1008',
        message: expect.stringMatching(/^7z book .*damaged-solid\.cb7: analysis would unpack \d+ bytes, over the 16777216-byte limit for one book$/),
      });
      expect(isTransientFailure(failure)).toBe(false);
      // The listing, the one pass, and the reads one by one until the next would go past the bound.
      expect(sevenZip.calls - calls).toBeLessThan(25);
    } finally {
      analysisBounds.unpackedBytes = defaults.unpackedBytes;
    }
  });

  it('ends the analysis of a book whose 7-Zip calls always run out of time after a few of them, instead of putting it off again and again', async () => {
    const path = join(server.dir, 'always-late.cb7');
    await writeSevenZip(path, await paddedPages(5, 1024));
    const book = await sevenZipReader.open(path);
    // Every call from here on runs out of time: each has a fresh worker (a time-out ends the
    // worker; this stop ends the warm one), which alone takes longer than 1 ms to start.
    await sevenZip.stop();
    const calls = sevenZip.calls;
    sevenZip.timeLimitMs = 1;
    analysisBounds.workMs = 5;
    try {
      // Before: the first time-out put the whole analysis off (transient), and the next attempt,
      // and the 12 after it, did the same, each holding the worker for a whole time limit.
      const failure = await analyseOpened(sevenZipReader, book).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AnalysisTooCostly);
      expect(failure).toMatchObject({
        code: 'ERR_1008',
        message: expect.stringMatching(/^7z book .*always-late\.cb7: analysis took 6 ms of 7-Zip's time \(6 calls ran out of their time limit\), over the 5 ms limit for one book$/),
      });
      expect(isTransientFailure(failure)).toBe(false);
      expect(sevenZip.calls - calls).toBe(6);
    } finally {
      sevenZip.timeLimitMs = defaultTimeLimit;
      analysisBounds.workMs = defaults.workMs;
      book.close();
    }
  });

  it('tries a call that ran out of time again (a loaded machine) and analyses the book', async () => {
    const path = join(server.dir, 'once-late.cb7');
    const entries = await paddedPages(5, 1024);
    await writeSevenZip(path, entries);
    const book = await sevenZipReader.open(path);
    const calls = sevenZip.calls;
    sevenZip.timeLimitMs = 1;
    try {
      const analysis = analyseOpened(sevenZipReader, book);
      // The first call (or the first few) run out of time; the next ones have the usual limit.
      await pollUntil('a 7-Zip call to run out of time', () => sevenZip.calls > calls, { intervalMs: 1 });
      sevenZip.timeLimitMs = defaultTimeLimit;
      // Before: the time-out put the analysis off (OperationTimeout).
      expect((await analysis).pages.map((p) => [p.fileName, p.width])).toEqual(entries.map((e) => [e.name, 60]));
      expect(sevenZip.calls - calls).toBeGreaterThan(1);
    } finally {
      sevenZip.timeLimitMs = defaultTimeLimit;
      book.close();
    }
  });

  it('is not reached by a call cut short by the server (the worker stopped): that is not the book’s doing', async () => {
    const path = join(server.dir, 'stopped.cb7');
    // Big enough that the one pass is still running when the poll below sees it.
    await writeSevenZip(path, await paddedPages(40, 1024 * 1024), { level: 1 });
    const book = await sevenZipReader.open(path);
    const calls = sevenZip.calls;
    analysisBounds.workMs = 0;
    try {
      const analysis = analyseOpened(sevenZipReader, book).catch((error: unknown) => error);
      await pollUntil('the one pass in the worker', () => sevenZip.calls === calls + 1 && sevenZip.inFlight(), { intervalMs: 1 });
      await sevenZip.stop();
      const failure = await analysis;
      expect(failure).not.toBeInstanceOf(AnalysisTooCostly);
      expect(isTransientFailure(failure)).toBe(true);
    } finally {
      analysisBounds.workMs = defaults.workMs;
      book.close();
    }
  });

  it('analyses a solid book whose prefixes do not fit in one pass in a few passes, not member by member', async () => {
    const path = join(server.dir, 'long-solid.cb7');
    const entries = await paddedPages(40, 70 * 1024);
    await writeSevenZip(path, entries, { level: 1 });
    const keptBytes = sevenZipAnalysisPass.keptBytes;
    // 16 prefixes of 64 KiB a pass, as 1,024 are with the real 64 MiB: a book of 40 takes 3 passes.
    sevenZipAnalysisPass.keptBytes = 1024 * 1024;
    const calls = sevenZip.calls;
    try {
      // Before: one pass, then the 24 members it could not keep read one by one, each unpacking the
      // block from its start again (a real solid book of 2,000 pages: 1,000 reads of 1-2 GB each).
      const analysis = await analyseContainer(path);
      expect(analysis.pages.map((p) => [p.fileName, p.width])).toEqual(entries.map((e) => [e.name, 60]));
      expect(sevenZip.calls - calls).toBe(1 + 3);
    } finally {
      sevenZipAnalysisPass.keptBytes = keptBytes;
    }
  });

  it('records such a book as ERROR while the other books of the library read', async () => {
    await damagedSolidBook(join(root, 'Big', 'big.cb7'));
    await writeSevenZip(join(root, 'Small', 'small.cb7'), await paddedPages(2, 100));
    analysisBounds.unpackedBytes = 16 * 1024 * 1024;
    try {
      await addLibrary(server, root);
    } finally {
      analysisBounds.unpackedBytes = defaults.unpackedBytes;
    }
    const books = new Map((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b]));
    expect(books.get('big')!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1008', pagesCount: 0 });
    expect(books.get('small')!.media).toMatchObject({ status: 'READY', pagesCount: 2 });
  });
});

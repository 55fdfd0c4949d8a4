import { copyFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import type { BookDto, LibraryDto, Page } from '../../../src/api/types.ts';
import { edgePageNumbers } from '../../../server/domain/hashing/page-hashing.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import type { HistoricalEventDto } from '../../../server/http/dto/history-dto.ts';
import { BLUE, CYAN, createCbz, createSampleLibrary, GREEN, MAGENTA, RED, type PageSpec, type Rgb, WHITE, type WrittenBook, YELLOW } from '../../fixtures/index.ts';
import { writeRar4 } from '../../fixtures/rar.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = server.admin) =>
  server.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const idle = () => server.app.folio.tasks.idle();

/** Entry names of a zip file on disk, in order. */
function zipEntries(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('GET /api/v1/books/duplicates', () => {
  it('lists live books sharing a file hash, admins only', async () => {
    const sample = await createSampleLibrary(join(server.dir, 'library'));
    await copyFile(sample.series[0]!.books[0]!.path, join(sample.series[1]!.path, 'Alpha copy.cbz'));
    await addLibrary(server, sample.root);
    const page = await server.json<Page<BookDto>>('/api/v1/books/duplicates');
    expect(page.content.map((b) => b.name).sort()).toEqual(['Alpha 01', 'Alpha copy']);
    expect(new Set(page.content.map((b) => b.fileHash)).size).toBe(1);
    expect(page.content[0]!.fileHash).not.toBe('');
    await insertUser(server, 'user@example.org', 'pw', ['FILE_DOWNLOAD']);
    expect((await server.get('/api/v1/books/duplicates', { authorization: basic('user@example.org', 'pw') })).statusCode).toBe(403);
  });
});

describe('page hashes', () => {
  const png = (color: Rgb, size = 60): PageSpec => ({ width: size, height: size * 1.5, color, format: 'png' });
  const credit = png(WHITE, 40);
  let books: Record<string, WrittenBook>;
  let library: LibraryDto;
  let creditHash: string;

  /**
   * A book whose only page is the credit page (Z 01, scanned), the credit marked for deletion, and
   * X 01 altered on disk behind the server's back (same name, different content). Returns Z 01's path.
   */
  async function aLoneCreditBookAndX1ChangedOnDisk(): Promise<string> {
    const lone = join(server.dir, 'hashed', 'Z', 'Z 01.cbz');
    await createCbz(lone, [credit]);
    await send('POST', `/api/v1/libraries/${library.id}/scan`);
    await idle();
    await send('PUT', '/api/v1/page-hashes', { hash: creditHash, action: 'DELETE_MANUAL' });
    await createCbz(books.x1!.path, [credit, png(RED)]);
    return lone;
  }

  beforeEach(async () => {
    const root = join(server.dir, 'hashed');
    books = {
      x1: await createCbz(join(root, 'X', 'X 01.cbz'), [credit, png(RED), png(GREEN)]),
      x2: await createCbz(join(root, 'X', 'X 02.cbz'), [credit, png(BLUE), png(YELLOW)], { compress: true }),
      y1: await createCbz(join(root, 'Y', 'Y 01.cbz'), [png(CYAN), png(MAGENTA), credit]),
    };
    const response = await send('POST', '/api/v1/libraries', { name: 'Hashed', root, hashPages: true });
    expect(response.statusCode).toBe(200);
    library = response.json() as LibraryDto;
    await idle();
    const unknown = await server.json<Page<{ hash: string; size: number; matchCount: number }>>('/api/v1/page-hashes/unknown');
    // Only the credit page is shared; every other page is unique.
    expect(unknown.content).toHaveLength(1);
    expect(unknown.content[0]).toMatchObject({ matchCount: 3, size: books.x1!.pages[0]!.bytes.length });
    creditHash = unknown.content[0]!.hash;
    expect(creditHash).toMatch(/^[0-9a-f]{16}$/);
  });

  const bookByName = async (name: string) =>
    (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.find((b) => b.name === name)!;

  it('lists matches, turns an unknown hash into a known one with an action, and previews it', async () => {
    const matches = await server.json<Page<{ bookId: string; pageNumber: number; fileName: string; url: string; mediaType: string }>>(
      `/api/v1/page-hashes/${creditHash}`,
    );
    expect(matches.totalElements).toBe(3);
    expect(matches.content.map((m) => [m.url, m.pageNumber, m.fileName])).toEqual([
      [books.x1!.path, 1, 'page-001.png'],
      [books.x2!.path, 1, 'page-001.png'],
      [books.y1!.path, 3, 'page-003.png'],
    ]);

    expect((await send('PUT', '/api/v1/page-hashes', { hash: creditHash, action: 'bogus' })).statusCode).toBe(400);
    expect((await send('PUT', '/api/v1/page-hashes', { hash: creditHash, action: 'DELETE_MANUAL', size: 123 })).statusCode).toBe(202);
    expect((await server.json<Page<unknown>>('/api/v1/page-hashes/unknown')).totalElements).toBe(0);
    const known = await server.json<Page<Record<string, unknown>>>('/api/v1/page-hashes?action=DELETE_MANUAL');
    expect(known.content).toEqual([
      expect.objectContaining({ hash: creditHash, size: 123, action: 'DELETE_MANUAL', deleteCount: 0, matchCount: 3 }),
    ]);
    expect(known.content[0]!.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);
    expect((await server.json<Page<unknown>>('/api/v1/page-hashes?action=IGNORE')).totalElements).toBe(0);

    const thumb = await server.get(`/api/v1/page-hashes/${creditHash}/thumbnail`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 40, 60]);
    const small = await server.get(`/api/v1/page-hashes/unknown/${creditHash}/thumbnail?resize=20`);
    expect((await sharp(small.rawPayload).metadata()).height).toBe(20);
    expect((await server.get('/api/v1/page-hashes/ffff/thumbnail')).statusCode).toBe(404);
  });

  it('an administrator with content restrictions sees only the matches in books they may see', async () => {
    const otherRoot = join(server.dir, 'other');
    const other = await createCbz(join(otherRoot, 'Z', 'Z 01.cbz'), [credit, png(RED, 70)]);
    const created = await send('POST', '/api/v1/libraries', { name: 'Other', root: otherRoot, hashPages: true });
    const otherLibrary = created.json() as LibraryDto;
    await idle();
    const id = await insertUser(server, 'limited@example.org', 'pw', ['ADMIN']);
    const user = server.app.folio.repos.users.findById(id)!;
    server.app.folio.repos.users.update({ ...user, sharedAllLibraries: false, sharedLibraryIds: [otherLibrary.id] });
    const limited = { authorization: basic('limited@example.org', 'pw') };

    expect((await server.json<Page<unknown>>(`/api/v1/page-hashes/${creditHash}`)).totalElements).toBe(4);
    const matches = await server.json<Page<{ url: string }>>(`/api/v1/page-hashes/${creditHash}`, limited);
    expect(matches.content.map((m) => m.url)).toEqual([other.path]);
    // Shared by one visible page only: not a duplicate for this administrator.
    expect((await server.json<Page<unknown>>('/api/v1/page-hashes/unknown', limited)).totalElements).toBe(0);
    expect((await server.json<Page<unknown>>('/api/v1/page-hashes/unknown')).totalElements).toBe(1);
  });

  it('deletes one match by rewriting the archive, keeping the other pages intact', async () => {
    await send('PUT', '/api/v1/page-hashes', { hash: creditHash, action: 'DELETE_MANUAL' });
    const x2 = await bookByName('X 02');
    expect((await send('POST', `/api/v1/page-hashes/${creditHash}/delete-match`, { bookId: x2.id, pageNumber: 2 })).statusCode).toBe(404);
    const response = await send('POST', `/api/v1/page-hashes/${creditHash}/delete-match`, {
      bookId: x2.id,
      pageNumber: 1,
      fileName: 'page-001.png',
    });
    expect(response.statusCode).toBe(202);
    await idle();

    expect(await zipEntries(books.x2!.path)).toEqual(['page-002.png', 'page-003.png']);
    expect((await readdir(join(server.dir, 'hashed', 'X'))).sort()).toEqual(['X 01.cbz', 'X 02.cbz']);
    const after = await bookByName('X 02');
    expect(after.media).toMatchObject({ status: 'READY', pagesCount: 2 });
    // The re-analysed book serves the remaining pages byte for byte.
    const first = await server.get(`/api/v1/books/${x2.id}/pages/1`);
    expect(first.rawPayload.equals(books.x2!.pages[1]!.bytes)).toBe(true);

    const history = await server.json<Page<HistoricalEventDto>>('/api/v1/history');
    expect(history.content).toEqual([
      expect.objectContaining({
        type: 'DuplicatePageDeleted',
        bookId: x2.id,
        properties: expect.objectContaining({ name: books.x2!.path, 'page file name': 'page-001.png', 'page file hash': creditHash, 'page number': '1' }),
      }),
    ]);
    const [known] = (await server.json<Page<{ deleteCount: number; matchCount: number }>>('/api/v1/page-hashes')).content;
    expect(known).toMatchObject({ deleteCount: 1, matchCount: 2 });
  });

  it('removes DELETE_AUTO pages from every book on the next scan', async () => {
    expect((await send('PUT', '/api/v1/page-hashes', { hash: creditHash, action: 'DELETE_AUTO' })).statusCode).toBe(202);
    expect((await send('POST', `/api/v1/libraries/${library.id}/scan`)).statusCode).toBe(202);
    await idle();
    expect(await zipEntries(books.x1!.path)).toEqual(['page-002.png', 'page-003.png']);
    expect(await zipEntries(books.x2!.path)).toEqual(['page-002.png', 'page-003.png']);
    expect(await zipEntries(books.y1!.path)).toEqual(['page-001.png', 'page-002.png']);
    const history = await server.json<Page<HistoricalEventDto>>('/api/v1/history');
    expect(history.content.map((e) => e.type)).toEqual(Array(3).fill('DuplicatePageDeleted'));
    const [known] = (await server.json<Page<{ deleteCount: number; matchCount: number }>>('/api/v1/page-hashes')).content;
    expect(known).toMatchObject({ deleteCount: 3, matchCount: 0 });
    expect((await bookByName('Y 01')).media.pagesCount).toBe(2);
  });

  it('never empties a book, and leaves a book whose file changed since analysis alone', async () => {
    const lone = await aLoneCreditBookAndX1ChangedOnDisk();
    expect((await send('POST', `/api/v1/page-hashes/${creditHash}/delete-all`)).statusCode).toBe(202);
    await idle();
    expect(await zipEntries(lone)).toEqual(['page-001.png']);
    expect(await zipEntries(books.x1!.path)).toEqual(['page-001.png', 'page-002.png']);
    expect(await zipEntries(books.x2!.path)).toEqual(['page-002.png', 'page-003.png']);
    expect(await zipEntries(books.y1!.path)).toEqual(['page-001.png', 'page-002.png']);
    expect((await server.json<Page<unknown>>('/api/v1/history')).totalElements).toBe(2);
    expect((await send('POST', '/api/v1/page-hashes/0000000000000000/delete-all')).statusCode).toBe(404);
  });

  it('tells the administrators why a removal did nothing (TaskFailed), and says nothing of the books it rewrote', async () => {
    const lone = await aLoneCreditBookAndX1ChangedOnDisk();
    const failed: Extract<FolioEvent, { name: 'TaskFailed' }>[] = [];
    const stop = server.app.folio.events.subscribe((event) => {
      if (event.name === 'TaskFailed') failed.push(event);
    });
    try {
      expect((await send('POST', `/api/v1/page-hashes/${creditHash}/delete-all`)).statusCode).toBe(202);
      await idle();
    } finally {
      stop();
    }
    const [x1, z1] = [await bookByName('X 01'), await bookByName('Z 01')];
    const said = failed.map((e) => e.data).sort((a, b) => a.bookId.localeCompare(b.bookId));
    expect(said).toEqual(
      [
        { taskType: 'RemoveHashedPages', bookId: x1.id, pageHashes: [creditHash], reason: 'book-changed' },
        { taskType: 'RemoveHashedPages', bookId: z1.id, pageHashes: [creditHash], reason: 'last-pages' },
      ].sort((a, b) => a.bookId.localeCompare(b.bookId)),
    );
    expect(failed.every((e) => e.adminOnly)).toBe(true);
  });

  it('hashes RAR pages too but only removes pages from CBZ books', async () => {
    await writeRar4(join(server.dir, 'hashed', 'R', 'R 01.cbr'), [
      { name: 'a.png', data: books.x1!.pages[0]!.bytes },
      { name: 'b.png', data: books.x1!.pages[1]!.bytes },
    ]);
    await send('POST', `/api/v1/libraries/${library.id}/scan`);
    await idle();
    const rar = await bookByName('R 01');
    expect(rar.media.status).toBe('READY');
    const matches = await server.json<Page<{ bookId: string }>>(`/api/v1/page-hashes/${creditHash}`);
    expect(matches.content.map((m) => m.bookId)).toContain(rar.id);
    await send('PUT', '/api/v1/page-hashes', { hash: creditHash, action: 'DELETE_MANUAL' });
    const refused = await send('POST', `/api/v1/page-hashes/${creditHash}/delete-match`, { bookId: rar.id, pageNumber: 1 });
    expect(refused.statusCode).toBe(400);
    expect((await send('POST', `/api/v1/page-hashes/${creditHash}/delete-all`)).statusCode).toBe(202);
    await idle();
    expect((await bookByName('R 01')).media.pagesCount).toBe(2);
    expect((await server.json<Page<unknown>>('/api/v1/history')).totalElements).toBe(3);
  });

  it('hashes only the first and last pages of a book', () => {
    expect(edgePageNumbers(2)).toEqual([1, 2]);
    expect(edgePageNumbers(10)).toEqual([1, 2, 3, 8, 9, 10]);
  });
});

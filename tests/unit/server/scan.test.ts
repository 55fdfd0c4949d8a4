import { mkdir, readFile, rm, writeFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto, SeriesDto } from '../../../src/api/types.ts';
import { BLUE, GREEN, RED, createCbz, createSampleLibrary, lyingPng, renderPage, type SampleLibrary } from '../../fixtures/index.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';
import { addLibrary, rescan, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let sample: SampleLibrary;
beforeEach(async () => {
  server = await startServer();
  sample = await createSampleLibrary(join(server.dir, 'library'));
});
afterEach(async () => {
  await server.close();
});

async function booksByName(): Promise<Map<string, BookDto>> {
  const page = await server.json<Page<BookDto>>('/api/v1/books?unpaged=true');
  return new Map(page.content.map((b) => [b.name, b]));
}

describe('scanning the sample library', () => {
  it('finds one series per folder and one book per archive', async () => {
    const library = await addLibrary(server, sample.root);
    const series = await server.json<Page<SeriesDto>>('/api/v1/series');
    expect(series.content.map((s) => s.name)).toEqual(['Alpha', 'Beta', 'Broken']);
    const alpha = series.content[0]!;
    expect(alpha).toMatchObject({ libraryId: library.id, booksCount: 2, booksUnreadCount: 2, deleted: false });
    expect(alpha.metadata.title).toBe('Alpha');
    expect(alpha.url).toBe(join(sample.root, 'Alpha'));

    const books = await server.json<Page<BookDto>>(`/api/v1/series/${alpha.id}/books`);
    expect(books.content.map((b) => [b.name, b.number, b.metadata.number, b.metadata.numberSort])).toEqual([
      ['Alpha 01', 1, '1', 1],
      ['Alpha 02', 2, '2', 2],
    ]);
    expect(books.content[0]).toMatchObject({ seriesTitle: 'Alpha', media: { status: 'READY', pagesCount: 3, mediaType: 'application/zip', mediaProfile: 'DIVINA' } });
  });

  it('describes pages in order with type and size read from headers', async () => {
    await addLibrary(server, sample.root);
    const books = await booksByName();
    const alpha1 = books.get('Alpha 01')!;
    const pages = await server.json<PageDto[]>(`/api/v1/books/${alpha1.id}/pages`);
    expect(pages).toEqual(
      sample.series[0]!.books[0]!.pages.map((p, i) => ({
        number: i + 1,
        fileName: p.name,
        mediaType: 'image/png',
        width: 600,
        height: 900,
        sizeBytes: p.bytes.length,
        size: expect.stringMatching(/KiB$/),
      })),
    );
    const beta = await server.json<PageDto[]>(`/api/v1/books/${books.get('Beta 01')!.id}/pages`);
    expect(beta.map((p) => [p.mediaType, p.width, p.height])).toEqual([
      ['image/jpeg', 800, 1200],
      ['image/jpeg', 800, 1200],
    ]);
  });

  it('marks the file that is no archive at all UNSUPPORTED (ERR_1001, as Komga) and keeps serving', async () => {
    await addLibrary(server, sample.root);
    const broken = (await booksByName()).get('broken')!;
    expect(broken.media.status).toBe('UNSUPPORTED');
    expect(broken.media.comment).toBe('ERR_1001');
    const pages = await server.get(`/api/v1/books/${broken.id}/pages`);
    expect(pages.statusCode).toBe(404);
    expect(pages.json().message).toBe('Book format is not supported');
    expect((await server.get('/api/v2/users/me')).statusCode).toBe(200);
  });

  it('scans 7-Zip comics (.cb7, .7z) as books and reads them', async () => {
    const page = { name: 'page 1.png', data: await renderPage({ width: 10, height: 20, color: RED, format: 'png' }) };
    await writeSevenZip(join(sample.root, 'Seven', 'Seven 01.cb7'), [page]);
    await writeSevenZip(join(sample.root, 'Seven', 'Seven 02.7z'), [page], { solid: false });
    await addLibrary(server, sample.root);
    const books = await booksByName();
    for (const name of ['Seven 01', 'Seven 02']) {
      expect(books.get(name)?.media).toMatchObject({ status: 'READY', mediaType: 'application/x-7z-compressed', pagesCount: 1 });
    }
  });

  it('orders pages naturally, ignores non-images and entries whose names would escape the archive', async () => {
    const spec = (color: [number, number, number], name: string) => ({ width: 10, height: 20, color, format: 'png' as const, name });
    await createCbz(join(sample.root, 'Gamma', 'Gamma.cbz'), [spec(RED, 'page 10.png'), spec(GREEN, 'page 2.png'), spec(BLUE, 'page 1.png')], {
      extraEntries: [
        { name: 'notes.txt', data: Buffer.from('hello') },
        { name: '../escape.png', data: await renderPage({ width: 5, height: 5, color: RED, format: 'png' }) },
        { name: '/tmp/absolute.png', data: await renderPage({ width: 5, height: 5, color: RED, format: 'png' }) },
        { name: 'sub/../../up.png', data: await renderPage({ width: 5, height: 5, color: RED, format: 'png' }) },
        { name: '..\\back.png', data: await renderPage({ width: 5, height: 5, color: RED, format: 'png' }) },
        { name: 'C:\\drive.png', data: await renderPage({ width: 5, height: 5, color: RED, format: 'png' }) },
      ],
      compress: true,
    });
    // A real file where "../escape.png" would point if the name were used as a path.
    const decoy = await renderPage({ width: 7, height: 7, color: BLUE, format: 'png' });
    await writeFile(join(sample.root, 'escape.png'), decoy);
    await addLibrary(server, sample.root);
    const gamma = (await booksByName()).get('Gamma')!;
    const pages = await server.json<PageDto[]>(`/api/v1/books/${gamma.id}/pages`);
    expect(pages.map((p) => p.fileName)).toEqual(['page 1.png', 'page 2.png', 'page 10.png']);
    // Not even listed among the other files of the book.
    const files = server.app.folio.repos.media.findFiles(gamma.id).map((f) => f.fileName);
    expect(files).toEqual(['notes.txt']);
    // Page 1 is the archive's own first page, never the decoy the hostile name points at.
    const first = await server.get(`/api/v1/books/${gamma.id}/pages/1`);
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(decoy)).toBe(false);
  });

  it('reads page headers several at a time, and an unreadable page among them only marks its book ERR_1007', async () => {
    const pages = Array.from({ length: 12 }, (_, i) => ({ width: 10 + i, height: 20, color: RED, format: 'png' as const, name: `page ${i + 1}.png` }));
    const file = join(sample.root, 'Long', 'Long.cbz');
    await createCbz(file, pages);
    // Page 6's local header loses its signature: that entry cannot be read, its neighbours can.
    const bytes = await readFile(file);
    const header = bytes.indexOf('page 6.png') - 30;
    expect(bytes.readUInt32LE(header)).toBe(0x04034b50);
    bytes.writeUInt32LE(0x05034b50, header);
    await writeFile(file, bytes);
    await addLibrary(server, sample.root);
    const books = await booksByName();
    expect(books.get('Long')!.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 12 });
    const listed = await server.json<PageDto[]>(`/api/v1/books/${books.get('Long')!.id}/pages`);
    // Every slot in natural order; the unreadable one without dimensions.
    expect(listed.map((p) => [p.fileName, p.width])).toEqual(pages.map((p, i) => [p.name, i === 5 ? null : p.width]));
    // The rest of the library is unaffected: the sample's books READY, its broken file not.
    expect(books.get('Alpha 01')!.media.status).toBe('READY');
    expect(books.get('broken')!.media.status).toBe('UNSUPPORTED');
  });

  it('flags a book none of whose pages can be read as one without pages (ERR_1006, as Komga)', async () => {
    const pages = [1, 2].map((n) => ({ width: 10, height: 20, color: RED, format: 'png' as const, name: `page ${n}.png` }));
    const file = join(sample.root, 'Locked', 'Locked.cbz');
    await createCbz(file, pages);
    // Every entry says it was packed by a method no reader knows (as entries only a password or a
    // newer tool would open): the archive lists fine, no page can be read.
    const bytes = await readFile(file);
    for (const page of pages) {
      bytes.writeUInt16LE(99, bytes.indexOf(page.name) - 30 + 8);
      bytes.writeUInt16LE(99, bytes.lastIndexOf(page.name) - 46 + 10);
    }
    await writeFile(file, bytes);
    await addLibrary(server, sample.root);
    const book = (await booksByName()).get('Locked')!;
    expect(book.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1006', pagesCount: 0 });
    expect((await server.get(`/api/v1/books/${book.id}/pages`)).statusCode).toBe(404);
  });

  it('treats an image whose header lies (absurd size) as a bad page: ERR_1007, no invented dimensions', async () => {
    await createCbz(join(sample.root, 'Liar', 'Liar.cbz'), [{ width: 10, height: 20, color: RED, format: 'png', name: 'page 1.png' }], {
      extraEntries: [{ name: 'page 2.png', data: lyingPng() }],
    });
    await addLibrary(server, sample.root);
    const liarBook = (await booksByName()).get('Liar')!;
    expect(liarBook.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
    const pages = await server.json<PageDto[]>(`/api/v1/books/${liarBook.id}/pages`);
    expect(pages.map((p) => [p.fileName, p.width, p.height])).toEqual([
      ['page 1.png', 10, 20],
      ['page 2.png', null, null],
    ]);
    // Media analysis finds it beside the broken books: READY, but with a comment saying ERR_1007.
    const search = (body: unknown) => server.app.inject({ method: 'POST', url: '/api/v1/books/list?unpaged=true&sort=name,asc', headers: server.admin, payload: body as object });
    const problems = await search({
      condition: { anyOf: [{ mediaStatus: { operator: 'is', value: 'ERROR' } }, { mediaComment: { operator: 'contains', value: 'ERR_1007' } }] },
    });
    expect(problems.statusCode).toBe(200);
    const listed = (problems.json() as Page<BookDto>).content.map((b) => [b.name, b.media.status, b.media.comment]);
    expect(listed).toContainEqual(['Liar', 'READY', 'ERR_1007']);
    expect(listed.filter(([, status]) => status === 'READY')).toEqual([['Liar', 'READY', 'ERR_1007']]);
    // The healthy books (no comment) match neither a comment search nor its negation's opposite.
    const clean = await search({
      condition: { mediaComment: { operator: 'doesNotContain', value: 'ERR_1007' } },
    });
    expect((clean.json() as Page<BookDto>).content.map((b) => b.name)).not.toContain('Liar');
    expect((clean.json() as Page<BookDto>).content.map((b) => b.name)).toContain('Alpha 01');
  });

  it('flags an archive without images with ERR_1006 and a truncated one with a listing error', async () => {
    const { path } = await createCbz(join(sample.root, 'Empty', 'empty.cbz'), [], { extraEntries: [{ name: 'a.txt', data: Buffer.from('x') }] });
    const full = await createCbz(join(sample.root, 'Cut', 'cut.cbz'), [{ width: 50, height: 50, color: RED, format: 'png' }]);
    const bytes = await import('node:fs/promises').then((fs) => fs.readFile(full.path));
    await writeFile(full.path, bytes.subarray(0, bytes.length - 30));
    await addLibrary(server, sample.root);
    const books = await booksByName();
    expect(path).toContain('empty.cbz');
    expect(books.get('empty')!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1006', pagesCount: 0 });
    expect(books.get('cut')!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1008' });
    expect(books.get('Alpha 01')!.media.status).toBe('READY');
  });
});

describe('re-scanning', () => {
  it('leaves unchanged books alone, re-analyses changed ones and flags missing ones deleted', async () => {
    const library = await addLibrary(server, sample.root);
    const before = await booksByName();
    const bookRow = (id: string) => server.app.folio.repos.media.findByBookId(id)!;
    const untouchedMedia = bookRow(before.get('Alpha 02')!.id);

    // Change Alpha 01 (now 1 page, different mtime) and remove Beta 01.
    const alpha1Path = sample.series[0]!.books[0]!.path;
    await createCbz(alpha1Path, [{ width: 100, height: 150, color: RED, format: 'png' }]);
    const later = new Date(Date.now() + 5000);
    await utimes(alpha1Path, later, later);
    await rm(sample.series[1]!.books[0]!.path);
    await rescan(server, library.id);

    const after = await booksByName();
    expect(after.get('Alpha 01')!.id).toBe(before.get('Alpha 01')!.id);
    expect(after.get('Alpha 01')!.media).toMatchObject({ status: 'READY', pagesCount: 1 });
    expect(after.get('Alpha 02')!.lastModified).toBe(before.get('Alpha 02')!.lastModified);
    expect(bookRow(before.get('Alpha 02')!.id)).toEqual(untouchedMedia);
    expect(after.get('Beta 01')!.deleted).toBe(true);
    const beta = (await server.json<Page<SeriesDto>>('/api/v1/series')).content.find((s) => s.name === 'Beta')!;
    expect(beta.deleted).toBe(true);
    expect(beta.booksCount).toBe(0);
  });

  it('marks a changed book OUTDATED until it is re-analysed', async () => {
    const library = await addLibrary(server, sample.root);
    const id = (await booksByName()).get('Alpha 02')!.id;
    const path = sample.series[0]!.books[1]!.path;
    await writeFile(path, Buffer.concat([await import('node:fs/promises').then((fs) => fs.readFile(path)), Buffer.alloc(10)]));
    // Scan only (no analysis) to observe the intermediate state.
    const { scanLibrary } = await import('../../../server/domain/library/scanner.ts');
    const result = await scanLibrary(server.app.folio, library.id);
    expect(result.toAnalyse).toEqual([id]);
    expect(server.app.folio.repos.media.findByBookId(id)!.status).toBe('OUTDATED');
    const pages = await server.get(`/api/v1/books/${id}/pages`);
    expect(pages.json().message).toBe('Book is outdated and must be re-analyzed');
  });
});

describe('unavailable library root', () => {
  it('marks the library unavailable instead of deleting its books, and recovers', async () => {
    const { rename } = await import('node:fs/promises');
    const library = await addLibrary(server, sample.root);
    const moved = `${sample.root}-away`;
    await rename(sample.root, moved);
    await rescan(server, library.id);
    expect((await server.json<{ unavailable: boolean }>(`/api/v1/libraries/${library.id}`)).unavailable).toBe(true);
    expect([...(await booksByName()).values()].every((b) => !b.deleted)).toBe(true);
    await rename(moved, sample.root);
    await rescan(server, library.id);
    expect((await server.json<{ unavailable: boolean }>(`/api/v1/libraries/${library.id}`)).unavailable).toBe(false);
    expect((await booksByName()).get('Alpha 01')!.deleted).toBe(false);
  });
  it('an emptied root where books were (a mount point whose disk is not mounted) flags no book deleted', async () => {
    const { rename, readdir } = await import('node:fs/promises');
    const library = await addLibrary(server, sample.root);
    // The disk goes away; its mount point stays behind as an empty folder.
    const disk = `${sample.root}-disk`;
    await mkdir(disk);
    for (const name of await readdir(sample.root)) await rename(join(sample.root, name), join(disk, name));
    await rescan(server, library.id);
    expect((await server.json<{ unavailable: boolean }>(`/api/v1/libraries/${library.id}`)).unavailable).toBe(true);
    expect([...(await booksByName()).values()].every((b) => !b.deleted)).toBe(true);
    for (const name of await readdir(disk)) await rename(join(disk, name), join(sample.root, name));
    await rescan(server, library.id);
    expect((await server.json<{ unavailable: boolean }>(`/api/v1/libraries/${library.id}`)).unavailable).toBe(false);
    expect([...(await booksByName()).values()].every((b) => !b.deleted)).toBe(true);
  });
});

describe('moved files', () => {
  it('keeps a book (id, progress, metadata) when its file moves to another folder', async () => {
    const { rename, mkdir } = await import('node:fs/promises');
    const library = await addLibrary(server, sample.root);
    const before = (await booksByName()).get('Alpha 02')!;
    await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${before.id}/read-progress`, headers: server.admin, payload: { page: 1 } });
    await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${before.id}/metadata`, headers: server.admin, payload: { summary: 'kept' } });
    await mkdir(join(sample.root, 'Gamma'));
    await rename(sample.series[0]!.books[1]!.path, join(sample.root, 'Gamma', 'Alpha 02.cbz'));
    await rescan(server, library.id);

    const after = await booksByName();
    const moved = after.get('Alpha 02')!;
    expect(moved.id).toBe(before.id);
    expect(moved.deleted).toBe(false);
    expect(moved.url).toBe(join(sample.root, 'Gamma', 'Alpha 02.cbz'));
    expect(moved.readProgress?.page).toBe(1);
    expect(moved.metadata.summary).toBe('kept');
    const gamma = (await server.json<Page<SeriesDto>>('/api/v1/series')).content.find((s) => s.name === 'Gamma')!;
    expect(moved.seriesId).toBe(gamma.id);
    expect(gamma.booksCount).toBe(1);
    expect([...after.values()].filter((b) => b.name === 'Alpha 02')).toHaveLength(1);
  });

  it('takes a renamed folder of many books back in one pass: the work does not grow with each moved book', async () => {
    const { rename, mkdir } = await import('node:fs/promises');
    const count = 150;
    const folder = join(server.dir, 'big', 'Long Run');
    await mkdir(folder, { recursive: true });
    const png = await renderPage({ width: 8, height: 8, color: RED, format: 'png' });
    const { rawZip } = await import('../../fixtures/raw-zip.ts');
    // Sizes differ from book to book, as they do in a real series.
    for (let i = 1; i <= count; i++) {
      await writeFile(join(folder, `Long Run ${i}.cbz`), rawZip([{ name: Buffer.from('01.png'), data: png }, { name: Buffer.from('notes.txt'), data: Buffer.alloc(i, 120) }]));
    }
    const library = await addLibrary(server, join(server.dir, 'big'));
    const before = new Map((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b.id]));
    await rename(folder, join(server.dir, 'big', 'Longer Run'));

    // Every reading of a series' books (renumbering, aggregation) is counted during the rescan.
    const books = server.app.folio.repos.books;
    const findBySeries = books.findBySeries.bind(books);
    let seriesReads = 0;
    books.findBySeries = (...args) => {
      seriesReads++;
      return findBySeries(...args);
    };
    try {
      await rescan(server, library.id);
    } finally {
      books.findBySeries = findBySeries;
    }
    const after = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    expect(after).toHaveLength(count);
    expect(after.every((b) => b.id === before.get(b.name) && !b.deleted && b.url.includes('Longer Run'))).toBe(true);
    // Before: the old and the new series were read again after each of the 150 moved books.
    expect(seriesReads).toBeLessThan(20);
  });
});

import { mkdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { BLUE, GREEN, RED, createCbz, renderPage } from '../../fixtures/index.ts';
import { createTextEpub } from '../../fixtures/epub.ts';
import { writePdf } from '../../fixtures/pdf.ts';
import { writeRar4 } from '../../fixtures/rar.ts';
import { startServer, type TestServer } from './helpers.ts';

const page = { width: 10, height: 10, color: RED, format: 'png' as const };

let server: TestServer;
let root: string;
beforeEach(async () => {
  server = await startServer();
  root = join(server.dir, 'library');
  await mkdir(root, { recursive: true });
});
afterEach(async () => server.close());

const send = (method: 'PATCH' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: server.admin, ...(payload ? { payload } : {}) });
async function createLibrary(options: Record<string, unknown> = {}): Promise<LibraryDto> {
  const response = await send('POST', '/api/v1/libraries', { name: 'Comics', root, ...options });
  expect(response.statusCode).toBe(200);
  await server.app.folio.tasks.idle();
  return response.json<LibraryDto>();
}
async function update(library: LibraryDto, changes: Record<string, unknown>, scan = '/scan'): Promise<void> {
  expect((await send('PATCH', `/api/v1/libraries/${library.id}`, changes)).statusCode).toBe(204);
  expect((await send('POST', `/api/v1/libraries/${library.id}${scan}`)).statusCode).toBe(202);
  await server.app.folio.tasks.idle();
}
const liveBooks = async () =>
  (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.filter((b) => !b.deleted);
const liveSeries = async () =>
  (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content.filter((s) => !s.deleted);
const names = (items: { name: string }[]) => items.map((i) => i.name).sort();

describe('oneshotsDirectory', () => {
  beforeEach(async () => {
    await createCbz(join(root, '_oneshots', 'Lone Wolf.cbz'), [page]);
    await createCbz(join(root, '_oneshots', 'Stray Cat.cbz'), [page, page]);
    await createCbz(join(root, 'Saga', 'Saga 01.cbz'), [page]);
    await createCbz(join(root, 'Saga', 'Saga 02.cbz'), [page]);
  });

  it('makes each book of that folder a one-shot series of its own', async () => {
    await createLibrary({ oneshotsDirectory: '_Oneshots' });
    const series = await liveSeries();
    expect(series.map((s) => [s.name, s.oneshot, s.booksCount]).sort()).toEqual([
      ['Lone Wolf', true, 1],
      ['Saga', false, 2],
      ['Stray Cat', true, 1],
    ]);
    const wolf = series.find((s) => s.name === 'Lone Wolf')!;
    expect(wolf.url).toBe(join(root, '_oneshots', 'Lone Wolf.cbz'));
    expect(wolf.metadata.title).toBe('Lone Wolf');
    const books = await liveBooks();
    expect(books.filter((b) => b.oneshot).map((b) => [b.name, b.seriesId === series.find((s) => s.name === b.name)!.id]).sort()).toEqual([
      ['Lone Wolf', true],
      ['Stray Cat', true],
    ]);
    expect(books.find((b) => b.name === 'Saga 01')!.oneshot).toBe(false);
    // A oneshot filter sees them.
    expect(names((await server.json<Page<SeriesDto>>('/api/v1/series?oneshot=true')).content)).toEqual(['Lone Wolf', 'Stray Cat']);
  });

  it('accepts a path relative to the root, and the folder is an ordinary series without the option', async () => {
    const library = await createLibrary();
    expect(names(await liveSeries())).toEqual(['Saga', '_oneshots']);
    const ids = async () => Object.fromEntries((await liveBooks()).map((b) => [b.name, b.id]));
    const before = await ids();
    expect((await send('PATCH', `/api/v1/books/${before['Lone Wolf']}/read-progress`, { completed: true })).statusCode).toBe(204);
    await update(library, { oneshotsDirectory: '_oneshots/' });
    expect(names(await liveSeries())).toEqual(['Lone Wolf', 'Saga', 'Stray Cat']);
    // The books moved into their one-shot series, same ids, read progress kept.
    expect(await ids()).toEqual(before);
    const wolf = (await liveBooks()).find((b) => b.name === 'Lone Wolf')!;
    expect([wolf.oneshot, wolf.readProgress?.completed]).toEqual([true, true]);
    expect((await liveSeries()).find((s) => s.name === 'Lone Wolf')!.id).toBe(wolf.seriesId);
    await update(library, { oneshotsDirectory: null });
    expect(names(await liveSeries())).toEqual(['Saga', '_oneshots']);
    expect(await ids()).toEqual(before);
    expect((await liveSeries()).find((s) => s.name === '_oneshots')!.booksCount).toBe(2);
  });
});

describe('scanForceModifiedTime', () => {
  it('takes the newest book time as the folder time when the folder time is older', async () => {
    const folder = join(root, 'Saga');
    await createCbz(join(folder, 'Saga 01.cbz'), [page]);
    await utimes(join(folder, 'Saga 01.cbz'), new Date('2010-06-01T00:00:00Z'), new Date('2010-06-01T00:00:00Z'));
    await utimes(folder, new Date('2001-01-01T00:00:00Z'), new Date('2001-01-01T00:00:00Z'));
    const library = await createLibrary();
    const seriesTime = () => server.app.folio.repos.series.findByLibrary(library.id)[0]!.fileLastModified;
    expect(seriesTime()).toBe(Date.parse('2001-01-01T00:00:00Z'));
    await update(library, { scanForceModifiedTime: true });
    expect(seriesTime()).toBe(Date.parse('2010-06-01T00:00:00Z'));

    // A book replaced in place without the folder time moving still marks the series changed.
    await utimes(join(folder, 'Saga 01.cbz'), new Date('2012-01-01T00:00:00Z'), new Date('2012-01-01T00:00:00Z'));
    await utimes(folder, new Date('2001-01-01T00:00:00Z'), new Date('2001-01-01T00:00:00Z'));
    await update(library, {});
    expect(seriesTime()).toBe(Date.parse('2012-01-01T00:00:00Z'));
  });
});

describe('scanDirectoryExclusions', () => {
  it('skips folders with an excluded name, at any depth, until the exclusion is removed', async () => {
    await createCbz(join(root, 'Saga', 'Saga 01.cbz'), [page]);
    await createCbz(join(root, '#recycle', 'Old', 'Old 01.cbz'), [page]);
    await createCbz(join(root, 'Saga', '@eaDir', 'Thumb 01.cbz'), [page]);
    const library = await createLibrary({ scanDirectoryExclusions: ['#recycle', '@eaDir'] });
    expect(names(await liveBooks())).toEqual(['Saga 01']);
    await update(library, { scanDirectoryExclusions: ['@EADIR'] });
    expect(names(await liveBooks())).toEqual(['Old 01', 'Saga 01']);
    await update(library, { scanDirectoryExclusions: null });
    expect(names(await liveBooks())).toEqual(['Old 01', 'Saga 01', 'Thumb 01']);
  });

  it('matches folder names written decomposed (NFD, as macOS writes them) with the name typed composed (NFC)', async () => {
    // "Épisodes spéciaux" and "Éditions" as a Mac writes them to a share: letters and accents apart.
    await createCbz(join(root, 'Saga', 'Saga 01.cbz'), [page]);
    await createCbz(join(root, 'Saga', '\u00c9pisodes sp\u00e9ciaux'.normalize('NFD'), 'Bonus 01.cbz'), [page]);
    await createCbz(join(root, '\u00c9ditions'.normalize('NFD'), 'Lone Wolf.cbz'), [page]);
    // As typed in a browser: composed.
    await createLibrary({ scanDirectoryExclusions: ['\u00e9pisodes sp\u00e9ciaux'], oneshotsDirectory: '\u00c9ditions' });
    expect(names(await liveBooks())).toEqual(['Lone Wolf', 'Saga 01']);
    expect((await liveSeries()).find((s) => s.name === 'Lone Wolf')?.oneshot).toBe(true);
  });
});

describe('scanCbx / scanPdf / scanEpub', () => {
  it('scans only the formats the library asks for', async () => {
    await createCbz(join(root, 'Mixed', 'Zip book.cbz'), [page]);
    await writeRar4(join(root, 'Mixed', 'Rar book.cbr'), [{ name: 'p1.png', data: await renderPage({ ...page, color: GREEN }) }]);
    await writePdf(join(root, 'Mixed', 'Pdf book.pdf'), [{ width: 100, height: 150, color: BLUE }]);
    await createTextEpub(join(root, 'Mixed', 'Epub book.epub'), [2000]);
    const library = await createLibrary({ scanPdf: false, scanEpub: false });
    expect(names(await liveBooks())).toEqual(['Rar book', 'Zip book']);
    await update(library, { scanCbx: false, scanPdf: true });
    expect(names(await liveBooks())).toEqual(['Pdf book']);
    await update(library, { scanPdf: false, scanEpub: true });
    expect(names(await liveBooks())).toEqual(['Epub book']);
    await update(library, { scanCbx: true, scanPdf: true });
    const books = await liveBooks();
    expect(books.map((b) => [b.name, b.media.mediaProfile]).sort()).toEqual([
      ['Epub book', 'EPUB'],
      ['Pdf book', 'PDF'],
      ['Rar book', 'DIVINA'],
      ['Zip book', 'DIVINA'],
    ]);
  });
});

describe('deep scan', () => {
  it('re-analyses unchanged books only when deep', async () => {
    await createCbz(join(root, 'Saga', 'Saga 01.cbz'), [page]);
    const library = await createLibrary();
    const bookId = (await liveBooks())[0]!.id;
    const analysedAt = () => server.app.folio.repos.media.findByBookId(bookId)!.lastModified;
    const first = analysedAt();
    // The server's clock (a fake Date in this process) reads a second later, so an analysis made
    // now would carry a later stamp: an unchanged stamp proves the book was not analysed again.
    vi.useFakeTimers({ toFake: ['Date'], now: first + 1_000 });
    try {
      await update(library, {});
      expect(analysedAt()).toBe(first);
      await update(library, {}, '/scan?deep=true');
      expect(analysedAt()).toBeGreaterThan(first);
    } finally {
      vi.useRealTimers();
    }
  });
});

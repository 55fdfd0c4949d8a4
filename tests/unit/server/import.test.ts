import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto, SeriesDto } from '../../../src/api/types.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { BLUE, GREEN, createBrokenCbz, createCbz, createSampleLibrary, type SampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let sample: SampleLibrary;
let alpha: SeriesDto;
let inbox: string;
let events: FolioEvent[];

beforeEach(async () => {
  server = await startServer();
  sample = await createSampleLibrary(join(server.dir, 'library'));
  await addLibrary(server, sample.root);
  alpha = (await server.json<Page<SeriesDto>>('/api/v1/series')).content.find((s) => s.name === 'Alpha')!;
  inbox = join(server.dir, 'inbox');
  await createCbz(join(inbox, 'new one.cbz'), [{ width: 50, height: 70, color: GREEN, format: 'png' }]);
  await createCbz(join(inbox, 'sub', 'other.cbz'), [{ width: 50, height: 70, color: BLUE, format: 'jpeg' }]);
  await createBrokenCbz(join(inbox, 'bad.cbz'));
  events = [];
  server.app.folio.events.subscribe((e) => events.push(e));
});
afterEach(async () => {
  await server.close();
});

const post = (url: string, payload: object) => server.app.inject({ method: 'POST', url, headers: server.admin, payload });
const importBooks = async (books: object[], copyMode = 'HARDLINK') => {
  const response = await post('/api/v1/books/import', { books, copyMode });
  expect(response.statusCode).toBe(202);
  await server.app.folio.tasks.idle();
  // Imports run on parallel workers: report outcomes in request order, not finishing order.
  const outcomes = events
    .filter((e) => e.name === 'BookImported')
    .map((e) => e.data as { bookId: string | null; sourceFile: string; success: boolean; message: string | null });
  return (books as { sourceFile: string }[]).map((b) => outcomes.find((o) => o.sourceFile === b.sourceFile));
};
const alphaBooks = async () => (await server.json<Page<BookDto>>(`/api/v1/series/${alpha.id}/books`)).content;

describe('transient books', () => {
  it('scans a folder, analyses a file and serves its pages', async () => {
    const scanned = await post('/api/v1/transient-books', { path: inbox });
    expect(scanned.statusCode).toBe(200);
    const list = scanned.json() as { id: string; name: string; status: string }[];
    expect(list.map((b) => [b.name, b.status])).toEqual([
      ['bad', 'UNKNOWN'],
      ['new one', 'UNKNOWN'],
      ['other', 'UNKNOWN'],
    ]);
    const analysed = (await post(`/api/v1/transient-books/${list[1]!.id}/analyze`, {})).json() as { status: string; pages: PageDto[] };
    expect(analysed.status).toBe('READY');
    expect(analysed.pages).toMatchObject([{ number: 1, width: 50, height: 70, mediaType: 'image/png' }]);
    const pageBytes = await server.get(`/api/v1/transient-books/${list[1]!.id}/pages/1`);
    expect(pageBytes.headers['content-type']).toBe('image/png');
    expect((await post(`/api/v1/transient-books/${list[0]!.id}/analyze`, {})).json()).toMatchObject({ status: 'UNSUPPORTED', comment: 'ERR_1001' });
  });

  it('prefills series and number from ComicInfo when exactly one live series has that title', async () => {
    const title = (await server.json<{ metadata: { title: string } }>(`/api/v1/series/${alpha.id}`)).metadata.title;
    await createCbz(join(inbox, 'tagged.cbz'), [{ width: 50, height: 70, color: GREEN, format: 'png' }], {
      comicInfo: { series: title.toUpperCase(), number: '7.5' },
    });
    await createCbz(join(inbox, 'stranger.cbz'), [{ width: 50, height: 70, color: GREEN, format: 'png' }], {
      comicInfo: { series: 'No Such Series', number: '2' },
    });
    const list = (await post('/api/v1/transient-books', { path: inbox })).json() as { id: string; name: string }[];
    const analyse = async (name: string) =>
      (await post(`/api/v1/transient-books/${list.find((b) => b.name === name)!.id}/analyze`, {})).json() as { seriesId: string | null; number: number | null };
    expect(await analyse('tagged')).toMatchObject({ seriesId: alpha.id, number: 7.5 });
    expect(await analyse('stranger')).toMatchObject({ seriesId: null, number: 2 });
  });

  it('refuses a folder that is or lies inside a library (ERR_1017) and one that does not exist (ERR_1016)', async () => {
    const library = (await server.json<{ root: string }[]>('/api/v1/libraries'))[0]!;
    for (const path of [library.root, join(library.root, 'Alpha')]) {
      const response = await post('/api/v1/transient-books', { path });
      expect(response.statusCode, path).toBe(400);
      expect(response.json().message).toBe('ERR_1017');
    }
    const missing = await post('/api/v1/transient-books', { path: join(inbox, 'no such folder') });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('ERR_1016');
    const file = await post('/api/v1/transient-books', { path: join(inbox, 'new one.cbz') });
    expect(file.json().message).toBe('ERR_1016');
  });

  it('refuses the folders no library may be: the file system root, /proc, the data directory', async () => {
    // Before, any folder was walked: "/" listed every book file on the machine, /proc the server's own.
    for (const path of ['/', '/proc', server.dataDir]) {
      const response = await post('/api/v1/transient-books', { path });
      expect(response.statusCode, path).toBe(400);
      expect(response.json().message, path).toMatch(/^A library cannot/);
    }
  });
});

describe('book import', () => {
  it('copies a file into a series folder under a chosen name', async () => {
    const [result] = await importBooks([{ sourceFile: join(inbox, 'new one.cbz'), seriesId: alpha.id, destinationName: 'Alpha 03' }]);
    expect(result).toMatchObject({ success: true });
    const books = await alphaBooks();
    expect(books.map((b) => b.name)).toEqual(['Alpha 01', 'Alpha 02', 'Alpha 03']);
    expect(books[2]!.id).toBe(result!.bookId);
    expect(books[2]!.media.status).toBe('READY');
    expect((await readFile(join(sample.root, 'Alpha', 'Alpha 03.cbz'))).equals(await readFile(join(inbox, 'new one.cbz')))).toBe(true);
  });

  it('records each successful import in the history (BookImported), failures not', async () => {
    const [copied] = await importBooks([{ sourceFile: join(inbox, 'new one.cbz'), seriesId: alpha.id, destinationName: 'Alpha 03' }]);
    const [failed] = await importBooks([{ sourceFile: join(inbox, 'missing.cbz'), seriesId: alpha.id }]);
    expect(failed).toMatchObject({ success: false });
    const old = (await alphaBooks())[0]!;
    await importBooks([{ sourceFile: join(inbox, 'sub', 'other.cbz'), seriesId: alpha.id, upgradeBookId: old.id }], 'MOVE');
    const history = (await server.json<Page<{ type: string; bookId: string; seriesId: string; properties: Record<string, string> }>>('/api/v1/history?sort=timestamp,asc')).content;
    expect(history.filter((e) => e.type === 'BookImported')).toEqual([
      expect.objectContaining({
        bookId: copied!.bookId,
        seriesId: alpha.id,
        properties: { name: join(sample.root, 'Alpha', 'Alpha 03.cbz'), source: join(inbox, 'new one.cbz'), upgrade: 'No' },
      }),
      expect.objectContaining({
        bookId: old.id,
        seriesId: alpha.id,
        properties: { name: join(sample.root, 'Alpha', 'Alpha 01.cbz'), source: join(inbox, 'sub', 'other.cbz'), upgrade: 'Yes' },
      }),
    ]);
  });

  it('checks a file is a book before moving or replacing anything (issue 10)', async () => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(inbox, 'notes.txt'), 'not a book');
    const old = (await alphaBooks())[0]!;
    const [text, broken, upgrade] = await importBooks(
      [
        { sourceFile: join(inbox, 'notes.txt'), seriesId: alpha.id },
        { sourceFile: join(inbox, 'bad.cbz'), seriesId: alpha.id },
        { sourceFile: join(inbox, 'notes.txt'), seriesId: alpha.id, upgradeBookId: old.id },
      ],
      'MOVE',
    );
    for (const outcome of [text, broken, upgrade]) expect(outcome).toMatchObject({ success: false, bookId: null, message: 'ERR_1022' });
    // Nothing moved out of its folder, nothing replaced.
    await stat(join(inbox, 'notes.txt'));
    await stat(join(inbox, 'bad.cbz'));
    await stat(join(sample.root, 'Alpha', 'Alpha 01.cbz'));
  });

  it('copies a file as a separate file with copyMode COPY (komga-webui’s "Copy" choice)', async () => {
    const source = join(inbox, 'new one.cbz');
    const [result] = await importBooks([{ sourceFile: source, seriesId: alpha.id, destinationName: 'Alpha 03' }], 'COPY');
    expect(result).toMatchObject({ success: true });
    const copied = join(sample.root, 'Alpha', 'Alpha 03.cbz');
    expect((await readFile(copied)).equals(await readFile(source))).toBe(true);
    // A copy, not a hard link: the source keeps its own file.
    expect((await stat(copied)).ino).not.toBe((await stat(source)).ino);
    expect((await stat(source)).nlink).toBe(1);
  });

  it('moves a file when asked', async () => {
    await importBooks([{ sourceFile: join(inbox, 'sub', 'other.cbz'), seriesId: alpha.id }], 'MOVE');
    await expect(stat(join(inbox, 'sub', 'other.cbz'))).rejects.toThrow();
    expect((await alphaBooks()).map((b) => b.name)).toContain('other');
  });

  it('upgrades an existing book in place, keeping its id and progress', async () => {
    const old = (await alphaBooks())[0]!;
    await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${old.id}/read-progress`, headers: server.admin, payload: { page: 1 } });
    const [result] = await importBooks([{ sourceFile: join(inbox, 'new one.cbz'), seriesId: alpha.id, upgradeBookId: old.id }]);
    expect(result).toMatchObject({ success: true, bookId: old.id });
    const upgraded = await server.json<BookDto>(`/api/v1/books/${old.id}`);
    expect(upgraded.media.pagesCount).toBe(1);
    expect(upgraded.readProgress?.page).toBe(1);
  });

  it('never writes through a link planted at the name it copies to (a file outside the library stays untouched)', async () => {
    // Someone who can write into a library folder (a download client, a shared folder) leaves
    // links at the names an import writes to before renaming into place: one to an existing file
    // outside the library, one dangling to a new one. Copying (COPY; HARDLINK falls back to it on
    // another file system or a name that is taken) must not write through them.
    const { mkdir, symlink, writeFile } = await import('node:fs/promises');
    const outside = join(server.dir, 'outside');
    await mkdir(outside, { recursive: true });
    const victim = join(outside, 'precious.txt');
    await writeFile(victim, 'precious');
    const folder = join(sample.root, 'Alpha');
    await symlink(victim, join(folder, 'Alpha 03.cbz.folio-import'));
    await symlink(join(outside, 'created.cbz'), join(folder, 'Alpha 04.cbz.folio-import'));
    const results = [
      ...(await importBooks([{ sourceFile: join(inbox, 'new one.cbz'), seriesId: alpha.id, destinationName: 'Alpha 03' }], 'COPY')),
      ...(await importBooks([{ sourceFile: join(inbox, 'sub', 'other.cbz'), seriesId: alpha.id, destinationName: 'Alpha 04' }], 'HARDLINK')),
    ];
    expect(await readFile(victim, 'utf8')).toBe('precious');
    await expect(stat(join(outside, 'created.cbz'))).rejects.toThrow(/ENOENT/);
    // The links were put aside, and the books imported as real files of the folder.
    expect(results.map((r) => r?.success)).toEqual([true, true]);
    expect((await alphaBooks()).map((b) => b.name)).toEqual(['Alpha 01', 'Alpha 02', 'Alpha 03', 'Alpha 04']);
    expect((await readFile(join(folder, 'Alpha 03.cbz'))).equals(await readFile(join(inbox, 'new one.cbz')))).toBe(true);
  });

  it('does not import into a series folder swapped for a link leading out of the library', async () => {
    // The folder was scanned as a real folder; then someone able to write in the library replaced it
    // with a link to a folder elsewhere (whose file an upgrade would replace).
    const { mkdir, rename, symlink } = await import('node:fs/promises');
    const outside = join(server.dir, 'outside');
    await mkdir(outside, { recursive: true });
    const folder = join(sample.root, 'Alpha');
    await rename(folder, join(outside, 'Alpha'));
    await symlink(join(outside, 'Alpha'), folder);
    const victim = join(outside, 'Alpha', 'Alpha 01.cbz');
    const before = await readFile(victim);
    const old = (await alphaBooks())[0]!;
    const results = await importBooks([
      { sourceFile: join(inbox, 'new one.cbz'), seriesId: alpha.id, destinationName: 'Alpha 03' },
      { sourceFile: join(inbox, 'sub', 'other.cbz'), seriesId: alpha.id, upgradeBookId: old.id },
    ], 'COPY');
    expect(results.map((r) => [r?.success, r?.message])).toEqual([
      [false, 'ERR_1021'],
      [false, 'ERR_1021'],
    ]);
    await expect(stat(join(outside, 'Alpha', 'Alpha 03.cbz'))).rejects.toThrow(/ENOENT/);
    expect((await readFile(victim)).equals(before)).toBe(true);
  });

  it('creates no folder outside the library through a parent of the series folder swapped for a link', async () => {
    // A series nested in a shelf folder; after the scan the shelf is replaced by a link to a folder
    // elsewhere that has no such series folder. Creating the series folder again followed the link
    // (mkdir ran before the inside-library check) and left an empty folder out there.
    const { mkdir, rename, symlink } = await import('node:fs/promises');
    const shelf = join(sample.root, 'Shelf');
    await createCbz(join(shelf, 'Gamma', 'Gamma 01.cbz'), [{ width: 50, height: 70, color: BLUE, format: 'png' }]);
    const library = (await server.json<{ id: string }[]>('/api/v1/libraries'))[0]!;
    expect((await post(`/api/v1/libraries/${library.id}/scan`, {})).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    const gamma = (await server.json<Page<SeriesDto>>('/api/v1/series')).content.find((s) => s.name === 'Gamma')!;
    const outside = join(server.dir, 'outside');
    await mkdir(outside, { recursive: true });
    await rename(shelf, join(server.dir, 'shelf-moved'));
    await symlink(outside, shelf);
    const results = await importBooks([{ sourceFile: join(inbox, 'new one.cbz'), seriesId: gamma.id, destinationName: 'Gamma 02' }], 'COPY');
    expect(results.map((r) => [r?.success, r?.message])).toEqual([[false, 'ERR_1021']]);
    await expect(stat(join(outside, 'Gamma'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses with error codes: missing file, file inside a library, taken name, bad name, wrong series', async () => {
    const beta = (await server.json<Page<SeriesDto>>('/api/v1/series')).content.find((s) => s.name === 'Beta')!;
    const betaBook = (await server.json<Page<BookDto>>(`/api/v1/series/${beta.id}/books`)).content[0]!;
    const results = await importBooks([
      { sourceFile: join(inbox, 'missing.cbz'), seriesId: alpha.id },
      { sourceFile: sample.series[1]!.books[0]!.path, seriesId: alpha.id },
      { sourceFile: join(inbox, 'new one.cbz'), seriesId: alpha.id, destinationName: 'Alpha 01' },
      { sourceFile: join(inbox, 'sub', 'other.cbz'), seriesId: alpha.id, destinationName: '../escaped' },
      { sourceFile: join(inbox, 'bad.cbz'), seriesId: alpha.id, upgradeBookId: betaBook.id },
    ]);
    expect(results.map((r) => [r?.success, r?.message])).toEqual([
      [false, 'ERR_1018'],
      [false, 'ERR_1019'],
      [false, 'ERR_1021'],
      [false, 'ERR_1021'],
      [false, 'ERR_1020'],
    ]);
    await expect(stat(join(sample.root, 'escaped.cbz'))).rejects.toThrow();
    expect((await alphaBooks()).map((b) => b.name)).toEqual(['Alpha 01', 'Alpha 02']);
  });
});

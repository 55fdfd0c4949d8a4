import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { BLUE, GREEN, RED, createCbz, renderPage } from '../../fixtures/index.ts';
import { type SevenZipEntry, writeSevenZip } from '../../fixtures/sevenzip.ts';
import { addLibrary, loggedLines, rescan, startServer, type TestServer } from './helpers.ts';

/*
 * A 7z book cut short (a download that stopped) has lost its listing, which 7z keeps at the file's
 * end: nothing in it can be found, so unlike a cut CBZ or CBR it stays ERROR, with Komga's
 * ERR_1008 ("unknown error while getting book's entries", what Komga's reader gives for any 7z it
 * cannot open). What must hold: the log says the file is cut short and by how much (7-Zip alone
 * said "Is not archive" or "Unexpected end of archive"), the series and its other books are
 * untouched, and the book is READY once its file is complete (the next scan sees it changed).
 */

let server: TestServer;
let root: string;
let library: string;
let whole: Buffer;
let entries: SevenZipEntry[];
const CUTS = { 'start header': 20, half: 0, 'last byte': -1 } as const;
const cutAt = (name: keyof typeof CUTS) => (CUTS[name] === 0 ? Math.floor(whole.length / 2) : CUTS[name] < 0 ? whole.length + CUTS[name] : CUTS[name]);
const books = async () => new Map((await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((book) => [book.name, book]));

beforeAll(async () => {
  server = await startServer({ logLevel: 'warn', logStdout: false });
  root = join(server.dir, 'library');
  entries = [];
  for (const [i, color] of [RED, GREEN, BLUE].entries()) entries.push({ name: `page-${i + 1}.png`, data: await renderPage({ width: 60 + i, height: 90, color, format: 'png' }) });
  const staged = join(server.dir, 'whole.cb7');
  await writeSevenZip(staged, entries);
  whole = await readFile(staged);
  await writeSevenZip(join(root, 'Set', 'Set 1.cb7'), entries);
  await mkdir(join(root, 'Set'), { recursive: true });
  for (const name of Object.keys(CUTS) as (keyof typeof CUTS)[]) await writeFile(join(root, 'Set', `Set cut ${name}.cb7`), whole.subarray(0, cutAt(name)));
  await createCbz(join(root, 'Set', 'Set 3.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
  await createCbz(join(root, 'Other', 'Other 1.cbz'), [{ width: 10, height: 10, color: GREEN, format: 'png' }]);
  library = (await addLibrary(server, root)).id;
}, 60_000);
afterAll(async () => server.close());

it('is ERROR ERR_1008 wherever it is cut, and the log says it is cut short and by how much', async () => {
  const found = await books();
  const lines = (await loggedLines(server)).filter(Boolean).map((line) => JSON.parse(line) as { bookId?: string; code?: string; err?: { message: string } });
  for (const name of Object.keys(CUTS) as (keyof typeof CUTS)[]) {
    const book = found.get(`Set cut ${name}`)!;
    expect(book.media, name).toMatchObject({ status: 'ERROR', comment: 'ERR_1008', pagesCount: 0 });
    const logged = lines.find((line) => line.bookId === book.id && line.code === 'ERR_1008');
    const said = name === 'start header' ? `7z file cut short: ${cutAt(name)} bytes, inside its 32-byte start header` : `7z file cut short: ${cutAt(name)} of ${whole.length} bytes`;
    expect(logged?.err?.message, name).toContain(said);
    // Asking for its page is a refusal, not a server error.
    const page = await server.get(`/api/v1/books/${book.id}/pages/1`);
    expect(page.statusCode, name).toBeGreaterThanOrEqual(400);
    expect(page.statusCode, name).toBeLessThan(500);
  }
});

it('loses nothing else: its series lists every book, the other books are READY', async () => {
  const found = await books();
  for (const name of ['Set 1', 'Set 3', 'Other 1']) expect(found.get(name)!.media.status, name).toBe('READY');
  const series = (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content;
  expect(series.map((s) => [s.name, s.booksCount]).sort()).toEqual([['Other', 1], ['Set', 5]]);
});

it('is READY with every page once the download completes and the library is scanned again', async () => {
  const path = join(root, 'Set', 'Set cut half.cb7');
  await appendFile(path, whole.subarray(cutAt('half')));
  await rescan(server, library);
  const book = (await books()).get('Set cut half')!;
  expect(book.media).toMatchObject({ status: 'READY', comment: '', pagesCount: 3 });
  for (const [i, entry] of entries.entries()) {
    const page = await server.get(`/api/v1/books/${book.id}/pages/${i + 1}`);
    expect(page.statusCode).toBe(200);
    expect(page.rawPayload.equals(entry.data)).toBe(true);
  }
});

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { MAX_ENTRY_NAME_BYTES } from '../../../server/media/entry-names.ts';
import { GREEN, RED, renderPage } from '../../fixtures/index.ts';
import { oddZip } from '../../fixtures/odd-zip.ts';
import { RAR_NAME_CUT_CODE_POINTS } from '../../../server/media/rar-entry-names.ts';
import { rar4Bytes, rar5Bytes } from '../../fixtures/rar.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';
import { addLibrary, loggedLines, startServer, type TestServer } from './helpers.ts';

/*
 * Archive entry names may be 64 KiB (zip, RAR) or more (7z). A book of such names held its whole
 * listing in every open handle, stored every name with its page and sent them all in its page
 * list (1,500 pages named 65,000 bytes: 93 MB of listing and of JSON, 11 s per page list). Names
 * over MAX_ENTRY_NAME_BYTES (PATH_MAX: no file system has such paths) are left out of the listing:
 * the book keeps its other pages, READY with ERR_1007, and the log says how many were left out.
 * RAR names come cut to 1,024 characters by node-unrar-js, below the bound, and a cut name cannot be
 * told from a whole one: RAR names of RAR_NAME_CUT_CODE_POINTS characters or more are left out too.
 */

let server: TestServer;
let red: Buffer;
let green: Buffer;
const books = new Map<string, BookDto>();
/** One byte past the bound, in nested folders (7-Zip stages members as files). */
const LONG = `${'d'.repeat(200)}/`.repeat(20) + 'x'.repeat(MAX_ENTRY_NAME_BYTES - 20 * 201 - 4 + 1) + '.png';
/** Exactly at the bound: kept. */
const AT_BOUND = `${'e'.repeat(200)}/`.repeat(20) + 'y'.repeat(MAX_ENTRY_NAME_BYTES - 20 * 201 - 4) + '.png';

beforeAll(async () => {
  server = await startServer({ logLevel: 'warn', logStdout: false });
  expect(Buffer.byteLength(LONG)).toBe(MAX_ENTRY_NAME_BYTES + 1);
  expect(Buffer.byteLength(AT_BOUND)).toBe(MAX_ENTRY_NAME_BYTES);
  red = await renderPage({ width: 30, height: 40, color: RED, format: 'png' });
  green = await renderPage({ width: 30, height: 40, color: GREEN, format: 'png' });
  const folder = join(server.dir, 'library', 'Names');
  await mkdir(folder, { recursive: true });
  const members = [{ name: LONG, data: red }, { name: AT_BOUND, data: green }, { name: 'zz.png', data: red }];
  await writeFile(join(folder, 'zip.cbz'), oddZip(members));
  await writeFile(join(folder, 'rar5.cbr'), rar5Bytes(members));
  await writeSevenZip(join(folder, '7z.cb7'), members, { inMemory: true });
  // Two names that share their first 1,100 characters (unrar's cut falls inside), and one just under the RAR bound.
  const shared = 'c'.repeat(1100);
  const justUnder = `${'u'.repeat(RAR_NAME_CUT_CODE_POINTS - 5)}.png`;
  const colliding = [{ name: `${shared}-1.png`, data: red }, { name: `${shared}-2.png`, data: green }, { name: justUnder, data: green }, { name: 'zz.png', data: red }];
  await writeFile(join(folder, 'rar4-colliding.cbr'), rar4Bytes(colliding));
  await writeFile(join(folder, 'rar5-colliding.cbr'), rar5Bytes(colliding));
  await addLibrary(server, join(server.dir, 'library'));
  for (const book of (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content) books.set(book.name, book);
}, 60_000);
afterAll(async () => server.close());

it.each(['zip', '7z'])('a %s book leaves out the entry whose name is over the bound, keeps the others, and says ERR_1007', async (name) => {
  const book = books.get(name)!;
  expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
  const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
  expect(pages.map((page) => page.fileName)).toEqual([AT_BOUND, 'zz.png']);
  for (const [i, data] of [green, red].entries()) {
    const page = await server.get(`/api/v1/books/${book.id}/pages/${i + 1}`);
    expect(page.statusCode).toBe(200);
    expect(page.rawPayload.equals(data)).toBe(true);
  }
  const lines = (await loggedLines(server)).filter(Boolean).map((line) => JSON.parse(line) as { bookId?: string; damage?: string });
  expect(lines.find((line) => line.bookId === book.id && line.damage)?.damage).toContain(`1 entries left out: their names are longer than ${MAX_ENTRY_NAME_BYTES} bytes`);
});

it('a RAR book leaves out names as long as unrar may cut (here both over the byte bound and at it), keeps the others, and says ERR_1007', async () => {
  const book = books.get('rar5')!;
  expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 1 });
  const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
  expect(pages.map((page) => page.fileName)).toEqual(['zz.png']);
});

it.each(['rar4', 'rar5'])('a %s book whose two names share their first 1,024 characters serves neither for the other: both left out, ERR_1007', async (format) => {
  // Before, unrar's cut made them one name: READY without a word, one page where there were two, read from whichever unrar matched.
  const book = books.get(`${format}-colliding`)!;
  expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
  const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
  expect(pages.map((page) => page.fileName.length)).toEqual([RAR_NAME_CUT_CODE_POINTS - 1, 6]);
  for (const [i, data] of [green, red].entries()) {
    const page = await server.get(`/api/v1/books/${book.id}/pages/${i + 1}`);
    expect(page.statusCode).toBe(200);
    expect(page.rawPayload.equals(data)).toBe(true);
  }
  const lines = (await loggedLines(server)).filter(Boolean).map((line) => JSON.parse(line) as { bookId?: string; damage?: string });
  expect(lines.find((line) => line.bookId === book.id && line.damage)?.damage).toContain('2 entries left out: their names are 1000 characters or longer');
});

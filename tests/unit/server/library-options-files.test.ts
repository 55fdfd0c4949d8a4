import { copyFile, readFile, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, LibraryDto, Page } from '../../../src/api/types.ts';
import { analyseContainer } from '../../../server/media/analyse-container.ts';
import { BLUE, GREEN, RED, createCbz, renderPage } from '../../fixtures/index.ts';
import { type RarMember, writeRar4, writeRar5 } from '../../fixtures/rar.ts';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let root: string;
let members: RarMember[];
beforeEach(async () => {
  server = await startServer();
  root = join(server.dir, 'library');
  members = [];
  for (const [i, color] of [RED, GREEN, BLUE].entries()) {
    members.push({ name: `page-${i + 1}.png`, data: await renderPage({ width: 30, height: 40, color, format: 'png' }) });
  }
  members.push({ name: 'notes.txt', data: Buffer.from('scanned by someone\n') });
});
afterEach(async () => server.close());

const send = (method: 'PATCH' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: server.admin, ...(payload ? { payload } : {}) });
const books = async () => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
const bookNamed = async (name: string) => (await books()).find((b) => b.name === name)!;
async function createLibrary(options: Record<string, unknown>): Promise<LibraryDto> {
  const response = await send('POST', '/api/v1/libraries', { name: 'Comics', root, ...options });
  expect(response.statusCode).toBe(200);
  await server.app.folio.tasks.idle();
  return response.json<LibraryDto>();
}
const pageBytes = async (bookId: string, n: number) =>
  (await server.app.inject({ method: 'GET', url: `/api/v1/books/${bookId}/pages/${n}?convert=png`, headers: server.admin })).rawPayload;

describe('convertToCbz', () => {
  it('rewrites a RAR book as a CBZ, keeping the book, its metadata and read progress', async () => {
    await writeRar4(join(root, 'Saga', 'Saga 01.cbr'), members);
    await writeRar5(join(root, 'Saga', 'Saga 02.rar'), members.slice(0, 2));
    const library = await createLibrary({ convertToCbz: false });
    const first = await bookNamed('Saga 01');
    expect(first.media.mediaType).toBe('application/x-rar-compressed; version=4');
    const before = await pageBytes(first.id, 2);
    expect((await send('PATCH', `/api/v1/books/${first.id}/metadata`, { title: 'Kept title', titleLock: true })).statusCode).toBe(204);
    expect((await send('PATCH', `/api/v1/books/${first.id}/read-progress`, { page: 2 })).statusCode).toBe(204);

    expect((await send('PATCH', `/api/v1/libraries/${library.id}`, { convertToCbz: true })).statusCode).toBe(204);
    expect((await send('POST', `/api/v1/libraries/${library.id}/analyze`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();

    expect((await readdir(join(root, 'Saga'))).sort()).toEqual(['Saga 01.cbz', 'Saga 02.cbz']);
    const converted = await bookNamed('Saga 01');
    expect(converted.id).toBe(first.id);
    expect(converted.url).toBe(join(root, 'Saga', 'Saga 01.cbz'));
    expect(converted.media).toMatchObject({ status: 'READY', mediaType: 'application/zip', pagesCount: 3 });
    expect(converted.metadata.title).toBe('Kept title');
    expect(converted.readProgress).toMatchObject({ page: 2, completed: false });
    expect(await pageBytes(first.id, 2)).toEqual(before);
    expect((await bookNamed('Saga 02')).media).toMatchObject({ mediaType: 'application/zip', pagesCount: 2 });

    // The new file is a real zip holding every member byte for byte (the text file too).
    const analysis = await analyseContainer(join(root, 'Saga', 'Saga 01.cbz'));
    expect(analysis.reader.mediaType).toBe('application/zip');
    expect(analysis.pages.map((p) => p.fileName)).toEqual(['page-1.png', 'page-2.png', 'page-3.png']);
    expect(analysis.files.map((f) => f.fileName)).toEqual(['notes.txt']);

    const history = await server.json<Page<{ type: string; bookId: string; properties: Record<string, string> }>>('/api/v1/history');
    const event = history.content.find((e) => e.type === 'BookConverted' && e.bookId === first.id);
    expect(event?.properties).toEqual({ name: join(root, 'Saga', 'Saga 01.cbz'), 'former file': join(root, 'Saga', 'Saga 01.cbr') });
  });

  it('converts right after the first analysis, leaves zips alone and never overwrites a neighbour', async () => {
    await writeRar4(join(root, 'A', 'One.cbr'), members);
    await createCbz(join(root, 'A', 'Two.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    await writeRar4(join(root, 'A', 'Two.cbr'), members);
    await createLibrary({ convertToCbz: true });
    expect((await readdir(join(root, 'A'))).sort()).toEqual(['One.cbz', 'Two.cbr', 'Two.cbz']);
    const two = (await books()).filter((b) => b.name === 'Two').map((b) => b.media.mediaType).sort();
    expect(two).toEqual(['application/x-rar-compressed; version=4', 'application/zip']);
  });

  it('converts a RAR wrongly named .cbz in place', async () => {
    await writeRar5(join(root, 'A', 'Odd.cbz'), members);
    await createLibrary({ convertToCbz: true });
    expect(await readdir(join(root, 'A'))).toEqual(['Odd.cbz']);
    expect((await analyseContainer(join(root, 'A', 'Odd.cbz'))).reader.mediaType).toBe('application/zip');
    const odd = await bookNamed('Odd');
    expect(odd.media).toMatchObject({ status: 'READY', mediaType: 'application/zip', pagesCount: 3 });
    const history = await server.json<Page<{ type: string; properties: Record<string, string> }>>('/api/v1/history');
    expect(history.content.map((e) => [e.type, e.properties['former file']])).toEqual([['BookConverted', join(root, 'A', 'Odd.cbz')]]);
  });

  it('keeps the original when the new name got registered meanwhile (a concurrent scan)', async () => {
    await writeRar4(join(root, 'A', 'Race.cbr'), members);
    const library = await createLibrary({});
    const race = await bookNamed('Race');
    // What a scan walking the folder between the rename and the database update would record.
    const stored = server.app.folio.repos.books.findById(race.id)!;
    server.app.folio.repos.books.insert({ ...stored, id: `${stored.id}x`, url: join(root, 'A', 'Race.cbz') });
    expect((await send('PATCH', `/api/v1/libraries/${library.id}`, { convertToCbz: true })).statusCode).toBe(204);
    expect((await send('POST', `/api/v1/books/${race.id}/analyze`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect(await readdir(join(root, 'A'))).toEqual(['Race.cbr']);
    expect(server.app.folio.repos.books.findById(race.id)!.url).toBe(join(root, 'A', 'Race.cbr'));
    expect((await server.json<Page<unknown>>('/api/v1/history')).content).toEqual([]);
  });

  it('applies both options at the next scan to books analysed before they were switched on', async () => {
    await writeRar4(join(root, 'Saga', 'Saga 01.cbr'), members);
    const zip = await createCbz(join(root, 'Saga', 'Zip book.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    await rename(zip.path, join(root, 'Saga', 'Zip book.cbr'));
    const library = await createLibrary({});
    const ids = (await books()).map((b) => b.id).sort();
    expect((await send('PATCH', `/api/v1/libraries/${library.id}`, { convertToCbz: true, repairExtensions: true })).statusCode).toBe(204);
    // A plain scan: no file changed, nothing to analyse, yet the options apply.
    expect((await send('POST', `/api/v1/libraries/${library.id}/scan`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect((await readdir(join(root, 'Saga'))).sort()).toEqual(['Saga 01.cbz', 'Zip book.cbz']);
    expect((await books()).map((b) => b.id).sort()).toEqual(ids);
    expect((await bookNamed('Saga 01')).media.mediaType).toBe('application/zip');
  });

  it('does nothing when the option is off (default)', async () => {
    await writeRar4(join(root, 'A', 'One.cbr'), members);
    await createLibrary({});
    expect(await readdir(join(root, 'A'))).toEqual(['One.cbr']);
    expect((await server.json<Page<unknown>>('/api/v1/history')).content).toEqual([]);
  });
});

describe('repairExtensions', () => {
  it('renames a zip named .cbr to .cbz and a RAR named .cbz to .cbr, keeping the books', async () => {
    const zip = await createCbz(join(root, 'A', 'Zip book.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    await rename(zip.path, join(root, 'A', 'Zip book.cbr'));
    await writeRar4(join(root, 'A', 'Rar book.cbz'), members);
    await createCbz(join(root, 'A', 'Right.cbz'), [{ width: 10, height: 10, color: GREEN, format: 'png' }]);
    const library = await createLibrary({ repairExtensions: false });
    const ids = new Map((await books()).map((b) => [b.name, b.id]));
    expect((await readdir(join(root, 'A'))).sort()).toEqual(['Rar book.cbz', 'Right.cbz', 'Zip book.cbr']);

    expect((await send('PATCH', `/api/v1/libraries/${library.id}`, { repairExtensions: true })).statusCode).toBe(204);
    expect((await send('POST', `/api/v1/libraries/${library.id}/analyze`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect((await readdir(join(root, 'A'))).sort()).toEqual(['Rar book.cbr', 'Right.cbz', 'Zip book.cbz']);
    const after = await books();
    expect(after.map((b) => [b.name, b.id, b.deleted]).sort()).toEqual([...ids].map(([name, id]) => [name, id, false]).sort());
    expect(after.find((b) => b.name === 'Zip book')!.url).toBe(join(root, 'A', 'Zip book.cbz'));

    // The next scan finds the renamed files where the books say they are: nothing added or deleted.
    expect((await send('POST', `/api/v1/libraries/${library.id}/scan`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect((await books()).map((b) => [b.name, b.id, b.deleted]).sort()).toEqual([...ids].map(([name, id]) => [name, id, false]).sort());
  });

  it('skips a book when the right name is taken', async () => {
    const zip = await createCbz(join(root, 'A', 'Book.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    await copyFile(zip.path, join(root, 'A', 'Book.cbr'));
    await createLibrary({ repairExtensions: true });
    expect((await readdir(join(root, 'A'))).sort()).toEqual(['Book.cbr', 'Book.cbz']);
    expect(await readFile(join(root, 'A', 'Book.cbz'))).toEqual(await readFile(join(root, 'A', 'Book.cbr')));
  });
});

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { BLUE, GREEN, RED, YELLOW, createCbz, renderPage } from '../../fixtures/index.ts';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let root: string;
let seriesCover: Buffer;
let bookCover: Buffer;
beforeEach(async () => {
  server = await startServer();
  root = join(server.dir, 'library');
  await createCbz(join(root, 'Saga', 'Saga 1.cbz'), [{ width: 30, height: 30, color: RED, format: 'png' }]);
  await createCbz(join(root, 'One', 'Lone.cbz'), [{ width: 30, height: 30, color: RED, format: 'png' }]);
  await createCbz(join(root, 'One', 'Other.cbz'), [{ width: 30, height: 30, color: RED, format: 'png' }]);
  seriesCover = await renderPage({ width: 20, height: 30, color: BLUE, format: 'jpeg' });
  bookCover = await renderPage({ width: 22, height: 33, color: GREEN, format: 'png' });
  await writeFile(join(root, 'Saga', 'folder.jpg'), seriesCover);
  await writeFile(join(root, 'Saga', 'Saga 1.png'), bookCover);
  await writeFile(join(root, 'One', 'Lone.png'), bookCover);
  await writeFile(join(root, 'One', 'cover.jpg'), await renderPage({ width: 20, height: 30, color: YELLOW, format: 'jpeg' }));
});
afterEach(async () => server.close());

const send = (method: 'PATCH' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: server.admin, ...(payload ? { payload } : {}) });
async function createLibrary(options: Record<string, unknown>): Promise<LibraryDto> {
  const response = await send('POST', '/api/v1/libraries', { name: 'Comics', root, ...options });
  expect(response.statusCode).toBe(200);
  await server.app.folio.tasks.idle();
  return response.json<LibraryDto>();
}
const seriesNamed = async (name: string) =>
  (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content.find((s) => s.name === name)!;
const bookNamed = async (name: string) =>
  (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.find((b) => b.name === name)!;
const thumbnails = (url: string) => server.json<{ type: string; selected: boolean }[]>(url);

describe('importLocalArtwork', () => {
  it('takes no sidecar while off, and imports them on the next scan once on', async () => {
    const library = await createLibrary({ importLocalArtwork: false });
    const saga = await seriesNamed('Saga');
    const book = await bookNamed('Saga 1');
    expect(await thumbnails(`/api/v1/series/${saga.id}/thumbnails`)).toEqual([]);
    expect((await thumbnails(`/api/v1/books/${book.id}/thumbnails`)).filter((t) => t.type === 'SIDECAR')).toEqual([]);
    expect((await server.get(`/api/v1/books/${book.id}/thumbnail`)).rawPayload.equals(bookCover)).toBe(false);

    expect((await send('PATCH', `/api/v1/libraries/${library.id}`, { importLocalArtwork: true })).statusCode).toBe(204);
    expect((await send('POST', `/api/v1/libraries/${library.id}/scan`)).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect(await thumbnails(`/api/v1/series/${saga.id}/thumbnails`)).toMatchObject([{ type: 'SIDECAR', selected: true }]);
    expect((await server.get(`/api/v1/series/${saga.id}/thumbnail`)).rawPayload.equals(seriesCover)).toBe(true);
    expect((await server.get(`/api/v1/books/${book.id}/thumbnail`)).rawPayload.equals(bookCover)).toBe(true);
  });

  it('gives a one-shot its <book> image, not the folder cover shared by all one-shots', async () => {
    await createLibrary({ oneshotsDirectory: 'One' });
    const lone = await seriesNamed('Lone');
    const other = await seriesNamed('Other');
    expect([lone.oneshot, other.oneshot]).toEqual([true, true]);
    expect(await thumbnails(`/api/v1/series/${lone.id}/thumbnails`)).toEqual([]);
    expect(await thumbnails(`/api/v1/series/${other.id}/thumbnails`)).toEqual([]);
    const loneBook = await bookNamed('Lone');
    expect((await thumbnails(`/api/v1/books/${loneBook.id}/thumbnails`)).find((t) => t.selected)?.type).toBe('SIDECAR');
    expect((await server.get(`/api/v1/series/${lone.id}/thumbnail`)).rawPayload.equals(bookCover)).toBe(true);
  });

  it('takes the image of a book named with the same accents written decomposed (macOS) or composed', async () => {
    // The book named on Linux (composed), its artwork made on a Mac (decomposed).
    await createCbz(join(root, 'Saga', 'Caf\u00e9 2.cbz'), [{ width: 30, height: 30, color: RED, format: 'png' }]);
    await writeFile(join(root, 'Saga', 'Caf\u00e9 2.png'.normalize('NFD')), bookCover);
    await createLibrary({ importLocalArtwork: true });
    const book = await bookNamed('Caf\u00e9 2');
    expect((await thumbnails(`/api/v1/books/${book.id}/thumbnails`)).find((t) => t.selected)?.type).toBe('SIDECAR');
  });
});

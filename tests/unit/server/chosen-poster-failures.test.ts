import { rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredThumbnail } from '../../../server/db/thumbnail-repository.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { fileSlots } from '../../../server/media/file-slots.ts';
import { GREEN, createCbz } from '../../fixtures/index.ts';
import { type TestServer, multipartFile } from './helpers.ts';
import { startPosterUploadServer } from './support/poster-upload-server.ts';

/*
 * A poster someone chose (an upload, a sidecar) that cannot be read right now (no descriptor free,
 * a disk error) must be answered with an error and leave every stored poster as it was; only a
 * file that is definitely gone gives way, as in Komga: its row is dropped and the next poster (or
 * a drawn one) takes its place.
 */

let server: TestServer;
let bookId: string;
let seriesId: string;
let upload: Buffer;
let events: FolioEvent[];

beforeEach(async () => {
  ({ server, bookId, seriesId, upload } = await startPosterUploadServer());
  events = [];
  server.app.folio.events.subscribe((event) => void events.push(event));
});
afterEach(async () => {
  vi.useRealTimers();
  await server.close();
});


/** Uploads `upload` as the selected poster of `kind`/`id`; returns its stored row. */
async function uploadPoster(kind: string, id: string): Promise<StoredThumbnail> {
  const body = multipartFile(upload);
  const response = await server.app.inject({ method: 'POST', url: `/api/v1/${kind}/${id}/thumbnails`, payload: body.payload, headers: { ...server.admin, ...body.headers } });
  expect(response.statusCode).toBe(200);
  const dto = response.json() as { id: string; selected: boolean };
  expect(dto.selected).toBe(true);
  const repository = { books: server.app.folio.repos.thumbnails, series: server.app.folio.repos.seriesThumbnails, collections: server.app.folio.repos.collectionThumbnails }[kind]!;
  return repository.find(id, dto.id)!;
}

/**
 * GET `url` while every file slot is held (a crowd reading files): the read waits its 15 s for a
 * slot, on fake time (moved on until the answer comes), and is told the server is busy.
 */
async function getWhileFilesBusy(url: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const holders = Array.from({ length: fileSlots.capacity - fileSlots.inUse }, () => fileSlots.withSlot(() => held));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    let answered = false;
    const response = server.get(url).finally(() => (answered = true));
    while (!answered) {
      await vi.advanceTimersByTimeAsync(1_000);
      // Lets the request's file-system calls come back (they are not timers).
      await new Promise((resolve) => setImmediate(resolve));
    }
    return await response;
  } finally {
    vi.useRealTimers();
    release();
    await Promise.all(holders);
  }
}

const stored = () => ({
  books: server.app.folio.repos.thumbnails.list(bookId),
  series: server.app.folio.repos.seriesThumbnails.list(seriesId),
});

describe('a chosen poster that cannot be read now', () => {
  it('book: answers 500 with the reason when its file cannot be read (a link that loops), and changes nothing', async () => {
    const chosen = await uploadPoster('books', bookId);
    const path = join(server.dataDir, chosen.filePath);
    await rm(path);
    await symlink(path, path);
    const before = stored();
    events = [];
    const response = await server.get(`/api/v1/books/${bookId}/thumbnail`);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ status: 500, message: expect.stringContaining('ELOOP') });
    expect(stored()).toEqual(before);
    expect(events.filter((e) => e.name.startsWith('Thumbnail'))).toEqual([]);
  });

  it('series: answers an error rather than a book cover in its place, and changes nothing', async () => {
    const chosen = await uploadPoster('series', seriesId);
    const path = join(server.dataDir, chosen.filePath);
    await rm(path);
    await symlink(path, path);
    const before = stored();
    const response = await server.get(`/api/v1/series/${seriesId}/thumbnail`);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ message: expect.stringContaining('ELOOP') });
    expect(stored()).toEqual(before);
  });

  it('series: answers 503 while files cannot be opened, then serves the chosen poster', async () => {
    await uploadPoster('series', seriesId);
    const before = stored();
    const response = await getWhileFilesBusy(`/api/v1/series/${seriesId}/thumbnail`);
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBeDefined();
    expect(stored()).toEqual(before);
    expect((await server.get(`/api/v1/series/${seriesId}/thumbnail`)).rawPayload.equals(upload)).toBe(true);
  });
});

describe('a chosen poster whose file is gone', () => {
  it('book: its row is dropped and the drawn poster is selected and served, once', async () => {
    const chosen = await uploadPoster('books', bookId);
    await rm(join(server.dataDir, chosen.filePath));
    const response = await server.get(`/api/v1/books/${bookId}/thumbnail`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(server.app.folio.repos.thumbnails.list(bookId)).toMatchObject([{ type: 'GENERATED', selected: true }]);
    const drawn = server.app.folio.repos.thumbnails.list(bookId)[0]!.id;
    // The next request serves that poster; nothing is drawn again.
    expect((await server.get(`/api/v1/books/${bookId}/thumbnail`)).statusCode).toBe(200);
    expect(server.app.folio.repos.thumbnails.list(bookId).map((t) => t.id)).toEqual([drawn]);
  });

  it('series: its row is dropped and the series shows its book cover', async () => {
    const chosen = await uploadPoster('series', seriesId);
    await rm(join(server.dataDir, chosen.filePath));
    const response = await server.get(`/api/v1/series/${seriesId}/thumbnail`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(server.app.folio.repos.seriesThumbnails.list(seriesId)).toEqual([]);
  });

  it('collection: its row is dropped and the mosaic is served instead of a 404', async () => {
    const created = await server.app.inject({ method: 'POST', url: '/api/v1/collections', headers: server.admin, payload: { name: 'Favourites', ordered: false, seriesIds: [seriesId] } });
    const collectionId = (created.json() as { id: string }).id;
    const chosen = await uploadPoster('collections', collectionId);
    await rm(join(server.dataDir, chosen.filePath));
    const response = await server.get(`/api/v1/collections/${collectionId}/thumbnail`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(server.app.folio.repos.collectionThumbnails.list(collectionId)).toEqual([]);
  });
});

describe('a sidecar poster (local artwork in the library)', () => {
  it('gone from a folder that is there: dropped, the drawn poster shown; its folder unreachable: 503, kept', async () => {
    const root = join(server.dir, 'artwork');
    await createCbz(join(root, 'Saga', 'Saga 1.cbz'), [{ width: 30, height: 30, color: GREEN, format: 'png' }]);
    await createCbz(join(root, 'Other', 'Other 1.cbz'), [{ width: 30, height: 30, color: GREEN, format: 'png' }]);
    await writeFile(join(root, 'Saga', 'Saga 1.png'), upload);
    await writeFile(join(root, 'Other', 'Other 1.png'), upload);
    const response = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Artwork', root, importLocalArtwork: true } });
    expect(response.statusCode).toBe(200);
    await server.app.folio.tasks.idle();
    const byName = new Map(server.app.folio.repos.books.findByLibrary((response.json() as { id: string }).id).map((b) => [b.name, b.id]));
    const saga = byName.get('Saga 1')!;
    const other = byName.get('Other 1')!;
    expect(server.app.folio.repos.thumbnails.findSelectedForBook(saga)?.type).toBe('SIDECAR');

    // The image removed, its folder still there: definitely gone.
    await rm(join(root, 'Saga', 'Saga 1.png'));
    const drawn = await server.get(`/api/v1/books/${saga}/thumbnail`);
    expect(drawn.statusCode).toBe(200);
    expect(drawn.headers['content-type']).toBe('image/jpeg');
    expect(server.app.folio.repos.thumbnails.list(saga).map((t) => t.type)).toEqual(['GENERATED']);

    // The whole folder gone (a share down, a disk unmounted): not known to be gone, kept.
    const before = server.app.folio.repos.thumbnails.list(other);
    await rm(join(root, 'Other'), { recursive: true });
    const unreachable = await server.get(`/api/v1/books/${other}/thumbnail`);
    expect(unreachable.statusCode).toBe(503);
    expect(unreachable.json()).toMatchObject({ message: expect.stringContaining('cannot be reached') });
    expect(server.app.folio.repos.thumbnails.list(other)).toEqual(before);
  });
});

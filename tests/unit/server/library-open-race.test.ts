import { createHash } from 'node:crypto';
import fs, { promises as fsPromises, symlinkSync, unlinkSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { hashBookFile } from '../../../server/domain/hashing/file-hash.ts';
import { createImageEpub } from '../../fixtures/epub.ts';
import { RED, createCbz, renderPage } from '../../fixtures/index.ts';
import { writeRar5 } from '../../fixtures/rar.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/**
 * The race the library check used to lose: the path is checked (its real path lies inside the
 * library), then the file is swapped for a link leading out of it, then the path is opened. The
 * swap is made deterministic here: the real `open`/`readFile`/`createReadStream` of node are
 * wrapped so that the first opening of `path` swaps it for a link to `target` just before the real
 * call opens it (or before its `atOpening`-th opening: a reader opening the book again by path
 * after the checked open). Reading by path after a check followed the link; reading what was
 * opened and then checking the descriptor refuses it.
 */
function swapForLinkWhenOpened(path: string, target: string, atOpening = 1): void {
  let openings = 0;
  const swapIfTarget = (file: unknown) => {
    if (typeof file !== 'string' || resolve(file) !== path || ++openings !== atOpening) return;
    unlinkSync(path);
    symlinkSync(target, path);
  };
  for (const [owner, name] of [
    [fsPromises, 'open'],
    [fsPromises, 'readFile'],
    [fs, 'createReadStream'],
    [fs, 'openSync'],
  ] as const) {
    const real = (owner as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    vi.spyOn(owner as unknown as Record<string, (...args: unknown[]) => unknown>, name).mockImplementation((...args: unknown[]) => {
      swapIfTarget(args[0]);
      return real.apply(owner, args);
    });
  }
  syncBuiltinESMExports();
}

const SECRET = 'SECRET-OUTSIDE-THE-LIBRARY;'.repeat(4096);

let server: TestServer;
let root: string;
let outside: string;
beforeEach(async () => {
  server = await startServer();
  root = join(server.dir, 'library');
  outside = join(server.dir, 'outside.txt');
  await writeFile(outside, SECRET);
  await createCbz(join(root, 'Saga', 'Saga 001.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
});
afterEach(async () => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
  await server.close();
});

const onlyBook = async () => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content[0]!;

describe('a library file swapped for a link out of the library after its check', () => {
  it('is not downloaded', async () => {
    await addLibrary(server, root);
    const book = await onlyBook();
    swapForLinkWhenOpened(join(root, 'Saga', 'Saga 001.cbz'), outside);
    const response = await server.get(`/api/v1/books/${book.id}/file`);
    expect(response.body).not.toContain('SECRET');
    expect(response.statusCode).toBe(404);
  });

  it('is not read as the book', async () => {
    const book = join(root, 'Saga', 'Saga 001.cbz');
    const elsewhere = join(server.dir, 'elsewhere.cbz');
    await createCbz(elsewhere, [RED, RED, RED].map((color) => ({ width: 10, height: 10, color, format: 'png' as const })));
    swapForLinkWhenOpened(book, elsewhere);
    await addLibrary(server, root);
    const { media } = await onlyBook();
    expect(media.pagesCount).not.toBe(3);
    expect(media.status).not.toBe('READY');
  });

  it('is not put in a series download', async () => {
    await addLibrary(server, root);
    const { seriesId, sizeBytes } = await onlyBook();
    // As large as the book, so that its bytes would fit the size the zip announced.
    await writeFile(outside, SECRET.slice(0, sizeBytes));
    swapForLinkWhenOpened(join(root, 'Saga', 'Saga 001.cbz'), outside);
    // Refused when the writer reaches it: the zip, whose size was announced, ends short.
    const body = await server.get(`/api/v1/series/${seriesId}/file`).then(
      (response) => response.body,
      (error: Error) => `ended short: ${error.message}`,
    );
    expect(body).not.toContain('SECRET');
  });

  it('is not read as the book when an EPUB reader opens it again', async () => {
    await rm(join(root, 'Saga'), { recursive: true });
    const book = join(root, 'Saga', 'Saga 001.epub');
    const elsewhere = join(server.dir, 'elsewhere.epub');
    await createImageEpub(book, [{ width: 10, height: 10, color: RED, format: 'png' }]);
    await createImageEpub(elsewhere, [RED, RED, RED].map((color) => ({ width: 10, height: 10, color, format: 'png' as const })));
    // The first opening is the checked one; the second was the EPUB reader's own, by path.
    swapForLinkWhenOpened(book, elsewhere, 2);
    await addLibrary(server, root);
    const { media } = await onlyBook();
    expect(media.pagesCount).not.toBe(3);
  });

  it('is not read as the book when a RAR reader opens it again', async () => {
    await rm(join(root, 'Saga'), { recursive: true });
    const book = join(root, 'Saga', 'Saga 001.cbr');
    const elsewhere = join(server.dir, 'elsewhere.cbr');
    const page = async (name: string) => ({ name, data: await renderPage({ width: 10, height: 10, color: RED, format: 'png' }) });
    await writeRar5(book, [await page('p1.png')]);
    await writeRar5(elsewhere, [await page('p1.png'), await page('p2.png'), await page('p3.png')]);
    // The first opening is the checked one; the second was the RAR reader's own, by path.
    swapForLinkWhenOpened(book, elsewhere, 2);
    await addLibrary(server, root);
    const { media } = await onlyBook();
    expect(media.pagesCount).not.toBe(3);
    expect(media.status).toBe('READY');
  });

  it('is not hashed', async () => {
    await addLibrary(server, root);
    const book = await onlyBook();
    swapForLinkWhenOpened(join(root, 'Saga', 'Saga 001.cbz'), outside);
    await hashBookFile(server.app.folio, book.id);
    const secretHash = createHash('md5').update(await readFile(outside)).digest('hex');
    expect(server.app.folio.repos.books.findById(book.id)?.fileHash).not.toBe(secretHash);
  });

  it('is not imported as the series.json of its folder', async () => {
    const seriesJson = join(root, 'Saga', 'series.json');
    await writeFile(seriesJson, JSON.stringify({ version: '1.0.2', metadata: { type: 'comicSeries', name: 'Saga from Mylar', description_text: 'Inside' } }));
    await writeFile(outside, JSON.stringify({ version: '1.0.2', metadata: { type: 'comicSeries', name: 'Read from outside', description_text: SECRET } }));
    swapForLinkWhenOpened(seriesJson, outside);
    await addLibrary(server, root);
    const series = (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content[0]!;
    expect(series.metadata.summary).not.toContain('SECRET');
    expect(series.metadata.title).not.toBe('Read from outside');
  });

  /** Series Saga with its cover.jpg as selected sidecar poster: the series id and the poster's id. */
  async function sagaWithSidecar(cover: string): Promise<{ seriesId: string; posterId: string }> {
    await writeFile(cover, await sharp({ create: { width: 20, height: 30, channels: 3, background: 'blue' } }).jpeg().toBuffer());
    await addLibrary(server, root);
    const { seriesId } = await onlyBook();
    const posters = await server.json<{ id: string; type: string; selected: boolean }[]>(`/api/v1/series/${seriesId}/thumbnails`);
    return { seriesId, posterId: posters.find((p) => p.type === 'SIDECAR' && p.selected)!.id };
  }

  it('is not served by the sidecar poster route', async () => {
    const cover = join(root, 'Saga', 'cover.jpg');
    const { seriesId, posterId } = await sagaWithSidecar(cover);
    swapForLinkWhenOpened(cover, outside);
    const own = await server.get(`/api/v1/series/${seriesId}/thumbnails/${posterId}`);
    expect(own.body).not.toContain('SECRET');
    expect(own.statusCode).toBe(404);
  });

  it('is not served as the selected poster: the drawn one stands in', async () => {
    const cover = join(root, 'Saga', 'cover.jpg');
    const { seriesId } = await sagaWithSidecar(cover);
    swapForLinkWhenOpened(cover, outside);
    const selected = await server.get(`/api/v1/series/${seriesId}/thumbnail`);
    expect(selected.body).not.toContain('SECRET');
    expect(selected.headers['content-type']).toBe('image/jpeg');
  });
});

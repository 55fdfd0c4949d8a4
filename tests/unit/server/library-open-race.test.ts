import { createHash } from 'node:crypto';
import fs, { promises as fsPromises, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { hashBookFile } from '../../../server/domain/hashing/file-hash.ts';
import { createImageEpub } from '../../fixtures/epub.ts';
import { RED, createCbz, renderPage } from '../../fixtures/index.ts';
import { writePdf } from '../../fixtures/pdf.ts';
import { writeRar5 } from '../../fixtures/rar.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';
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

/**
 * The same race for readers whose worker threads opened the book (the spies above see only this
 * thread): as soon as the first opening of `path` (the checked one) has its descriptor, `folder`
 * (one of the path's folders) is swapped for a link to `targetFolder`, so whatever opens the path
 * after that, on any thread, by the path or through a folder of it, follows the link.
 */
function swapFolderForLinkOnceOpened(path: string, folder: string, targetFolder: string): void {
  let swapped = false;
  const real = fsPromises.open;
  vi.spyOn(fsPromises, 'open').mockImplementation(async (...args: Parameters<typeof fsPromises.open>) => {
    const file = await real.apply(fsPromises, args);
    if (!swapped && typeof args[0] === 'string' && resolve(args[0]) === path) {
      swapped = true;
      renameSync(folder, `${folder}.moved`);
      symlinkSync(targetFolder, folder);
    }
    return file;
  });
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

  /** A book of `pages` red pages at `path`. */
  type WriteBook = (path: string, pages: number) => Promise<void>;
  const writePdfBook: WriteBook = async (path, pages) => {
    await writePdf(path, Array.from({ length: pages }, () => ({ width: 72, height: 72, color: RED })));
  };
  const writeSevenZipBook: WriteBook = async (path, pages) => {
    const data = await renderPage({ width: 10, height: 10, color: RED, format: 'png' });
    await writeSevenZip(path, Array.from({ length: pages }, (_, i) => ({ name: `p${i + 1}.png`, data })));
  };

  it.each([
    ['PDF', 'pdf', writePdfBook],
    ['7-Zip', 'cb7', writeSevenZipBook],
  ] as const)('is not read as the book when the %s worker reads it', async (_format, extension, write) => {
    await rm(join(root, 'Saga'), { recursive: true });
    const book = join(root, 'Saga', 'Volume 1', `Saga 001.${extension}`);
    const elsewhere = join(server.dir, 'elsewhere');
    await write(book, 1);
    await write(join(elsewhere, 'Volume 1', `Saga 001.${extension}`), 3);
    // Swapped once the checked descriptor is open: the worker used to open the book (PDF) or
    // mount its folder (7-Zip) again by path.
    swapFolderForLinkOnceOpened(book, join(root, 'Saga'), elsewhere);
    await addLibrary(server, root);
    const { media } = await onlyBook();
    expect(media.pagesCount).toBe(1);
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

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { createImageEpub } from '../../fixtures/epub.ts';
import { GREEN, RED, createCbz } from '../../fixtures/index.ts';
import { type TestServer, addLibrary, rescan, startServer } from './helpers.ts';
import { openByContent } from '../../../server/media/archive-pool.ts';
import { pollUntil } from '../../support/poll.ts';

/*
 * A failure of the server (no free archive handle, out of descriptors, a time limit) is not a
 * failure of the book: analysis leaves the book as it was and tries again later. A book left in
 * ERROR by such a failure in the past is repaired by the next ordinary scan.
 */

let dir: string;
let server: TestServer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-transient-'));
  await createCbz(join(dir, 'library', 'Series', 'A.cbz'), [{ width: 20, height: 30, color: RED, format: 'png' }]);
  await createCbz(join(dir, 'library', 'Series', 'B.cbz'), [{ width: 20, height: 30, color: GREEN, format: 'png' }]);
  // One archive open at a time, and a short wait for it: easy to make the server "busy" (a reader
  // holding the only handle), while two analyses in a row simply wait for each other.
  server = await startServer({ archivePool: { capacity: 1, waitMs: 1_000 } });
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function nextBookChanged(bookId: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = server.app.folio.events.subscribe((event: FolioEvent) => {
      if (event.name === 'BookChanged' && event.data.bookId === bookId) {
        stop();
        resolve();
      }
    });
  });
}

describe('transient failures', () => {
  it('never change a book’s media status; the analysis is retried once the server has room', async () => {
    const library = await addLibrary(server, join(dir, 'library'));
    const books = server.app.folio.repos.books.findByLibrary(library.id);
    const a = books.find((b) => b.name === 'A')!;
    const b = books.find((b) => b.name === 'B')!;
    const before = server.app.folio.repos.media.findByBookId(b.id)!;
    expect(before.status).toBe('READY');

    // A reader holds the only archive slot (a page download in progress)...
    const stream = await (await server.app.folio.archives.get(a.url, `${a.fileSize}:${a.fileLastModified}`)).openEntry('page-001.png');
    // ...while B is analysed again: the analysis cannot get a handle in time.
    const analysed = await server.app.inject({ method: 'POST', url: `/api/v1/books/${b.id}/analyze`, headers: server.admin });
    expect(analysed.statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    const during = server.app.folio.repos.media.findByBookId(b.id)!;
    expect(during.status).toBe('READY');
    expect(during.comment).toBeNull();
    expect(during.lastModified).toBe(before.lastModified);
    expect(server.app.folio.repos.media.findPages(b.id).length).toBe(1);

    // Once the reader is done, the retry runs and records a fresh analysis.
    const retried = nextBookChanged(b.id);
    stream.destroy();
    await retried;
    const after = server.app.folio.repos.media.findByBookId(b.id)!;
    expect(after.status).toBe('READY');
    expect(after.lastModified).toBeGreaterThan(before.lastModified);
  });

  it('a poster drawn while every archive handle is busy is a 503 to retry, not a 404 or another book’s poster', async () => {
    const library = await addLibrary(server, join(dir, 'library'));
    const books = server.app.folio.repos.books.findByLibrary(library.id);
    const a = books.find((b) => b.name === 'A')!;
    const b = books.find((b) => b.name === 'B')!;
    // A, the series' first book, has no poster yet (never drawn, or removed): it is drawn on request.
    server.app.folio.repos.thumbnails.deleteGeneratedForBook(a.id);
    // A reader of B holds the only archive slot.
    const stream = await (await server.app.folio.archives.get(b.url, `${b.fileSize}:${b.fileLastModified}`)).openEntry('page-001.png');
    const bookPoster = await server.app.inject({ method: 'GET', url: `/api/v1/books/${a.id}/thumbnail`, headers: server.admin });
    const seriesPoster = await server.app.inject({ method: 'GET', url: `/api/v1/series/${a.seriesId}/thumbnail`, headers: server.admin });
    stream.destroy();
    expect(bookPoster.statusCode).toBe(503);
    expect(bookPoster.headers['retry-after']).toBeDefined();
    // Not B's poster standing in for the series' first book.
    expect(seriesPoster.statusCode).toBe(503);
    expect(server.app.folio.repos.thumbnails.findSelectedForBook(a.id)).toBeFalsy();
    expect((await server.app.inject({ method: 'GET', url: `/api/v1/books/${a.id}/thumbnail`, headers: server.admin })).statusCode).toBe(200);
  });

  it('a ComicInfo.xml that cannot be read for lack of descriptors is imported by the analysis retried later', async () => {
    await createCbz(join(dir, 'library', 'Info', 'Info.cbz'), [{ width: 20, height: 30, color: RED, format: 'png' }], { comicInfo: { title: 'The Real Title', number: '7' } });
    // The first read of its ComicInfo.xml (the import after the analysis, through the handle the
    // analysis opened) meets a process out of descriptors.
    let reads = 0;
    const busy = await startServer({
      archivePool: {
        open: async (filePath) => {
          const handle = await openByContent(filePath);
          const openEntry = handle.book.openEntry.bind(handle.book);
          handle.book.openEntry = async (name, work) => {
            if (filePath.endsWith('Info.cbz') && name === 'ComicInfo.xml' && ++reads === 1) throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
            return openEntry(name, work);
          };
          return handle;
        },
      },
    });
    try {
      const library = await addLibrary(busy, join(dir, 'library'));
      const book = busy.app.folio.repos.books.findByLibrary(library.id).find((b) => b.name === 'Info')!;
      expect(reads).toBeGreaterThanOrEqual(1);
      await pollUntil('the retried analysis to import ComicInfo.xml', () => busy.app.folio.repos.bookMetadata.findByBookId(book.id)?.title === 'The Real Title', { timeoutMs: 10_000 });
      expect(busy.app.folio.repos.bookMetadata.findByBookId(book.id)!.number).toBe('7');
      // The book is made READY once the import is written (its rating known), a moment after it.
      await pollUntil('the book to be READY after its import', () => busy.app.folio.repos.media.findByBookId(book.id)?.status === 'READY', { timeoutMs: 10_000 });
    } finally {
      await busy.close();
    }
  });

  it('a book left in ERROR (unreadable at the time) is analysed again by the next normal scan', async () => {
    const library = await addLibrary(server, join(dir, 'library'));
    const book = server.app.folio.repos.books.findByLibrary(library.id).find((b) => b.name === 'A')!;
    const media = server.app.folio.repos.media.findByBookId(book.id)!;
    // What an overloaded server used to record: a healthy file marked unreadable.
    server.app.folio.repos.media.replaceAnalysis({ ...media, status: 'ERROR', mediaType: null, comment: 'ERR_1000', pageCount: 0 }, [], []);
    await rescan(server, library.id);
    const repaired = server.app.folio.repos.media.findByBookId(book.id)!;
    expect(repaired.status).toBe('READY');
    expect(repaired.pageCount).toBe(1);
  });

  /** An image EPUB beside book A in a scanned library; `holdTheOnlySlot` opens a page of A, taking the pool's one archive handle. */
  async function epubBesideA() {
    await createImageEpub(join(dir, 'library', 'Pictures', 'Pictures.epub'), [{ width: 20, height: 30, color: RED, format: 'png' }]);
    const library = await addLibrary(server, join(dir, 'library'));
    const books = server.app.folio.repos.books.findByLibrary(library.id);
    const a = books.find((b) => b.name === 'A')!;
    const epub = books.find((b) => b.name === 'Pictures')!;
    const holdTheOnlySlot = async () => (await server.app.folio.archives.get(a.url, `${a.fileSize}:${a.fileLastModified}`)).openEntry('page-001.png');
    return { epub, holdTheOnlySlot };
  }

  it('an EPUB resource asked for while every archive handle is busy is a 503 to retry, not a 404', async () => {
    const { epub, holdTheOnlySlot } = await epubBesideA();
    const [page] = server.app.folio.repos.media.findPages(epub.id);
    expect(page).toBeDefined();

    // A reader holds the only archive slot while the EPUB's resource is asked for.
    const stream = await holdTheOnlySlot();
    const busy = await server.app.inject({ method: 'GET', url: `/api/v1/books/${epub.id}/resource/${page!.fileName}`, headers: server.admin });
    stream.destroy();
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBeDefined();
    const served = await server.app.inject({ method: 'GET', url: `/api/v1/books/${epub.id}/resource/${page!.fileName}`, headers: server.admin });
    expect(served.statusCode).toBe(200);
  });

  it("an EPUB's manifest asked for while every archive handle is busy is a 503 to retry, not a 404", async () => {
    const { epub, holdTheOnlySlot } = await epubBesideA();

    const stream = await holdTheOnlySlot();
    const busy = await server.app.inject({ method: 'GET', url: `/api/v1/books/${epub.id}/manifest/epub`, headers: server.admin });
    stream.destroy();
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBeDefined();
    const served = await server.app.inject({ method: 'GET', url: `/api/v1/books/${epub.id}/manifest/epub`, headers: server.admin });
    expect(served.statusCode).toBe(200);
    expect(served.json().readingOrder).toHaveLength(1);
  });

  it('a scan that fails (out of descriptors) is logged, counted and retried until it succeeds', async () => {
    const series = server.app.folio.repos.series;
    const findByLibrary = series.findByLibrary.bind(series);
    // The first scan meets a transient failure of the system; the retry finds the system well again.
    const failing = vi.spyOn(series, 'findByLibrary').mockImplementationOnce(() => {
      throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
    });
    const added = new Promise<void>((resolve) => {
      const stop = server.app.folio.events.subscribe((event: FolioEvent) => {
        if (event.name === 'SeriesAdded') {
          stop();
          resolve();
        }
      });
    });
    const response = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Comics', root: join(dir, 'library') } });
    expect(response.statusCode).toBe(200);
    await added;
    await server.app.folio.tasks.idle();
    failing.mockRestore();
    const libraryId = response.json().id as string;
    expect(findByLibrary(libraryId).map((s) => s.name)).toEqual(['Series']);
    expect(server.app.folio.repos.books.findByLibrary(libraryId).map((b) => b.name).sort()).toEqual(['A', 'B']);
  });
});

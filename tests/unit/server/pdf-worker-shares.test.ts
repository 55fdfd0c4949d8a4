import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { listingBounds } from '../../../server/media/analysis-bounds.ts';
import { pdfWorker } from '../../../server/media/pdf-renderer.ts';
import { GREEN } from '../../fixtures/index.ts';
import { nestedFormsPdfBytes, writePdf } from '../../fixtures/pdf.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';
import { descriptorsOn, hasPrlimit } from './support/process-files.ts';

/*
 * mupdf ran in one worker: a hostile PDF page (a few KB drawing 2^30 fills) held it for the whole
 * time limit, and every other PDF book's pages and analyses waited behind it. A PDF whose listing
 * of pages always ran out of time was put off as a transient failure, analysed again at every scan
 * (each time holding the worker for the limit), and never ERROR.
 */

let server: TestServer | undefined;
const limit = pdfWorker.timeLimitMs;
const workerData = pdfWorker.workerData;
afterEach(async () => {
  pdfWorker.timeLimitMs = limit;
  pdfWorker.workerData = workerData;
  await pdfWorker.stop();
  await server?.close();
  server = undefined;
});

describe('a hostile PDF', () => {
  it('holds one mupdf worker at most: another reader gets another PDF book drawn meanwhile', async () => {
    // Long enough that a page served "meanwhile" cannot be one served after the time-out.
    pdfWorker.timeLimitMs = 20_000;
    const s = (server = await startServer());
    const root = join(s.dir, 'library');
    await mkdir(join(root, 'Pdfs'), { recursive: true });
    // Its hostile page (4) is one the analysis does not draw (poster, first and last pages' hashes).
    await writeFile(join(root, 'Pdfs', 'forms.pdf'), nestedFormsPdfBytes(30, { blankPagesAround: 3 }));
    await writePdf(join(root, 'Pdfs', 'plain.pdf'), [{ width: 200, height: 300, color: GREEN }]);
    await addLibrary(s, root);
    await insertUser(s, 'reader@example.org', 'reader password 1', ['USER', 'PAGE_STREAMING']);
    const reader = { authorization: basic('reader@example.org', 'reader password 1') };
    const byName = new Map((await s.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b]));

    let hostileAnswered = false;
    const hostile = s.get(`/api/v1/books/${byName.get('forms')!.id}/pages/4`).finally(() => {
      hostileAnswered = true;
    });
    await pollUntil('the hostile page being drawn', () => pdfWorker.inFlight());
    // At a size not drawn before (the analysis drew and cached the default one).
    const plain = await s.get(`/api/v1/books/${byName.get('plain')!.id}/pages/1?width=120`, reader);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('image/jpeg');
    // Before: served only once the hostile drawing had run out of its 20 s.
    expect(hostileAnswered).toBe(false);
    // Stopped, the drawing is cut short (503: the server's doing), not recorded against the book.
    await pdfWorker.stop();
    expect((await hostile).statusCode).toBe(503);
  }, 90_000);

  it('whose pages cannot be listed in time ends ERROR (ERR_1008) after a few listings, not put off for ever', async () => {
    const s = (server = await startServer());
    const root = join(s.dir, 'library');
    await writePdf(join(root, 'Pdfs', 'slow.pdf'), [{ width: 200, height: 300, color: GREEN }]);
    // Every call runs out of time (a fresh worker alone takes longer than 1 ms to start).
    await pdfWorker.stop();
    pdfWorker.timeLimitMs = 1;
    const before = pdfWorker.calls;
    await addLibrary(s, root);
    pdfWorker.timeLimitMs = limit;
    const [book] = (await s.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    // Before: UNKNOWN, put off to a later attempt and to every scan.
    expect(book!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1008', pagesCount: 0 });
    expect(pdfWorker.calls - before).toBe(listingBounds.timeOuts);
  }, 60_000);

  it('that grows mupdf\'s heap past the bound gets its worker ended after the call, so the memory is not kept', async () => {
    const s = (server = await startServer());
    const root = join(s.dir, 'library');
    await writePdf(join(root, 'Pdfs', 'plain.pdf'), [{ width: 600, height: 600, color: GREEN }]);
    await addLibrary(s, root);
    const [book] = (await s.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    // Workers started from now on keep at most 64 MiB; a 6000 px drawing (108 MB of pixels) grows
    // the heap past it, a 100 px one does not.
    await pdfWorker.stop();
    pdfWorker.workerData = { maxKeptHeapBytes: 64 * 1024 * 1024 };
    const started = pdfWorker.started;
    const big = await s.get(`/api/v1/books/${book!.id}/pages/1?width=6000&height=6000`);
    expect(big.statusCode).toBe(200);
    // Before: the worker that drew it went on holding its heap (no worker was ever ended for it).
    await pollUntil('the grown worker to be ended', () => !pdfWorker.isRunning());
    const small = await s.get(`/api/v1/books/${book!.id}/pages/1?width=100`);
    expect(small.statusCode).toBe(200);
    // A fresh worker drew the small page, and was kept.
    expect({ started: pdfWorker.started - started, running: pdfWorker.isRunning() }).toEqual({ started: 2, running: true });
  }, 60_000);

  it('a closed book leaves no descriptor in any worker that drew it, not only in the one that got the close', async () => {
    pdfWorker.timeLimitMs = 3_000;
    const s = (server = await startServer());
    const root = join(s.dir, 'library');
    const plainPath = join(root, 'Pdfs', 'plain.pdf');
    await mkdir(join(root, 'Pdfs'), { recursive: true });
    await writeFile(join(root, 'Pdfs', 'forms.pdf'), nestedFormsPdfBytes(30, { blankPagesAround: 3 }));
    await writePdf(plainPath, [{ width: 200, height: 300, color: GREEN }]);
    await addLibrary(s, root);
    await insertUser(s, 'reader@example.org', 'reader password 1', ['USER', 'PAGE_STREAMING']);
    const reader = { authorization: basic('reader@example.org', 'reader password 1') };
    const byName = new Map((await s.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b]));
    const plain = byName.get('plain')!;
    // No worker holds anything from the analysis.
    await pdfWorker.stop();
    // The hostile page holds the first worker, so the plain page is drawn by the second; once the
    // first is ended by the time limit, a fresh one draws the plain page again: both hold its document.
    const hostile = s.get(`/api/v1/books/${byName.get('forms')!.id}/pages/4`);
    await pollUntil('the hostile page being drawn', () => pdfWorker.inFlight());
    expect((await s.get(`/api/v1/books/${plain.id}/pages/1?width=120`, reader)).statusCode).toBe(200);
    expect((await hostile).statusCode).toBe(503);
    expect((await s.get(`/api/v1/books/${plain.id}/pages/1?width=130`, reader)).statusCode).toBe(200);
    expect(pdfWorker.runningCalls()).toBe(0);
    // The pool closes the book (as when it needs the slot, or the file changed).
    s.app.folio.archives.forget(plain.url);
    // Before: the close went to one worker; the other kept its descriptor (until 4 other PDFs pushed it out).
    await pollUntil('no descriptor left open on the closed book', () => descriptorsOn(plainPath).length === 0, { timeoutMs: 10_000 });
  }, 60_000);

  it('leaves no descriptor open once its worker was ended (time limit, stop)', async () => {
    pdfWorker.timeLimitMs = 2_000;
    const s = (server = await startServer());
    const root = join(s.dir, 'library');
    const path = join(root, 'Pdfs', 'forms.pdf');
    await mkdir(join(root, 'Pdfs'), { recursive: true });
    await writeFile(path, nestedFormsPdfBytes(30, { blankPagesAround: 3 }));
    await addLibrary(s, root);
    const [book] = (await s.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    // The hostile page runs out of time: its worker is ended mid-call, holding the document.
    expect((await s.get(`/api/v1/books/${book!.id}/pages/4`)).statusCode).toBe(503);
    // The other worker (the analysis's documents) is stopped, and the pool's handle closed.
    await pdfWorker.stop();
    s.app.folio.archives.forget(book!.url);
    // Already so: a worker's descriptors are closed when it ends (Node closes what fs opened in a
    // worker thread), mid-call or not. Kept as the proof that ending workers leaks none.
    await pollUntil('no descriptor left open on the book', () => descriptorsOn(path).length === 0, { timeoutMs: 10_000 });
  }, 60_000);
});


import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { pdfReader } from '../../../server/media/pdf-reader.ts';
import { pdfWorker } from '../../../server/media/pdf-renderer.ts';
import { renderScale } from '../../../server/media/pdf-protocol.ts';
import { analyseContainer } from '../../../server/media/analyse-container.ts';
import { MAX_HINTED_FILES } from '../../../server/domain/pages/rendered-pages.ts';
import { BLUE, GREEN, RED } from '../../fixtures/index.ts';
import { encryptedPdfBytes, manyPagesPdfBytes, nestedFormsPdfBytes, pdfBytes, writePdf } from '../../fixtures/pdf.ts';
import { MAX_ARCHIVE_ENTRIES } from '../../../server/media/book-reader.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/** Format, size and the colour at the centre of an encoded image. */
async function inspect(bytes: Buffer) {
  const image = sharp(bytes);
  const meta = await image.metadata();
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return { format: meta.format, width: meta.width, height: meta.height, centre: [data[at]!, data[at + 1]!, data[at + 2]!] };
}

const near = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - expected[i]!) <= 8);

describe('PDF sizing rules', () => {
  it('draws at 150 DPI by default, capped at 2000 px, and fits size hints', () => {
    expect(renderScale(72, 72)).toBeCloseTo(150 / 72);
    expect(renderScale(2000, 1000)).toBeCloseTo(1); // 150 DPI would be 4167 px wide
    expect(renderScale(600, 900, 300)).toBeCloseTo(0.5);
    expect(renderScale(600, 900, 300, 300)).toBeCloseTo(300 / 900);
    expect(renderScale(600, 900, undefined, 90)).toBeCloseTo(0.1);
    expect(renderScale(10, 10, 1_000_000)).toBeCloseTo(600); // clamped to 6000 px
  });
});

describe('PDF reader', () => {
  it('accepts only files starting with %PDF-', () => {
    expect(pdfReader.matchesSignature(pdfBytes([]))).toBe(true);
    expect(pdfReader.matchesSignature(Buffer.from(' %PDF-1.4'))).toBe(false);
    expect(pdfReader.matchesSignature(Buffer.from('%PD'))).toBe(false);
  });

  it('refuses a PDF listing more pages than any book has (ERR_1008) instead of listing them all', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-pdf-pages-'));
    try {
      const path = join(dir, 'pages.pdf');
      await writeFile(path, manyPagesPdfBytes(MAX_ARCHIVE_ENTRIES + 1));
      await expect(analyseContainer(path)).rejects.toMatchObject({ code: 'ERR_1008', message: expect.stringMatching(/more than the 100000 allowed/) });
    } finally {
      // The suite below checks that nothing starts mupdf before a PDF is met.
      await pdfWorker.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('closing a PDF book', () => {
  it('says why when the worker could not close the document (it was stopped), instead of saying nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-pdf-close-'));
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const path = await writePdf(join(dir, 'closed.pdf'), [{ width: 100, height: 100, color: RED }]);
      const book = await pdfReader.open(path);
      // The worker runs and holds the document open.
      await book.describe!(false);
      book.close();
      // The close is in the worker now: stopping it ends that call as busy.
      await pdfWorker.stop();
      const warning = await pollUntil('a warning about the close', () => warnings.find((w) => w.message.includes(path)), { timeoutMs: 5_000, intervalMs: 10 });
      expect(warning.message).toBe(`the PDF worker could not close ${path}: the PDF worker was stopped; try again shortly`);
    } finally {
      process.off('warning', onWarning);
      await pdfWorker.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('PDF books through the server', () => {
  let server: TestServer;
  let root: string;
  let books: Map<string, BookDto>;

  beforeAll(async () => {
    server = await startServer();
    // mupdf is big: nothing loads it (no worker runs) until a PDF is actually analysed or drawn.
    expect(pdfWorker.isRunning()).toBe(false);
    root = join(server.dir, 'library');
    await writePdf(join(root, 'Pdfs', 'good.pdf'), [
      { width: 595, height: 842, color: RED },
      { width: 300, height: 200, color: GREEN },
      { width: 400, height: 600, color: BLUE },
    ]);
    // A PDF named like a comic archive: analysed as a PDF all the same.
    await writePdf(join(root, 'Pdfs', 'disguised.cbz'), [{ width: 100, height: 100, color: BLUE }]);
    const broken = join(root, 'Broken Pdfs');
    const full = pdfBytes([{ width: 100, height: 100, color: RED }]);
    await writePdf(join(broken, 'no-pages.pdf'), []);
    await writeFile(join(broken, 'empty.pdf'), Buffer.alloc(0));
    await writeFile(join(broken, 'garbage.pdf'), Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2000, 0x07)]));
    await writeFile(join(broken, 'header-only.pdf'), full.subarray(0, 15));
    await writeFile(join(broken, 'encrypted.pdf'), await encryptedPdfBytes([{ width: 100, height: 100, color: RED }]));
    // A wrong startxref offset: damaged, but mupdf rebuilds the cross-reference table.
    const text = full.toString('latin1');
    const damaged = text.replace(/startxref\n\d+/, 'startxref\n12');
    expect(damaged).not.toBe(text);
    await writeFile(join(root, 'Pdfs', 'repairable.pdf'), Buffer.from(damaged, 'latin1'));
    await addLibrary(server, root);
    const page = await server.json<Page<BookDto>>('/api/v1/books?unpaged=true');
    books = new Map(page.content.map((b) => [b.name, b]));
  });
  afterAll(async () => server.close());

  it('analyses a PDF: profile PDF, page count, page sizes in pixels of the default drawing', async () => {
    const book = books.get('good')!;
    expect(book.media).toMatchObject({ status: 'READY', mediaType: 'application/pdf', mediaProfile: 'PDF', pagesCount: 3, comment: '' });
    const pages = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
    expect(pages.map((p) => [p.number, p.fileName, p.mediaType, p.width, p.height])).toEqual([
      [1, '1', 'image/jpeg', 1240, 1755],
      [2, '2', 'image/jpeg', 625, 417],
      [3, '3', 'image/jpeg', 834, 1250],
    ]);
  });

  it('draws pages as JPEG at the listed size, or PNG / a requested size on demand', async () => {
    const id = books.get('good')!.id;
    const first = await server.get(`/api/v1/books/${id}/pages/1`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    expect(Number(first.headers['content-length'])).toBe(first.rawPayload.length);
    const one = await inspect(first.rawPayload);
    expect([one.format, one.width, one.height]).toEqual(['jpeg', 1240, 1755]);
    expect(near(one.centre, RED)).toBe(true);

    const png = await server.get(`/api/v1/books/${id}/pages/2?convert=png`);
    expect(png.headers['content-type']).toBe('image/png');
    const two = await inspect(png.rawPayload);
    expect([two.format, two.width, two.height, two.centre]).toEqual(['png', 625, 417, GREEN]);

    const small = await inspect((await server.get(`/api/v1/books/${id}/pages/3?width=200`)).rawPayload);
    expect([small.width, small.height]).toEqual([200, 300]);
    expect(near(small.centre, BLUE)).toBe(true);
    const boxed = await inspect((await server.get(`/api/v1/books/${id}/pages/3?width=200&height=150`)).rawPayload);
    expect([boxed.width, boxed.height]).toEqual([100, 150]);
    expect((await server.get(`/api/v1/books/${id}/pages/3?width=wide`)).statusCode).toBe(400);
    expect((await server.get(`/api/v1/books/${id}/pages/4`)).statusCode).toBe(400);
  });

  it('caches drawn pages on disk under the data dir, per page, size and format', async () => {
    const id = books.get('good')!.id;
    const first = await server.get(`/api/v1/books/${id}/pages/2?width=50`);
    const again = await server.get(`/api/v1/books/${id}/pages/2?width=50`);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const [version] = await readdir(join(server.dataDir, 'cache', 'rendered-pages', id));
    const cached = await readdir(join(server.dataDir, 'cache', 'rendered-pages', id, version!));
    expect(cached).toEqual(expect.arrayContaining(['1-w-h.jpg', '2-w-h.png', '2-w50-h.jpg', '3-w200-h.jpg', '3-w200-h150.jpg']));
  });

  // Any width is a new file: a client asking width after width must not fill the data dir.
  it('keeps a bounded number of drawings at size hints per book, and still serves the others', async () => {
    const id = books.get('good')!.id;
    const widths = Array.from({ length: MAX_HINTED_FILES + 10 }, (_, i) => 20 + i);
    for (const width of widths) {
      const response = await server.get(`/api/v1/books/${id}/pages/1?width=${width}`);
      expect(response.statusCode).toBe(200);
    }
    const last = await server.get(`/api/v1/books/${id}/pages/1?width=${widths.at(-1)}`);
    expect((await inspect(last.rawPayload)).width).toBe(widths.at(-1));
    const [version] = await readdir(join(server.dataDir, 'cache', 'rendered-pages', id));
    const cached = await readdir(join(server.dataDir, 'cache', 'rendered-pages', id, version!));
    expect(cached.filter((name) => !/-w-h\./.test(name)).length).toBe(MAX_HINTED_FILES);
    expect(cached).toEqual(expect.arrayContaining(['1-w-h.jpg']));
  }, 120_000);

  it('serves a page as a one-page PDF on /raw and when Accept prefers PDF', async () => {
    const id = books.get('good')!.id;
    const raw = await server.get(`/api/v1/books/${id}/pages/2/raw`);
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('application/pdf');
    expect(raw.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The extracted page is itself a valid one-page PDF with that page's size.
    const path = join(server.dir, 'extracted.pdf');
    await writeFile(path, raw.rawPayload);
    const extracted = await pdfReader.open(path);
    try {
      const described = await extracted.describe!(true);
      expect(described.pages.map((p) => [p.width, p.height])).toEqual([[625, 417]]);
    } finally {
      extracted.close();
    }

    const negotiated = await server.get(`/api/v1/books/${id}/pages/2`, { ...server.admin, accept: 'application/pdf, image/*;q=0.5' });
    expect(negotiated.headers['content-type']).toBe('application/pdf');
    const imagesFirst = await server.get(`/api/v1/books/${id}/pages/2`, { ...server.admin, accept: 'image/*, application/pdf;q=0.5' });
    expect(imagesFirst.headers['content-type']).toBe('image/jpeg');
    const noNegotiation = await server.get(`/api/v1/books/${id}/pages/2?contentNegotiation=false`, { ...server.admin, accept: 'application/pdf' });
    expect(noNegotiation.headers['content-type']).toBe('image/jpeg');
  });

  it('gives page thumbnails and a poster from the drawn first page', async () => {
    const id = books.get('good')!.id;
    const thumb = await inspect((await server.get(`/api/v1/books/${id}/pages/1/thumbnail`)).rawPayload);
    expect([thumb.format, thumb.width, thumb.height]).toEqual(['jpeg', 212, 300]);
    const poster = await server.get(`/api/v1/books/${id}/thumbnail`);
    expect(poster.statusCode).toBe(200);
    expect(near((await inspect(poster.rawPayload)).centre, RED)).toBe(true);
  });

  it('reads a PDF with a damaged cross-reference table after repair', async () => {
    const book = books.get('repairable')!;
    expect(book.media).toMatchObject({ status: 'READY', pagesCount: 1 });
    const page = await inspect((await server.get(`/api/v1/books/${book.id}/pages/1`)).rawPayload);
    expect(near(page.centre, RED)).toBe(true);
  });

  it('detects a PDF by content whatever its extension', async () => {
    const book = books.get('disguised')!;
    expect(book.media).toMatchObject({ status: 'READY', mediaType: 'application/pdf', pagesCount: 1 });
    const page = await inspect((await server.get(`/api/v1/books/${book.id}/pages/1`)).rawPayload);
    expect(near(page.centre, BLUE)).toBe(true);
  });

  it.each([
    ['no-pages', 'ERR_1006'],
    ['empty', 'ERR_1001'],
    ['garbage', 'ERR_1008'],
    ['header-only', 'ERR_1008'],
    ['encrypted', 'ERR_1008'],
  ])('marks %s as ERROR %s and keeps serving', async (name, code) => {
    const book = books.get(name)!;
    // A file that is no such archive at all is UNSUPPORTED (ERR_1001), as Komga marks it.
    expect(book.media).toMatchObject({ status: code === 'ERR_1001' ? 'UNSUPPORTED' : 'ERROR', comment: code, pagesCount: 0 });
    expect((await server.get(`/api/v1/books/${book.id}/pages/1`)).statusCode).toBe(404);
    expect((await server.get(`/api/v1/books/${book.id}/pages/1/raw`)).statusCode).toBe(404);
    expect((await server.get('/api/v2/users/me')).statusCode).toBe(200);
  });

  it('starts a fresh mupdf worker after the previous one went away', async () => {
    const id = books.get('good')!.id;
    await pdfWorker.stop();
    expect(pdfWorker.isRunning()).toBe(false);
    const page = await server.get(`/api/v1/books/${id}/pages/3?width=123`);
    expect(page.statusCode).toBe(200);
    expect((await inspect(page.rawPayload)).width).toBe(123);
    expect(pdfWorker.isRunning()).toBe(true);
  });

  it('says why a password-protected PDF failed', async () => {
    await expect(analyseContainer(join(root, 'Broken Pdfs', 'encrypted.pdf'))).rejects.toMatchObject({
      code: 'ERR_1008',
      message: expect.stringMatching(/password/),
    });
  });
});

describe('a PDF page that takes mupdf for ever to draw', () => {
  it('is cut off at the time limit (503, not recorded against the book) and other PDFs are still drawn', async () => {
    const limit = pdfWorker.timeLimitMs;
    pdfWorker.timeLimitMs = 2_000;
    const slowServer = await startServer();
    try {
      const library = join(slowServer.dir, 'library');
      await mkdir(join(library, 'Pdfs'), { recursive: true });
      // 2^30 fills: days of drawing.
      await writeFile(join(library, 'Pdfs', 'forms.pdf'), nestedFormsPdfBytes(30));
      await writePdf(join(library, 'Pdfs', 'plain.pdf'), [{ width: 200, height: 300, color: GREEN }]);
      await addLibrary(slowServer, library);
      const byName = new Map((await slowServer.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.map((b) => [b.name, b]));
      const forms = byName.get('forms')!;
      expect(forms.media).toMatchObject({ status: 'READY', pagesCount: 1 });
      const slow = await slowServer.get(`/api/v1/books/${forms.id}/pages/1`);
      expect(slow.statusCode).toBe(503);
      expect(slow.headers['retry-after']).toBeDefined();
      // Asked again soon (another reader, the page's thumbnail), it fails at once without the worker.
      const calls = pdfWorker.calls;
      expect((await slowServer.get(`/api/v1/books/${forms.id}/pages/1`)).statusCode).toBe(503);
      expect((await slowServer.get(`/api/v1/books/${forms.id}/pages/1/thumbnail`)).statusCode).toBe(503);
      expect(pdfWorker.calls).toBe(calls);
      const plain = await slowServer.get(`/api/v1/books/${byName.get('plain')!.id}/pages/1`);
      expect(plain.statusCode).toBe(200);
      expect((await slowServer.json<BookDto>(`/api/v1/books/${forms.id}`)).media.status).toBe('READY');
    } finally {
      pdfWorker.timeLimitMs = limit;
      await pdfWorker.stop();
      await slowServer.close();
    }
  }, 60_000);
});

import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { MAX_LIST_VALUES, MalformedComicInfoError, parseComicInfo, readComicInfo } from '../../../server/domain/metadata/comicinfo.ts';
import { MAX_PACKAGE_ITEMS, parseOpf } from '../../../server/media/epub-opf.ts';
import { INLINE_MAX_CHARS, xmlWorker } from '../../../server/media/xml-parsing.ts';
import { createImageEpub } from '../../fixtures/epub.ts';
import { BLUE, createCbz, RED } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { startServer, type TestServer } from './helpers.ts';

/*
 * XML from a book is parsed by synchronous parsers; a large hostile document (a 1 MB ComicInfo.xml
 * of empty elements, a 4 MB package document) cost the server's one JavaScript thread seconds, and
 * no request was answered meanwhile. Documents over INLINE_MAX_CHARS are parsed in the XML worker.
 */

const page = { width: 40, height: 60, color: RED, format: 'png' as const };
/** Empty elements: the shape the parsers are slowest on per byte (about a second per MB here). */
const filler = (chars: number) => '<x/>'.repeat(Math.ceil(chars / 4));

let server: TestServer;
const defaultLimit = xmlWorker.timeLimitMs;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  xmlWorker.timeLimitMs = defaultLimit;
  await server.close();
});

/** Creates a library without waiting for its analyses. */
async function createLibrary(root: string): Promise<void> {
  const response = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Books', root } });
  expect(response.statusCode).toBe(200);
}

const books = async () => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;

describe('large XML documents are parsed off the main thread', () => {
  it('answers a request while a hostile 1 MB package document is being parsed, then reads the book', async () => {
    const root = join(server.dir, 'lib');
    await createImageEpub(join(root, 'big', 'book.epub'), [page, { ...page, color: BLUE }], {
      metadata: `<dc:title>Big package</dc:title>${filler(1024 * 1024)}`,
    });
    await createLibrary(root);
    // The parse is running: the main thread must still answer, and the book is not analysed yet.
    await pollUntil('the package document in the XML worker', () => xmlWorker.inFlight(), { intervalMs: 5 });
    const during = await books();
    const stillParsing = xmlWorker.inFlight();
    expect(during.map((b) => b.media.status)).toEqual(['UNKNOWN']);
    expect(stillParsing).toBe(true);
    await server.app.folio.tasks.idle();
    const [book] = await books();
    expect(book!.media.status).toBe('READY');
    expect(book!.media.pagesCount).toBe(2);
    expect(book!.metadata.title).toBe('Big package');
  });

  it('imports a large ComicInfo.xml through the worker, and skips a large malformed one naming its line', async () => {
    const root = join(server.dir, 'lib');
    const summary = 'A long summary. '.repeat(Math.ceil((INLINE_MAX_CHARS * 2) / 16)).trim();
    await createCbz(join(root, 'one', 'good.cbz'), [page], { comicInfo: { title: 'Long one', summary } });
    await createCbz(join(root, 'two', 'bad.cbz'), [page], {
      comicInfo: `<?xml version="1.0"?>\n<ComicInfo>\n${filler(INLINE_MAX_CHARS * 2)}\n<Title>unclosed\n</ComicInfo>`,
    });
    const callsBefore = xmlWorker.calls;
    await createLibrary(root);
    await server.app.folio.tasks.idle();
    expect(xmlWorker.calls - callsBefore).toBe(2);
    const byName = new Map((await books()).map((b) => [b.name, b]));
    expect(byName.get('good')!.metadata).toMatchObject({ title: 'Long one', summary });
    const bad = byName.get('bad')!;
    expect(bad.media.status).toBe('READY');
    expect(bad.media.comment).toMatch(/^ComicInfo\.xml skipped: ComicInfo\.xml is not well-formed \(line 5\)/);
    expect(bad.metadata.title).toBe('bad');
  });

  it('ends a book ERROR (ERR_1008) when its package document takes past the time limit, and skips such a ComicInfo.xml', async () => {
    const root = join(server.dir, 'lib');
    await createImageEpub(join(root, 'slow', 'book.epub'), [page], { metadata: `<dc:title>Slow</dc:title>${filler(1024 * 1024)}` });
    await createCbz(join(root, 'comic', 'slow.cbz'), [page], { comicInfo: `<?xml version="1.0"?><ComicInfo><Title>T</Title>${filler(1024 * 1024 - 1024)}</ComicInfo>` });
    // A time limit no parse of a megabyte meets, so that the test does not wait for the real one.
    xmlWorker.timeLimitMs = 1;
    await createLibrary(root);
    await server.app.folio.tasks.idle();
    const byName = new Map((await books()).map((b) => [b.name, b]));
    expect(byName.get('book')!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1008' });
    const comic = byName.get('slow')!;
    expect(comic.media.status).toBe('READY');
    expect(comic.media.comment).toMatch(/^ComicInfo\.xml skipped: .*too complex to read/);
    expect(comic.metadata.title).toBe('slow');
  });

  it('records nothing against a book when the worker is stopped under its parse, and reads it on the retry', async () => {
    const root = join(server.dir, 'lib');
    await createImageEpub(join(root, 'big', 'book.epub'), [page], { metadata: `<dc:title>Retried</dc:title>${filler(1024 * 1024)}` });
    await createLibrary(root);
    await pollUntil('the package document in the XML worker', () => xmlWorker.inFlight(), { intervalMs: 5 });
    const calls = xmlWorker.calls;
    await xmlWorker.stop();
    // The analysis was deferred (the server's fault, not the book's) and is tried again.
    await pollUntil('the retried parse', () => xmlWorker.calls > calls, { intervalMs: 20 });
    await server.app.folio.tasks.idle();
    await pollUntil('the book read on the retry', async () => (await books())[0]!.media.status !== 'UNKNOWN', { intervalMs: 50 });
    const [book] = await books();
    expect(book!.media.status).toBe('READY');
    expect(book!.metadata.title).toBe('Retried');
  });
});

describe('parsing bounds', () => {
  it('readComicInfo gives what parseComicInfo gives, from the worker too, and the same malformed error', async () => {
    const xml = `<?xml version="1.0"?><ComicInfo><Title>T</Title><Writer>A, B</Writer><Summary>${'s'.repeat(INLINE_MAX_CHARS)}</Summary></ComicInfo>`;
    const calls = xmlWorker.calls;
    expect(await readComicInfo(xml, 'test document')).toEqual(parseComicInfo(xml));
    expect(xmlWorker.calls).toBe(calls + 1);
    const malformed = `<ComicInfo>\n${'<x/>'.repeat(INLINE_MAX_CHARS)}\n<Title>open</ComicInfo>`;
    const failure = readComicInfo(malformed, 'test document');
    await expect(failure).rejects.toBeInstanceOf(MalformedComicInfoError);
    await expect(failure).rejects.toMatchObject({ line: 3 });
  });

  it('keeps at most MAX_LIST_VALUES names of a ComicInfo list', () => {
    const names = Array.from({ length: 5 * MAX_LIST_VALUES }, (_, i) => `Name ${i}`).join(',');
    const patch = parseComicInfo(`<ComicInfo><Writer>${names}</Writer><Tags>${names}</Tags></ComicInfo>`)!;
    expect(patch.book.authors).toHaveLength(MAX_LIST_VALUES);
    expect(patch.book.authors![0]).toEqual({ name: 'Name 0', role: 'writer' });
    expect(patch.book.tags).toHaveLength(MAX_LIST_VALUES);
  });

  it('refuses a package document listing more items than any book', () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `<item id="i${i}" href="p${i}.xhtml" media-type="application/xhtml+xml"/>`).join('');
    const opf = (n: number) => `<package version="3.0"><metadata><dc:title>T</dc:title></metadata><manifest>${items(n)}</manifest><spine><itemref idref="i0"/></spine></package>`;
    expect(parseOpf(opf(MAX_PACKAGE_ITEMS), 'content.opf').manifest).toHaveLength(MAX_PACKAGE_ITEMS);
    expect(() => parseOpf(opf(MAX_PACKAGE_ITEMS + 1), 'content.opf')).toThrow(/over the 20000/);
  });
});

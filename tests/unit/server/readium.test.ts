import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import type { FolioEvent } from '../../../server/domain/events.ts';
import { BLUE, GREEN, RED, createCbz, renderPage } from '../../fixtures/index.ts';
import { createImageEpub, opfXml, writeEpub } from '../../fixtures/epub.ts';
import { writePdf } from '../../fixtures/pdf.ts';
import { basic, insertUser, startServer, type TestServer } from './helpers.ts';
import { shapeProblems } from './openapi-shape.ts';

let server: TestServer;
let comic: BookDto;
let novel: BookDto;
let pictures: BookDto;
let pdf: BookDto;
let flat: BookDto;
const LONG_CHAPTER = `${'a-chapter-whose-file-name-goes-on-'.repeat(5)}1.xhtml`;
const chapterBytes: number[] = [];
let coverBytes: Buffer;
const FONT = Buffer.from('wOFF not really a font, but bytes all the same');
const CSS = 'body { font-family: "Folio Serif"; }';

const HOST = 'reader.example:8080';
const ORIGIN = `http://${HOST}`;

/** A text EPUB with an EPUB 3 navigation document, a stylesheet, a font and an image whose name has a space. */
async function writeNovel(path: string): Promise<void> {
  const chapter = (n: number, size: number) => {
    const text = `<p id="p${n}">${'Call me Ishmael. Some years ago, never mind how long precisely. '.repeat(Math.ceil(size / 64))}</p>`;
    return `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>C${n}</title><link rel="stylesheet" href="../styles/book.css"/></head><body><h1>Chapter ${n}</h1>${text}</body></html>\n`;
  };
  const chapters = [chapter(1, 2500), chapter(2, 300)];
  chapterBytes.push(...chapters.map((c) => Buffer.byteLength(c)));
  const nav = `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body>
<nav epub:type="toc"><ol>
  <li><a href="text/ch1.xhtml">Loomings &amp; more</a><ol><li><a href="text/ch1.xhtml#p1">The Carpet-Bag</a></li></ol></li>
  <li><a href="text/ch2.xhtml">The Spouter-Inn</a></li>
</ol></nav>
<nav epub:type="landmarks"><ol><li><a epub:type="bodymatter" href="text/ch1.xhtml">Start</a></li></ol></nav>
</body></html>`;
  coverBytes = await renderPage({ width: 40, height: 60, color: BLUE, format: 'jpeg' });
  await writeEpub(path, [
    { name: 'OEBPS/text/ch1.xhtml', data: chapters[0]! },
    { name: 'OEBPS/text/ch2.xhtml', data: chapters[1]! },
    { name: 'OEBPS/nav.xhtml', data: nav },
    { name: 'OEBPS/styles/book.css', data: CSS },
    { name: 'OEBPS/fonts/serif.woff', data: FONT },
    { name: 'OEBPS/images/the cover.jpg', data: coverBytes },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '    <dc:title>Moby-Dick</dc:title>\n    <dc:creator>Herman Melville</dc:creator>',
        manifest: [
          { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' },
          { id: 'ch1', href: 'text/ch1.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'ch2', href: 'text/ch2.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'css', href: 'styles/book.css', mediaType: 'text/css' },
          { id: 'font', href: 'fonts/serif.woff', mediaType: 'font/woff' },
          { id: 'cover', href: 'images/the%20cover.jpg', mediaType: 'image/jpeg', properties: 'cover-image' },
        ],
        spine: ['ch1', 'ch2'],
      }),
    },
  ]);
}

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'lib');
  await createCbz(join(root, 'Comic', 'Comic 01.cbz'), [
    { width: 60, height: 90, color: RED, format: 'png' },
    { width: 80, height: 100, color: GREEN, format: 'jpeg' },
    { width: 60, height: 90, color: BLUE, format: 'png' },
  ]);
  await writeNovel(join(root, 'Novel', 'Moby-Dick.epub'));
  await createImageEpub(join(root, 'Pictures', 'Pictures.epub'), [
    { width: 50, height: 70, color: RED, format: 'png' },
    { width: 70, height: 50, color: GREEN, format: 'jpeg' },
  ]);
  // Everything at the root of the zip, with a chapter whose name is longer than a router's usual
  // 100-character limit on one path segment (publishers' file names can be).
  await writeEpub(
    join(root, 'Flat', 'Flat.epub'),
    [
      { name: LONG_CHAPTER, data: '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><p>Flat.</p></body></html>\n' },
      {
        name: 'content.opf',
        data: opfXml({
          metadata: '    <dc:title>Flat</dc:title>',
          manifest: [{ id: 'c', href: LONG_CHAPTER, mediaType: 'application/xhtml+xml' }],
          spine: ['c'],
        }),
      },
    ],
    { opfPath: 'content.opf' },
  );
  await writePdf(join(root, 'Paper', 'Paper.pdf'), [
    { width: 200, height: 300, color: RED },
    { width: 200, height: 300, color: GREEN },
  ]);
  const created = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Lib', root } });
  expect(created.statusCode).toBe(200);
  await server.app.folio.tasks.idle();
  const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
  const named = (name: string) => books.find((b) => b.name === name)!;
  comic = named('Comic 01');
  novel = named('Moby-Dick');
  pictures = named('Pictures');
  pdf = named('Paper');
  flat = named('Flat');
  expect([comic, novel, pictures, pdf, flat].map((b) => b.media.status)).toEqual(['READY', 'READY', 'READY', 'READY', 'READY']);
});
afterAll(async () => {
  await server.close();
});

const get = (url: string, headers: Record<string, string> = server.admin) => server.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });
const local = (href: string) => {
  expect(href.startsWith(`${ORIGIN}/api/v1/books/`)).toBe(true);
  return href.slice(ORIGIN.length);
};

interface Link {
  href: string;
  type?: string;
  rel?: string;
  title?: string;
  width?: number;
  height?: number;
}
interface Manifest {
  metadata: Record<string, unknown>;
  links: Link[];
  readingOrder: Link[];
  resources: Link[];
  toc: Link[];
  landmarks: Link[];
}
const manifest = async (url: string, type: string) => {
  const response = await get(url);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain(type);
  const body = response.json() as Manifest;
  expect(shapeProblems(body, 'WPPublicationDto')).toEqual([]);
  return body;
};

describe('WebPub manifests', () => {
  it('Divina for a comic: pages in order with type and size, links that serve them', async () => {
    const m = await manifest(`/api/v1/books/${comic.id}/manifest`, 'application/divina+json');
    expect(m.metadata).toMatchObject({ title: 'Comic 01', numberOfPages: 3, conformsTo: 'https://readium.org/webpub-manifest/profiles/divina' });
    expect(m.readingOrder.map((l) => [l.type, l.width, l.height])).toEqual([
      ['image/png', 60, 90],
      ['image/jpeg', 80, 100],
      ['image/png', 60, 90],
    ]);
    const second = await get(local(m.readingOrder[1]!.href));
    expect(second.statusCode).toBe(200);
    expect(second.headers['content-type']).toBe('image/jpeg');
    expect(m.links.find((l) => l.rel === 'self')).toMatchObject({ href: `${ORIGIN}/api/v1/books/${comic.id}/manifest`, type: 'application/divina+json' });
    expect(m.links.find((l) => l.rel === 'http://opds-spec.org/acquisition')).toMatchObject({ type: 'application/zip' });
    expect((await get(`/api/v1/books/${comic.id}/manifest/divina`)).statusCode).toBe(200);
    expect((await get(`/api/v1/books/${comic.id}/manifest/epub`)).statusCode).toBe(400);
    expect((await get(`/api/v1/books/${comic.id}/manifest/pdf`)).statusCode).toBe(400);
  });

  it('EPUB profile for a text EPUB: spine, resources and navigation, every link served from the archive', async () => {
    const m = await manifest(`/api/v1/books/${novel.id}/manifest`, 'application/webpub+json');
    expect(m.metadata).toMatchObject({ title: 'Moby-Dick', author: ['Herman Melville'], rendition: { layout: 'reflowable' } });
    expect(m.readingOrder).toEqual([
      { href: `${ORIGIN}/api/v1/books/${novel.id}/resource/OEBPS/text/ch1.xhtml`, type: 'application/xhtml+xml', properties: {} },
      { href: `${ORIGIN}/api/v1/books/${novel.id}/resource/OEBPS/text/ch2.xhtml`, type: 'application/xhtml+xml', properties: {} },
    ]);
    const resources = Object.fromEntries(m.resources.map((l) => [l.type, l.href]));
    expect(resources['text/css']).toBe(`${ORIGIN}/api/v1/books/${novel.id}/resource/OEBPS/styles/book.css`);
    expect(resources['image/jpeg']).toBe(`${ORIGIN}/api/v1/books/${novel.id}/resource/OEBPS/images/the%20cover.jpg`);
    expect(m.toc.map((l) => [l.title, l.href.slice(`${ORIGIN}/api/v1/books/${novel.id}/resource/`.length)])).toEqual([
      ['Loomings & more', 'OEBPS/text/ch1.xhtml'],
      ['The Carpet-Bag', 'OEBPS/text/ch1.xhtml#p1'],
      ['The Spouter-Inn', 'OEBPS/text/ch2.xhtml'],
    ]);
    expect(m.landmarks.map((l) => l.title)).toEqual(['Start']);

    const chapter = await get(local(m.readingOrder[1]!.href));
    expect(chapter.statusCode).toBe(200);
    expect(chapter.headers['content-type']).toContain('application/xhtml+xml');
    expect(chapter.body).toContain('<h1>Chapter 2</h1>');
    const cover = await get(local(resources['image/jpeg']!));
    expect(cover.statusCode).toBe(200);
    expect(cover.rawPayload.equals(coverBytes)).toBe(true);
    expect((await get(local(resources['text/css']!))).body).toBe(CSS);

    expect((await get(`/api/v1/books/${novel.id}/manifest/epub`)).statusCode).toBe(200);
    expect((await get(`/api/v1/books/${novel.id}/manifest/divina`)).statusCode).toBe(400);
  });

  it('image-only EPUB: spine links carry the page sizes, and it can be read as Divina', async () => {
    const m = await manifest(`/api/v1/books/${pictures.id}/manifest`, 'application/webpub+json');
    expect(m.readingOrder.map((l) => [l.width, l.height])).toEqual([[50, 70], [70, 50]]);
    expect(m.metadata.rendition).toEqual({ layout: 'fixed' });
    expect(m.links.some((l) => l.href.endsWith('/manifest/divina'))).toBe(true);
    const divina = await manifest(`/api/v1/books/${pictures.id}/manifest/divina`, 'application/divina+json');
    expect(divina.readingOrder.map((l) => l.type)).toEqual(['image/png', 'image/jpeg']);
  });

  it('PDF profile: one-page PDFs in order; the Divina profile draws the pages', async () => {
    const m = await manifest(`/api/v1/books/${pdf.id}/manifest`, 'application/webpub+json');
    expect(m.readingOrder.map((l) => [l.href, l.type])).toEqual([
      [`${ORIGIN}/api/v1/books/${pdf.id}/pages/1/raw`, 'application/pdf'],
      [`${ORIGIN}/api/v1/books/${pdf.id}/pages/2/raw`, 'application/pdf'],
    ]);
    const raw = await get(local(m.readingOrder[0]!.href));
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toContain('application/pdf');
    expect((await manifest(`/api/v1/books/${pdf.id}/manifest/pdf`, 'application/webpub+json')).readingOrder).toHaveLength(2);
    expect((await manifest(`/api/v1/books/${pdf.id}/manifest/divina`, 'application/divina+json')).readingOrder).toHaveLength(2);
  });
});

describe('positions', () => {
  it('one per 1024 bytes of each chapter, numbered across the book, as many as the page count', async () => {
    const response = await get(`/api/v1/books/${novel.id}/positions`);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { total: number; positions: { href: string; locations: { position: number; progression: number; totalProgression: number } }[] };
    expect(shapeProblems(body, 'R2Positions')).toEqual([]);
    const perChapter = chapterBytes.map((b) => Math.ceil(b / 1024));
    expect(body.total).toBe(perChapter[0]! + perChapter[1]!);
    expect(body.total).toBe(novel.media.pagesCount);
    expect(body.positions.map((p) => p.locations.position)).toEqual(Array.from({ length: body.total }, (_, i) => i + 1));
    const second = body.positions[perChapter[0]!]!;
    expect(second.href.endsWith('/resource/OEBPS/text/ch2.xhtml')).toBe(true);
    expect(second.locations.progression).toBe(0);
    expect(body.positions[1]!.locations.progression).toBeCloseTo(1 / perChapter[0]!);
    expect((await get(`/api/v1/books/${comic.id}/positions`)).statusCode).toBe(404);
  });
});

describe('progression', () => {
  const put = (bookId: string, payload: unknown) =>
    server.app.inject({ method: 'PUT', url: `/api/v1/books/${bookId}/progression`, headers: { host: HOST, ...server.admin, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const readProgress = async (bookId: string) => (await server.json<BookDto>(`/api/v1/books/${bookId}`)).readProgress;

  it('EPUB: stored per user, turned into read progress, older updates refused, forgotten with the read progress', async () => {
    expect((await get(`/api/v1/books/${novel.id}/progression`)).statusCode).toBe(204);
    const events: FolioEvent[] = [];
    const unsubscribe = server.app.folio.events.subscribe((e) => events.push(e));
    const locator = {
      href: `${ORIGIN}/api/v1/books/${novel.id}/resource/OEBPS/text/ch2.xhtml#p2`,
      type: 'application/xhtml+xml',
      locations: { progression: 0.5, position: 99, fragments: ['p2'] },
      text: { highlight: 'Spouter' },
    };
    const body = { modified: '2026-01-02T03:04:05Z', device: { id: 'kobo-1', name: 'Readium' }, locator };
    expect((await put(novel.id, body)).statusCode).toBe(204);
    unsubscribe();
    expect(events.map((e) => e.name)).toEqual(['ReadProgressChanged', 'ReadProgressSeriesChanged']);

    const response = await get(`/api/v1/books/${novel.id}/progression`);
    expect(response.statusCode).toBe(200);
    expect(shapeProblems(response.json(), 'R2Progression')).toEqual([]);
    expect(response.json()).toEqual(body);
    const pages = novel.media.pagesCount;
    expect(await readProgress(novel.id)).toMatchObject({ page: pages, completed: true, deviceId: 'kobo-1', deviceName: 'Readium', readDate: '2026-01-02T03:04:05Z' });

    const earlier = { ...body, modified: '2026-01-01T00:00:00Z', locator: { ...locator, href: locator.href.replace('ch2', 'ch1') } };
    expect((await put(novel.id, earlier)).statusCode).toBe(409);
    const start = { ...body, modified: '2026-01-03T00:00:00Z', locator: { href: `/api/v1/books/${novel.id}/resource/OEBPS/text/ch1.xhtml`, type: 'application/xhtml+xml', locations: { progression: 0.4 } } };
    expect((await put(novel.id, start)).statusCode).toBe(204);
    expect(await readProgress(novel.id)).toMatchObject({ page: Math.floor(0.4 * Math.ceil(chapterBytes[0]! / 1024)) + 1, completed: false });

    for (const bad of [
      { ...start, locator: { ...start.locator, href: `/api/v1/books/${novel.id}/resource/OEBPS/styles/nope.css` } },
      { ...start, locator: { href: start.locator.href, type: 'application/xhtml+xml' } },
      { ...start, modified: 'yesterday' },
      { locator: start.locator, modified: start.modified },
    ]) {
      expect((await put(novel.id, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }

    expect((await server.app.inject({ method: 'DELETE', url: `/api/v1/books/${novel.id}/read-progress`, headers: server.admin })).statusCode).toBe(204);
    expect((await get(`/api/v1/books/${novel.id}/progression`)).statusCode).toBe(204);
  });

  it('a locator as komga-webui sends it (`fragment`, not `fragments`) is read back in the contract’s R2Locator shape', async () => {
    // komga-webui's EPUB reader (functions/readium.ts) names the list `fragment`; Komga binds the
    // body to its own R2Locator, so unknown keys are dropped and `fragments` is always there.
    const sent = {
      modified: '2026-03-01T10:00:00.123Z',
      device: { id: 'unused', name: 'Komga-webui' },
      locator: {
        href: 'OEBPS/text/ch1.xhtml',
        type: 'application/xhtml+xml',
        locations: { fragment: [], progression: 0.25, position: 1, totalProgression: 0.1, extra: 'x' },
        text: { highlight: 'Call me', colour: 'red' },
        somethingElse: { deep: true },
      },
    };
    expect((await put(novel.id, sent)).statusCode).toBe(204);
    const response = await get(`/api/v1/books/${novel.id}/progression`);
    expect(shapeProblems(response.json(), 'R2Progression')).toEqual([]);
    expect(response.json().locator).toEqual({
      href: 'OEBPS/text/ch1.xhtml',
      type: 'application/xhtml+xml',
      locations: { fragments: [], progression: 0.25, position: 1, totalProgression: 0.1 },
      text: { highlight: 'Call me' },
    });
    expect((await server.app.inject({ method: 'DELETE', url: `/api/v1/books/${novel.id}/read-progress`, headers: server.admin })).statusCode).toBe(204);
  });

  it('Divina: the locator position is the page; page-based progress shows up as a derived locator', async () => {
    const body = { modified: '2026-02-01T00:00:00Z', device: { id: 'd', name: 'Web' }, locator: { href: `${ORIGIN}/api/v1/books/${comic.id}/pages/2`, type: 'image/jpeg', locations: { position: 2 } } };
    expect((await put(comic.id, body)).statusCode).toBe(204);
    expect(await readProgress(comic.id)).toMatchObject({ page: 2, completed: false });
    expect((await put(comic.id, { ...body, locator: { ...body.locator, locations: { position: 4 } } })).statusCode).toBe(400);

    // Progress changed by the page reader: the stored locator no longer applies.
    const patch = await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${comic.id}/read-progress`, headers: server.admin, payload: { page: 3 } });
    expect(patch.statusCode).toBe(204);
    const derived = (await get(`/api/v1/books/${comic.id}/progression`)).json();
    expect(shapeProblems(derived, 'R2Progression')).toEqual([]);
    expect(derived.locator).toMatchObject({ href: `${ORIGIN}/api/v1/books/${comic.id}/pages/3?contentNegotiation=false`, type: 'image/png', locations: { position: 3, totalProgression: 1 } });
    expect(derived.device).toEqual({ id: '', name: '' });
  });
});

describe('EPUB resources', () => {
  const anonymous = { 'x-requested-with': 'XMLHttpRequest' };

  it('need a signed-in caller, fonts included (Komga leaves fonts open)', async () => {
    expect((await get(`/api/v1/books/${novel.id}/resource/OEBPS/text/ch1.xhtml`, anonymous)).statusCode).toBe(401);
    expect((await get(`/api/v1/books/${novel.id}/resource/OEBPS/fonts/serif.woff`, anonymous)).statusCode).toBe(401);
    const font = await get(`/api/v1/books/${novel.id}/resource/OEBPS/fonts/serif.woff`);
    expect(font.statusCode).toBe(200);
    expect(font.rawPayload.equals(FONT)).toBe(true);
    expect(font.headers['content-type']).toBe('font/woff');
    expect((await get(`/api/v1/books/0NOTABOOK/resource/OEBPS/fonts/serif.woff`)).statusCode).toBe(404);
  });

  it('need PAGE_STREAMING, like the pages of any other book (they are the whole text of the book)', async () => {
    await insertUser(server, 'no-streaming@example.org', 'no-streaming-password', ['FILE_DOWNLOAD']);
    const without = { authorization: basic('no-streaming@example.org', 'no-streaming-password') };
    // Before: 200, while the same user's page and raw-page requests were refused.
    for (const path of ['OEBPS/text/ch1.xhtml', 'OEBPS/styles/book.css', 'OEBPS/fonts/serif.woff']) {
      expect((await get(`/api/v1/books/${novel.id}/resource/${path}`, without)).statusCode, path).toBe(403);
    }
    await insertUser(server, 'streaming@example.org', 'streaming-password', ['PAGE_STREAMING']);
    const streaming = { authorization: basic('streaming@example.org', 'streaming-password') };
    expect((await get(`/api/v1/books/${novel.id}/resource/OEBPS/text/ch1.xhtml`, streaming)).statusCode).toBe(200);
  });

  it('serve only entries listed for that EPUB, never anything else', async () => {
    for (const path of ['OEBPS/text/missing.xhtml', '..%2F..%2Fdata%2Ffolio.sqlite', '../../../../etc/passwd', 'META-INF/../../x']) {
      expect((await get(`/api/v1/books/${novel.id}/resource/${path}`)).statusCode, path).toBe(404);
    }
    expect((await get(`/api/v1/books/${comic.id}/resource/001.png`)).statusCode).toBe(400);
    expect((await get(`/api/v1/books/0NOTABOOK/resource/OEBPS/text/ch1.xhtml`)).statusCode).toBe(404);
  });

  it('serve an entry at the root of the zip whose name is longer than 100 characters', async () => {
    const listed = (await manifest(`/api/v1/books/${flat.id}/manifest/epub`, 'application/webpub+json')).readingOrder[0]!;
    expect(listed.href).toBe(`${ORIGIN}/api/v1/books/${flat.id}/resource/${LONG_CHAPTER}`);
    const chapter = await get(local(listed.href));
    expect(chapter.statusCode, chapter.body).toBe(200);
    expect(chapter.body).toContain('Flat.');
  });

  it('answers 304 when unchanged since If-Modified-Since', async () => {
    const first = await get(`/api/v1/books/${novel.id}/resource/OEBPS/styles/book.css`);
    const again = await get(`/api/v1/books/${novel.id}/resource/OEBPS/styles/book.css`, { ...server.admin, 'if-modified-since': String(first.headers['last-modified']) });
    expect(again.statusCode).toBe(304);
  });
});

describe('access', () => {
  it('books outside the caller’s libraries are 404 everywhere', async () => {
    const id = await insertUser(server, 'outsider@example.org', 'outsider-password', ['PAGE_STREAMING']);
    const user = server.app.folio.repos.users.findById(id)!;
    server.app.folio.repos.users.update({ ...user, sharedAllLibraries: false, sharedLibraryIds: [] });
    const outsider = { authorization: basic('outsider@example.org', 'outsider-password') };
    for (const url of [
      `/api/v1/books/${comic.id}/manifest`,
      `/api/v1/books/${novel.id}/manifest/epub`,
      `/api/v1/books/${novel.id}/positions`,
      `/api/v1/books/${novel.id}/progression`,
      `/api/v1/books/${novel.id}/resource/OEBPS/text/ch1.xhtml`,
    ]) {
      expect((await get(url, outsider)).statusCode, url).toBe(404);
    }
  });
});

describe('fonts', () => {
  it('no extra font families; font resources are 404', async () => {
    expect((await get('/api/v1/fonts/families')).json()).toEqual([]);
    expect((await get('/api/v1/fonts/families', { 'x-requested-with': 'XMLHttpRequest' })).statusCode).toBe(401);
    expect((await get('/api/v1/fonts/resource/Literata/css', {})).statusCode).toBe(404);
    expect((await get('/api/v1/fonts/resource/Literata/Literata.woff2', {})).statusCode).toBe(404);
  });
});

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { createTextEpub } from '../../fixtures/epub.ts';
import { writePdf } from '../../fixtures/pdf.ts';
import { RED, GREEN } from '../../fixtures/comics.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/*
 * Komga's OPDS 2 addresses of a book beyond its file and poster (Opds2Controller and
 * CommonBookController): manifests, pages, raw pages, EPUB resources and the R2 progression,
 * served as the /api ones are, with the same login, roles and content rules.
 */

let server: TestServer;
let comic: BookDto;
let epub: BookDto;

beforeAll(async () => {
  server = await startServer();
  const sample = await createSampleLibrary(join(server.dir, 'library'));
  await createTextEpub(join(sample.root, 'Gamma', 'Gamma 01.epub'), [2000]);
  await writePdf(join(sample.root, 'Delta', 'Delta 01.pdf'), [
    { width: 200, height: 300, color: RED },
    { width: 200, height: 300, color: GREEN },
  ]);
  await addLibrary(server, sample.root);
  const books = (await server.json<Page<BookDto>>('/api/v1/books?sort=name&unpaged=true')).content;
  comic = books.find((b) => b.name === 'Alpha 01')!;
  epub = books.find((b) => b.name === 'Gamma 01')!;
});
afterAll(async () => {
  await server.close();
});

const v2 = (book: BookDto, rest: string) => `/opds/v2/books/${book.id}/${rest}`;
const api = (book: BookDto, rest: string) => `/api/v1/books/${book.id}/${rest}`;

/** Addresses that need only a login, and those that need PAGE_STREAMING too. */
const urls = () => ({
  login: [v2(comic, 'manifest'), v2(comic, 'manifest/divina'), v2(epub, 'manifest/epub'), v2(comic, 'progression')],
  streaming: [v2(comic, 'pages/1'), v2(comic, 'pages/1/raw'), v2(epub, 'resource/OEBPS/text/ch1.xhtml')],
});

/** Where light-my-request's requests arrive: the origin of every absolute link. */
const ORIGIN = 'http://localhost:80';

type Link = { href: string; children?: Link[] };
type Publication = { links: Link[]; images?: Link[]; metadata: { belongsTo?: { series?: { links?: Link[] }[] } } };
type Manifest = Publication & { readingOrder: Link[]; resources: Link[]; toc: Link[]; landmarks: Link[]; pageList: Link[] };

/** Every href of a publication or manifest, nested table-of-contents entries included. */
function hrefsOf(document: Partial<Manifest>): string[] {
  const flat = (links: Link[] = []): string[] => links.flatMap((l) => [l.href, ...flat(l.children)]);
  const series = (document.metadata?.belongsTo?.series ?? []).flatMap((s) => flat(s.links));
  return [document.links, document.images, document.readingOrder, document.resources, document.toc, document.landmarks, document.pageList]
    .flatMap((links) => flat(links))
    .concat(series);
}

describe("Komga's OPDS 2 book addresses", () => {
  it("an OPDS 2 feed's publications and the manifests they link to point only at /opds/v2 addresses, all served", async () => {
    const feed = await server.json<{ publications: Publication[] }>('/opds/v2/libraries/books/latest?size=50');
    const seen = new Set<string>();
    const manifests: string[] = [];
    for (const publication of feed.publications) {
      for (const href of hrefsOf(publication)) seen.add(href);
      manifests.push(...publication.links.filter((l) => /\/manifest(\/divina)?$/.test(l.href)).map((l) => l.href));
    }
    expect(manifests.length).toBeGreaterThanOrEqual(5);
    for (const href of manifests) {
      const manifest = await server.get(href.slice(ORIGIN.length));
      expect(manifest.statusCode, href).toBe(200);
      for (const inner of hrefsOf(manifest.json() as Manifest)) seen.add(inner);
    }
    const outside = [...seen].filter((href) => !href.startsWith(`${ORIGIN}/opds/v2/`));
    expect(outside).toEqual([]);
    for (const href of seen) {
      const path = href.slice(ORIGIN.length).split('#')[0]!;
      const response = await server.get(path);
      // A book without a poster (the text EPUB) has none at either address, as in Komga.
      const expected = path.endsWith('/thumbnail') ? (await server.get(path.replace('/opds/v2/books/', '/api/v1/books/'))).statusCode : 200;
      expect(response.statusCode, href).toBe(expected);
    }
  });

  it('serve the manifests as the /api ones, typed as OPDS publications, their links kept under /opds/v2', async () => {
    for (const [book, rest] of [[comic, 'manifest'], [comic, 'manifest/divina'], [epub, 'manifest'], [epub, 'manifest/epub']] as const) {
      const response = await server.get(v2(book, rest));
      expect(response.statusCode, rest).toBe(200);
      expect(response.headers['content-type'], rest).toContain('application/opds-publication+json');
      const fromApi = (await server.get(api(book, rest))).json() as Manifest;
      // The same document in the OPDS 2 address family, whose series names its OPDS 2 feed (Komga's OpdsGenerator).
      const expected = JSON.parse(JSON.stringify(fromApi).replaceAll(`${ORIGIN}/api/v1/books/`, `${ORIGIN}/opds/v2/books/`)) as Manifest;
      expected.metadata.belongsTo!.series![0]!.links = [{ href: `${ORIGIN}/opds/v2/series/${book.seriesId}`, type: 'application/opds+json', properties: {} } as Link];
      expect(response.json(), rest).toEqual(expected);
    }
    expect((await server.get(v2(comic, 'manifest/pdf'))).statusCode).toBe(400);
  });

  it('serve pages counted from 1 whatever zero_based says, raw pages and EPUB resources', async () => {
    const first = (await server.get(api(comic, 'pages/1'))).rawPayload;
    expect((await server.get(v2(comic, 'pages/1'))).rawPayload.equals(first)).toBe(true);
    expect((await server.get(v2(comic, 'pages/1?zero_based=true'))).rawPayload.equals(first)).toBe(true);
    expect((await server.get(v2(comic, 'pages/0'))).statusCode).toBe(400);
    expect((await server.get(v2(comic, 'pages/4'))).statusCode).toBe(400);
    const converted = await server.get(v2(comic, 'pages/1?convert=jpeg'));
    expect(converted.headers['content-type']).toBe('image/jpeg');
    expect((await server.get(v2(comic, 'pages/2/raw'))).rawPayload.equals((await server.get(api(comic, 'pages/2/raw'))).rawPayload)).toBe(true);
    const chapter = await server.get(v2(epub, 'resource/OEBPS/text/ch1.xhtml'));
    expect(chapter.statusCode).toBe(200);
    expect(chapter.body).toBe((await server.get(api(epub, 'resource/OEBPS/text/ch1.xhtml'))).body);
  });

  it('read and save the R2 progression as the /api address does (positions stay /api only, as in Komga)', async () => {
    expect((await server.get(v2(comic, 'progression'))).statusCode).toBe(204);
    const saved = await server.app.inject({
      method: 'PUT',
      url: v2(comic, 'progression'),
      headers: server.admin,
      payload: { modified: new Date().toISOString(), device: { id: 'd1', name: 'Reader' }, locator: { href: 'page2', type: 'image/png', locations: { position: 2 } } },
    });
    expect(saved.statusCode).toBe(204);
    const viaOpds = await server.get(v2(comic, 'progression'));
    expect(viaOpds.statusCode).toBe(200);
    expect(viaOpds.json()).toEqual((await server.get(api(comic, 'progression'))).json());
    expect(viaOpds.json().device).toEqual({ id: 'd1', name: 'Reader' });
    expect((await server.get(v2(epub, 'positions'))).statusCode).toBe(404);
  });

  it('need a login, and PAGE_STREAMING where the /api addresses need it', async () => {
    for (const url of Object.values(urls()).flat()) expect((await server.get(url, {})).statusCode, url).toBe(401);
    await insertUser(server, 'reader@example.org', 'pw', []);
    const reader = { authorization: basic('reader@example.org', 'pw') };
    for (const url of urls().streaming) expect((await server.get(url, reader)).statusCode, url).toBe(403);
    expect((await server.get(v2(comic, 'manifest'), reader)).statusCode).toBe(200);
  });

  it('answer 404 for a book the caller may not see, as for an unknown one', async () => {
    const id = await insertUser(server, 'kids@example.org', 'pw', ['FILE_DOWNLOAD', 'PAGE_STREAMING']);
    // Only books rated 12 or less: the sample's series have no rating, so none is visible.
    const user = server.app.folio.repos.users.findById(id)!;
    server.app.folio.repos.users.update({ ...user, ageRestriction: 12, ageRestrictionType: 'ALLOW_ONLY' });
    const kids = { authorization: basic('kids@example.org', 'pw') };
    for (const url of Object.values(urls()).flat()) expect((await server.get(url, kids)).statusCode, url).toBe(404);
  });
});

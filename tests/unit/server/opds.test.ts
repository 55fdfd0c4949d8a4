import { statSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleLibrary, type SampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let sample: SampleLibrary;
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => ['entry', 'link', 'author'].includes(name) });

type Link = { '@rel': string; '@href': string; '@type'?: string; '@pse:count'?: string; '@pse:lastRead'?: string; '@pse:lastReadDate'?: string };
type Feed = { feed: { title: string; link: Link[]; entry?: { title: string; link: Link[] }[] } };

beforeAll(async () => {
  server = await startServer();
  sample = await createSampleLibrary(join(server.dir, 'library'));
  await addLibrary(server, sample.root);
});
afterAll(async () => {
  await server.close();
});

/** Links are absolute, for the address the request came to (light-my-request: localhost:80). */
const ORIGIN = 'http://localhost:80';
const local = (href: string) => {
  expect(href.startsWith(`${ORIGIN}/`), href).toBe(true);
  return href.slice(ORIGIN.length);
};

async function opds(url: string): Promise<Feed['feed']> {
  const response = await server.get(url.startsWith(ORIGIN) ? local(url) : url);
  expect(response.statusCode, url).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/atom\+xml;profile=opds-catalog;kind=(navigation|acquisition)/);
  expect(XMLValidator.validate(response.body)).toBe(true);
  return (parser.parse(response.body) as Feed).feed;
}
async function seriesId(name: string): Promise<string> {
  const all = await server.json<{ content: { id: string; name: string }[] }>('/api/v1/series?size=100');
  return all.content.find((s) => s.name === name)!.id;
}
const href = (links: Link[], rel: string) => links.find((l) => l['@rel'] === rel)?.['@href'];
const PSE = 'http://vaemendis.net/opds-pse/stream';

describe('OPDS 1.2', () => {
  it('asks e-readers for Basic credentials', async () => {
    const response = await server.get('/opds/v1.2/catalog', {});
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic realm="Realm"');
  });

  it('navigates catalog → libraries → series → books with acquisition and page streaming links', async () => {
    const catalog = await opds('/opds/v1.2/catalog');
    expect(catalog.entry!.map((e) => e.title)).toEqual([
      'Keep Reading', 'On Deck', 'All series', 'Latest series', 'Latest books', 'All libraries', 'All collections', 'All read lists', 'All publishers',
    ]);
    expect(href(catalog.link, 'search')).toBe(`${ORIGIN}/opds/v1.2/search`);

    const libraries = await opds(href(catalog.entry![5]!.link, 'subsection')!);
    expect(libraries.entry!.map((e) => e.title)).toEqual(['Comics']);
    const series = await opds(href(libraries.entry![0]!.link, 'subsection')!);
    expect(series.entry!.map((e) => e.title)).toEqual(['Alpha', 'Beta', 'Broken']);

    const alpha = await opds(href(series.entry![0]!.link, 'subsection')!);
    expect(alpha.entry!.map((e) => e.title)).toEqual(['Alpha 01', 'Alpha 02']);
    const first = alpha.entry![0]!.link;
    const stream = first.find((l) => l['@rel'] === PSE)!;
    expect(stream['@pse:count']).toBe('3');
    const page0 = await server.get(local(stream['@href']).replace('{pageNumber}', '0'));
    expect(page0.rawPayload.equals(sample.series[0]!.books[0]!.pages[0]!.bytes)).toBe(true);

    // A book that failed analysis is not offered at all (Komga's series feed lists READY books only).
    const broken = await opds(href(series.entry![2]!.link, 'subsection')!);
    expect(broken.entry ?? []).toEqual([]);
  });

  it('download links end with the file name (readers name the saved file after the URL) and download it', async () => {
    const alpha = await opds(`/opds/v1.2/series/${await seriesId('Alpha')}`);
    const download = alpha.entry![0]!.link.find((l) => l['@rel'] === 'http://opds-spec.org/acquisition')!;
    expect(download['@type']).toBe('application/zip');
    expect(download['@href']).toMatch(/\/opds\/v1\.2\/books\/\w+\/file\/Alpha%2001\.cbz$/);
    const file = await server.get(local(download['@href']));
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBe(statSync(sample.series[0]!.books[0]!.path).size);
  });

  it('page streaming says the pages’ own type and where the reader stopped (pse:lastRead)', async () => {
    const alpha = await opds(`/opds/v1.2/series/${await seriesId('Alpha')}`);
    const bookId = /books\/(\w+)\//.exec(href(alpha.entry![0]!.link, PSE)!)![1]!;
    const unread = alpha.entry![0]!.link.find((l) => l['@rel'] === PSE)!;
    // PNG pages, shown as they are: no conversion, and the link says PNG.
    expect(unread['@type']).toBe('image/png');
    expect(unread['@href']).not.toContain('convert=');
    expect(unread['@pse:lastRead']).toBeUndefined();

    const marked = await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${bookId}/read-progress`, headers: { ...server.admin, 'content-type': 'application/json' }, payload: { page: 2 } });
    expect(marked.statusCode).toBe(204);
    const after = await opds(`/opds/v1.2/series/${await seriesId('Alpha')}`);
    const stream = after.entry![0]!.link.find((l) => l['@rel'] === PSE)!;
    expect(stream['@pse:lastRead']).toBe('2');
    expect(stream['@pse:lastReadDate']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // The book in progress is in Keep Reading, titled with its series as Komga does.
    const keepReading = await opds('/opds/v1.2/keep-reading');
    expect(keepReading.entry!.map((e) => e.title)).toEqual(['Alpha 1: Alpha 01']);
    // On Deck is the next book of a series whose read books are finished: none while one is open.
    const onDeck = await opds('/opds/v1.2/ondeck');
    expect(onDeck.entry ?? []).toEqual([]);
  });

  it('a summary with characters XML cannot carry (controls, a lone surrogate) still gives a valid feed', async () => {
    const beta = await opds(`/opds/v1.2/series/${await seriesId('Beta')}`);
    const bookId = /books\/(\w+)\//.exec(href(beta.entry![0]!.link, PSE)!)![1]!;
    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/books/${bookId}/metadata`,
      headers: { ...server.admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ summary: 'Bell\u0007 and\u000c feed \ud800end', title: 'Beta\u001b 01' }),
    });
    expect(patched.statusCode).toBe(204);
    // opds() checks the feed parses as XML.
    const after = await opds(`/opds/v1.2/series/${await seriesId('Beta')}`);
    expect(after.entry![0]!.title).toBe('Beta 01');
    // (The lone surrogate is already U+FFFD once stored as UTF-8.)
    expect((after.entry![0] as unknown as { content: { '#text': string } }).content['#text']).toBe('Bell and feed \ufffdend');
  });

  it('latest books and latest series, newest first, READY books only', async () => {
    const books = await opds('/opds/v1.2/books/latest');
    expect(books.entry!.map((e) => e.title).sort()).toEqual(['Alpha 1: Alpha 01', 'Alpha 2: Alpha 02', 'Beta 1: Beta 01']);
    const series = await opds('/opds/v1.2/series/latest');
    expect(series.entry!.map((e) => e.title).sort()).toEqual(['Alpha', 'Beta', 'Broken']);
  });

  it('collections, read lists and publishers, each in its own order, lead to their series and books', async () => {
    const post = (url: string, payload: unknown, method = 'POST') =>
      server.app.inject({ method, url, headers: { ...server.admin, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    const [alpha, beta] = [await seriesId('Alpha'), await seriesId('Beta')];
    expect((await post('/api/v1/collections', { name: 'Picks', ordered: true, seriesIds: [beta, alpha] })).statusCode).toBe(200);
    const books = await server.json<{ content: { id: string; name: string }[] }>('/api/v1/books?size=100');
    const id = (name: string) => books.content.find((b) => b.name === name)!.id;
    const list = { name: 'Order', ordered: true, bookIds: [id('Beta 01'), id('Alpha 02'), id('Alpha 01')] };
    expect((await post('/api/v1/readlists', list)).statusCode).toBe(200);
    expect((await post(`/api/v1/series/${beta}/metadata`, { publisher: 'Acme & Sons' }, 'PATCH')).statusCode).toBe(204);

    const collections = await opds('/opds/v1.2/collections');
    expect(collections.entry!.map((e) => e.title)).toEqual(['Picks']);
    const picks = await opds(href(collections.entry![0]!.link, 'subsection')!);
    expect(picks.entry!.map((e) => e.title)).toEqual(['Beta', 'Alpha']);

    const readLists = await opds('/opds/v1.2/readlists');
    const order = await opds(href(readLists.entry![0]!.link, 'subsection')!);
    expect(order.entry!.map((e) => e.title)).toEqual(['Beta 1: Beta 01', 'Alpha 2: Alpha 02', 'Alpha 1: Alpha 01']);

    const publishers = await opds('/opds/v1.2/publishers');
    expect(publishers.entry!.map((e) => e.title)).toEqual(['Acme & Sons']);
    const acme = await opds(href(publishers.entry![0]!.link, 'subsection')!);
    expect(acme.entry!.map((e) => e.title)).toEqual(['Beta']);
  });

  it('searches series through OpenSearch', async () => {
    const description = await server.get('/opds/v1.2/search');
    // OpenSearch clients use the template as it stands: it must be absolute.
    expect(description.body).toContain(`template="${ORIGIN}/opds/v1.2/series?search={searchTerms}"`);
    expect(description.body).toContain('<Url type="application/atom+xml;profile=opds-catalog;kind=acquisition"');
    const found = await opds('/opds/v1.2/series?search=bet');
    expect(found.entry!.map((e) => e.title)).toEqual(['Beta']);
  });
});

describe('OPDS text', () => {
  it('leaves out characters XML cannot hold, so one odd title does not break the whole feed for e-readers', async () => {
    const series = await opds('/opds/v1.2/series');
    const alpha = series.entry!.find((e) => e.title === 'Alpha')!;
    const id = /\/opds\/v1\.2\/series\/(\w+)/.exec(href(alpha.link, 'subsection')!)![1]!;
    // Control characters reach titles from file and folder names, or from a metadata edit.
    const patched = await server.app.inject({ method: 'PATCH', url: `/api/v1/series/${id}/metadata`, headers: server.admin, payload: { title: 'Al\u0001pha\u000b \ud800\uffff!', titleLock: true } });
    expect(patched.statusCode).toBe(204);
    const response = await server.get('/opds/v1.2/series');
    // Before: the characters went out as they were, and an XML parser refuses the whole document.
    expect(response.body).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])/);
    expect((parser.parse(response.body) as Feed).feed.entry!.map((e) => e.title)).toContain('Alpha \ufffd!'); // the lone surrogate already became U+FFFD in the request's UTF-8
  });
});

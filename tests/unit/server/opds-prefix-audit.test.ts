import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { createTextEpub } from '../../fixtures/epub.ts';
import { GREEN, RED } from '../../fixtures/comics.ts';
import { writePdf } from '../../fixtures/pdf.ts';
import { startServer, type TestServer } from './helpers.ts';

/*
 * Every link an OPDS reader is given — OPDS 1.2 feeds, the OpenSearch description, OPDS 2 feeds,
 * publications and manifests, the authentication document and the 401's Link header — carries the
 * prefix the reader reached Folio under: --base-path, or a trusted proxy's X-Forwarded-Prefix (with
 * its X-Forwarded-Host and -Proto), and leads to an address that is served. The catalog is walked
 * from its two roots as a reader would, following every feed link.
 */
const HOST = 'books.example.org';

/** Every URL a document names: href and template attributes, JSON href values, the auth document's id. */
function urlsIn(response: LightMyRequestResponse): string[] {
  const type = String(response.headers['content-type'] ?? '');
  const header = response.headers.link ? [...String(response.headers.link).matchAll(/<([^>]+)>/g)].map((m) => m[1]!) : [];
  if (/xml/.test(type)) return [...header, ...[...response.body.matchAll(/\s(?:href|template)="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'))];
  if (!/json/.test(type)) return header;
  const found: string[] = [...header];
  const walk = (value: unknown, key?: string): void => {
    if (Array.isArray(value)) value.forEach((v) => walk(v));
    else if (typeof value === 'object' && value !== null) Object.entries(value).forEach(([k, v]) => walk(v, k));
    else if (typeof value === 'string' && (key === 'href' || (key === 'id' && /^https?:/.test(value)))) found.push(value);
  };
  walk(response.json());
  return found;
}

/** A templated link as a reader fills it in. */
const filled = (url: string) => url.replace('{?query}', '?query=a').replace('{searchTerms}', 'a').replace('{pageNumber}', '0');

interface Setup {
  name: string;
  /** What the reader's links must start with. */
  expected: string;
  /** The path the server sees for a link's path (a stripping proxy removes its prefix). */
  toServer: (path: string) => string;
  headers: Record<string, string>;
  server: () => TestServer;
}

let direct: TestServer;
let proxied: TestServer;
beforeAll(async () => {
  const [one, two] = [await mkdtemp(join(tmpdir(), 'folio-opds-prefix-')), await mkdtemp(join(tmpdir(), 'folio-opds-prefix-'))];
  direct = await startServer({ dir: one, basePath: '/folio' });
  proxied = await startServer({ dir: two, trustProxy: ['loopback'] });
  for (const [server, api] of [[direct, '/folio'], [proxied, '']] as const) {
    const sample = await createSampleLibrary(join(server.dir, 'library'));
    await createTextEpub(join(sample.root, 'Gamma', 'Gamma 01.epub'), [2000]);
    await writePdf(join(sample.root, 'Delta', 'Delta 01.pdf'), [
      { width: 200, height: 300, color: RED },
      { width: 200, height: 300, color: GREEN },
    ]);
    const created = await server.app.inject({ method: 'POST', url: `${api}/api/v1/libraries`, headers: server.admin, payload: { name: 'Comics', root: sample.root } });
    expect(created.statusCode).toBe(200);
    await server.app.folio.tasks.idle();
    const first = async (what: string) => (await server.app.inject({ method: 'GET', url: `${api}/api/v1/${what}?size=1&sort=name`, headers: server.admin })).json().content[0].id as string;
    const collection = await server.app.inject({ method: 'POST', url: `${api}/api/v1/collections`, headers: server.admin, payload: { name: 'Picks', ordered: false, seriesIds: [await first('series')] } });
    expect(collection.statusCode).toBe(200);
    const readList = await server.app.inject({ method: 'POST', url: `${api}/api/v1/readlists`, headers: server.admin, payload: { name: 'Order', ordered: true, bookIds: [await first('books')] } });
    expect(readList.statusCode).toBe(200);
  }
});
afterAll(async () => {
  for (const server of [direct, proxied]) {
    await server.close();
    await rm(server.dir, { recursive: true, force: true });
  }
});

const setups: Setup[] = [
  { name: '--base-path /folio', expected: `http://${HOST}/folio/`, toServer: (path) => path, headers: { host: HOST }, server: () => direct },
  {
    name: 'a trusted proxy stripping /outer/shelf',
    expected: `https://${HOST}/outer/shelf/`,
    toServer: (path) => path.replace(/^\/outer\/shelf/, ''),
    headers: { host: 'folio:25600', 'x-forwarded-host': HOST, 'x-forwarded-proto': 'https', 'x-forwarded-prefix': '/outer/shelf' },
    server: () => proxied,
  },
];

describe.each(setups)('OPDS links through $name', (setup) => {
  it('all carry the prefix, from the catalogs down to every manifest, and are served', async () => {
    const server = setup.server();
    const get = (url: string, headers: Record<string, string> = server.admin) => {
      const { pathname, search } = new URL(url);
      return server.app.inject({ method: 'GET', url: `${setup.toServer(pathname)}${search}`, headers: { ...setup.headers, ...headers }, remoteAddress: '127.0.0.1' });
    };
    const seen = new Set<string>();
    // The roots a reader is given, and a small page so OPDS 2 paging links are written too.
    const queue = [`${setup.expected}opds/v1.2/catalog`, `${setup.expected}opds/v2/catalog`, `${setup.expected}opds/v2/auth`, `${setup.expected}opds/v2/libraries/books/latest?size=1&page=1`];
    const wrong: string[] = [];
    const failed: string[] = [];
    // An OPDS 2 reader without a login first: the 401's Link header and body name the auth document.
    for (const url of urlsIn(await get(`${setup.expected}opds/v2/catalog`, {}))) if (!url.startsWith(setup.expected)) wrong.push(`401: ${url}`);
    while (queue.length > 0 && seen.size < 400) {
      const url = queue.shift()!;
      const response = await get(filled(url));
      // A book without a poster (the text EPUB, the broken book) has none, as in Komga.
      if (response.statusCode >= 400 && !/\/thumbnail(\/small)?$/.test(url)) failed.push(`${response.statusCode} ${url}`);
      for (const found of urlsIn(response)) {
        if (!found.startsWith(setup.expected)) wrong.push(`${url} → ${found}`);
        else if (!seen.has(found)) {
          seen.add(found);
          queue.push(found);
        }
      }
    }
    expect(seen.size).toBeGreaterThan(50);
    expect(seen.size).toBeLessThan(400);
    expect(wrong).toEqual([]);
    expect(failed).toEqual([]);
  });
});

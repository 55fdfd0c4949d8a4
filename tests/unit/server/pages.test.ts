import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto, SeriesDto } from '../../../src/api/types.ts';
import { createSampleLibrary, type SampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let sample: SampleLibrary;
let books: Map<string, BookDto>;

beforeAll(async () => {
  server = await startServer();
  sample = await createSampleLibrary(join(server.dir, 'library'));
  await addLibrary(server, sample.root);
  const page = await server.json<Page<BookDto>>('/api/v1/books?unpaged=true');
  books = new Map(page.content.map((b) => [b.name, b]));
});
afterAll(async () => {
  await server.close();
});
afterEach(() => undefined);

describe('page bytes', () => {
  it('streams each page exactly as stored in the archive, typed by its sniffed media type', async () => {
    const alpha1 = books.get('Alpha 01')!;
    const written = sample.series[0]!.books[0]!.pages;
    for (const [index, expected] of written.entries()) {
      const response = await server.get(`/api/v1/books/${alpha1.id}/pages/${index + 1}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.rawPayload.equals(expected.bytes)).toBe(true);
      expect(response.headers['cache-control']).toBe('max-age=0, must-revalidate, private');
      expect(response.headers['last-modified']).toBeTruthy();
    }
    // Colours survive: page 2 is pure green.
    const { data } = await sharp((await server.get(`/api/v1/books/${alpha1.id}/pages/2`)).rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([0, 255, 0]);
  });

  it('accepts zero_based numbering and serves JPEG pages as image/jpeg', async () => {
    const beta = books.get('Beta 01')!;
    const response = await server.get(`/api/v1/books/${beta.id}/pages/0?zero_based=true`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.rawPayload.equals(sample.series[1]!.books[0]!.pages[0]!.bytes)).toBe(true);
  });

  it('rejects out-of-range pages with 400 and answers If-Modified-Since with 304', async () => {
    const alpha1 = books.get('Alpha 01')!;
    for (const n of [0, 4, 99]) {
      const response = await server.get(`/api/v1/books/${alpha1.id}/pages/${n}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Page number does not exist');
    }
    const first = await server.get(`/api/v1/books/${alpha1.id}/pages/1`);
    const cached = await server.get(`/api/v1/books/${alpha1.id}/pages/1`, {
      ...server.admin,
      'if-modified-since': first.headers['last-modified'] as string,
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload).toHaveLength(0);
    const stale = await server.get(`/api/v1/books/${alpha1.id}/pages/1`, {
      ...server.admin,
      'if-modified-since': new Date(Date.now() - 86_400_000 * 365).toUTCString(),
    });
    expect(stale.statusCode).toBe(200);
  });

  it('a page asked for with its book\'s version may be cached for good (immutable, with an ETag); without it, revalidated', async () => {
    const alpha1 = books.get('Alpha 01')!;
    const version = `${alpha1.sizeBytes.toString(36)}.${alpha1.fileLastModified}`;
    const plain = await server.get(`/api/v1/books/${alpha1.id}/pages/1`);
    expect(plain.headers['cache-control']).toBe('max-age=0, must-revalidate, private');
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^".+-1"$/);

    const versioned = await server.get(`/api/v1/books/${alpha1.id}/pages/1?v=${encodeURIComponent(version)}`);
    expect(versioned.statusCode).toBe(200);
    expect(versioned.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(versioned.headers.etag).toBe(etag);
    expect(versioned.rawPayload.equals(plain.rawPayload)).toBe(true);

    // An outdated version gets the current bytes, but no promise that they never change.
    const outdated = await server.get(`/api/v1/books/${alpha1.id}/pages/1?v=0.2001-01-01T00:00:00`);
    expect(outdated.statusCode).toBe(200);
    expect(outdated.headers['cache-control']).toBe('max-age=0, must-revalidate, private');

    // Revalidation by ETag: 304 with no body; another page's ETag does not match.
    const revalidated = await server.get(`/api/v1/books/${alpha1.id}/pages/1`, { ...server.admin, 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
    const otherPage = await server.get(`/api/v1/books/${alpha1.id}/pages/2`, { ...server.admin, 'if-none-match': etag });
    expect(otherPage.statusCode).toBe(200);
  });

  it('requires PAGE_STREAMING and gives 404 for unknown books or non-ready media', async () => {
    await insertUser(server, 'noreader@example.org', 'pw', []);
    const alpha1 = books.get('Alpha 01')!;
    const forbidden = await server.get(`/api/v1/books/${alpha1.id}/pages/1`, { authorization: basic('noreader@example.org', 'pw') });
    expect(forbidden.statusCode).toBe(403);
    expect((await server.get('/api/v1/books/nope/pages/1')).statusCode).toBe(404);
    const broken = books.get('broken')!;
    expect((await server.get(`/api/v1/books/${broken.id}/pages/1`)).statusCode).toBe(404);
  });

  it('converts on request and refuses unknown conversions', async () => {
    const alpha1 = books.get('Alpha 01')!;
    const converted = await server.get(`/api/v1/books/${alpha1.id}/pages/1?convert=jpeg`);
    expect(converted.statusCode).toBe(200);
    expect(converted.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(converted.rawPayload).metadata()).format).toBe('jpeg');
    expect((await server.get(`/api/v1/books/${alpha1.id}/pages/1?convert=gif`)).statusCode).toBe(400);
  });
});

describe('thumbnails', () => {
  it('generates a ~300px JPEG poster from the first page and caches it on disk', async () => {
    const alpha1 = books.get('Alpha 01')!;
    const response = await server.get(`/api/v1/books/${alpha1.id}/thumbnail`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(response.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width!, meta.height!)).toBe(300);
    const { data } = await sharp(response.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240); // red first page
    expect(data[1]).toBeLessThan(20);
    const row = server.app.folio.repos.thumbnails.findSelectedForBook(alpha1.id);
    expect(row?.filePath).toContain('thumbnails');
    const again = await server.get(`/api/v1/books/${alpha1.id}/thumbnail`);
    expect(again.rawPayload.equals(response.rawPayload)).toBe(true);
    // Re-validation with the ETag costs no image bytes.
    expect(response.headers.etag).toMatch(/^"0[0-9a-f]{32}"$/);
    const revalidated = await server.get(`/api/v1/books/${alpha1.id}/thumbnail`, { ...server.admin, 'if-none-match': response.headers.etag as string });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload).toHaveLength(0);
  });

  it('uses the first book poster for the series and 404s without a readable page', async () => {
    const series = (await server.json<Page<SeriesDto>>('/api/v1/series')).content;
    const alpha = series.find((s) => s.name === 'Alpha')!;
    const response = await server.get(`/api/v1/series/${alpha.id}/thumbnail`);
    expect(response.statusCode).toBe(200);
    const { data } = await sharp(response.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240);
    const brokenSeries = series.find((s) => s.name === 'Broken')!;
    expect((await server.get(`/api/v1/series/${brokenSeries.id}/thumbnail`)).statusCode).toBe(404);
    expect((await server.get(`/api/v1/books/${books.get('broken')!.id}/thumbnail`)).statusCode).toBe(404);
  });
});

describe('page thumbnails', () => {
  it('resizes a page to 300px JPEG, even for users without PAGE_STREAMING', async () => {
    await insertUser(server, 'viewer@example.org', 'pw', []);
    const alpha1 = books.get('Alpha 01')!;
    const response = await server.get(`/api/v1/books/${alpha1.id}/pages/3/thumbnail`, { authorization: basic('viewer@example.org', 'pw') });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(response.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 200, 300]);
    const { data } = await sharp(response.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(data[2]).toBeGreaterThan(240); // blue third page
    expect((await server.get(`/api/v1/books/${alpha1.id}/pages/4/thumbnail`)).statusCode).toBe(400);
  });
});

describe('siblings', () => {
  it('walks next/previous within the series and 404s at the ends', async () => {
    const a1 = books.get('Alpha 01')!;
    const a2 = books.get('Alpha 02')!;
    expect((await server.json<BookDto>(`/api/v1/books/${a1.id}/next`)).id).toBe(a2.id);
    expect((await server.json<BookDto>(`/api/v1/books/${a2.id}/previous`)).id).toBe(a1.id);
    expect((await server.get(`/api/v1/books/${a2.id}/next`)).statusCode).toBe(404);
    expect((await server.get(`/api/v1/books/${a1.id}/previous`)).statusCode).toBe(404);
  });

  it('lists pages only when READY', async () => {
    const pages = await server.json<PageDto[]>(`/api/v1/books/${books.get('Alpha 02')!.id}/pages`);
    expect(pages).toHaveLength(2);
  });
});

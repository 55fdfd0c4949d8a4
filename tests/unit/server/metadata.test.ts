import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { normaliseIsbn } from '../../../server/domain/metadata/metadata-update.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let book: BookDto;
let series: SeriesDto;

beforeAll(async () => {
  server = await startServer();
  await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
  book = (await server.json<Page<BookDto>>('/api/v1/books?sort=name')).content[0]!;
  series = await server.json<SeriesDto>(`/api/v1/series/${book.seriesId}`);
});
afterAll(async () => {
  await server.close();
});

const patchBook = (payload: unknown, id = book.id, headers = server.admin) =>
  server.app.inject({ method: 'PATCH', url: `/api/v1/books/${id}/metadata`, headers, payload: payload as object });
const patchSeries = (payload: unknown, id = series.id) =>
  server.app.inject({ method: 'PATCH', url: `/api/v1/series/${id}/metadata`, headers: server.admin, payload: payload as object });
const bookMeta = async () => (await server.json<BookDto>(`/api/v1/books/${book.id}`)).metadata;
const seriesMeta = async () => (await server.json<SeriesDto>(`/api/v1/series/${series.id}`)).metadata;

describe('PATCH /api/v1/books/{id}/metadata', () => {
  it('sets fields and locks, keeps what is omitted or null (for null-means-keep fields)', async () => {
    const response = await patchBook({
      title: 'New Title',
      titleLock: true,
      summary: 'About it',
      releaseDate: '2020-02-29',
      authors: [{ name: 'Ann', role: 'Writer' }],
      tags: ['a', 'b', 'a'],
      isbn: '978-3-16-148410-0',
      links: [{ label: 'Site', url: 'https://example.org' }],
    });
    expect(response.statusCode).toBe(204);
    expect(await bookMeta()).toMatchObject({
      title: 'New Title',
      titleLock: true,
      summary: 'About it',
      releaseDate: '2020-02-29',
      authors: [{ name: 'Ann', role: 'writer' }],
      tags: ['a', 'b'],
      isbn: '9783161484100',
      links: [{ label: 'Site', url: 'https://example.org' }],
      number: '1',
    });
    expect((await server.json<SeriesDto>(`/api/v1/series/${series.id}`)).booksMetadata.authors).toEqual([{ name: 'Ann', role: 'writer' }]);

    expect((await patchBook({ title: null, number: null, titleLock: null })).statusCode).toBe(204);
    expect(await bookMeta()).toMatchObject({ title: 'New Title', titleLock: true, number: '1' });
  });

  it('clears presence-tracked fields on explicit null', async () => {
    expect((await patchBook({ summary: null, releaseDate: null, authors: null, tags: null, isbn: null, links: null })).statusCode).toBe(204);
    expect(await bookMeta()).toMatchObject({ summary: '', releaseDate: null, authors: [], tags: [], isbn: '', links: [], title: 'New Title' });
  });

  it('validates values', async () => {
    for (const payload of [
      { title: '  ' },
      { number: '' },
      { authors: [{ name: '', role: 'writer' }] },
      { links: [{ label: 'x', url: 'not a url' }] },
      { isbn: '12345' },
      // No digit at all is no ISBN either (komf passes providers' text on): 400, not a silent clear.
      { isbn: 'N/A' },
      { releaseDate: '2020-13-45' },
      { numberSort: 'one' },
    ]) {
      const response = await patchBook(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBeTruthy();
    }
    expect((await bookMeta()).title).toBe('New Title');
  });

  it('takes links only in the schemes Komga takes (java.net.URL): script URLs would run in a client that shows them', async () => {
    for (const url of ['javascript:alert(document.cookie)', ' JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)']) {
      for (const patch of [patchBook, patchSeries]) {
        const response = await patch({ links: [{ label: 'x', url }] });
        expect(response.statusCode, url).toBe(400);
        expect(response.json().message, url).toContain('links.url');
      }
    }
    const kept = ['https://example.org/a', 'http://example.org', 'mailto:someone@example.org', 'ftp://example.org/f'];
    expect((await patchBook({ links: kept.map((url) => ({ label: 'x', url })) })).statusCode).toBe(204);
    expect((await bookMeta()).links.map((l) => l.url)).toEqual(kept);
  });

  it('needs ADMIN and a known book', async () => {
    await insertUser(server, 'meta-reader@example.org', 'pw', ['PAGE_STREAMING']);
    expect((await patchBook({ title: 'x' }, book.id, { authorization: basic('meta-reader@example.org', 'pw') })).statusCode).toBe(403);
    expect((await patchBook({ title: 'x' }, 'nope')).statusCode).toBe(404);
  });

  it('updates several books at once', async () => {
    const response = await server.app.inject({
      method: 'PATCH',
      url: '/api/v1/books/metadata',
      headers: server.admin,
      payload: { [book.id]: { summary: 'Bulk' } },
    });
    expect(response.statusCode).toBe(204);
    expect((await bookMeta()).summary).toBe('Bulk');
  });

  it('normalises ISBN-10 to ISBN-13', () => {
    expect(normaliseIsbn('0-306-40615-2')).toBe('9780306406157');
  });
});

describe('PATCH /api/v1/series/{id}/metadata', () => {
  it('applies null-means-keep and presence-tracked fields', async () => {
    const response = await patchSeries({
      status: 'ended',
      title: 'Alpha Saga',
      titleSort: 'Alpha Saga, The',
      summary: 'Series summary',
      publisher: 'Pub',
      language: 'en',
      readingDirection: 'WEBTOON',
      ageRating: 12,
      totalBookCount: 5,
      genres: ['Action'],
      tags: ['t'],
      sharingLabels: ['kids'],
      links: [{ label: 'Home', url: 'https://example.org/alpha' }],
      alternateTitles: [{ label: 'JP', title: 'アルファ' }],
      titleLock: true,
      readingDirectionLock: true,
    });
    expect(response.statusCode).toBe(204);
    expect(await seriesMeta()).toMatchObject({
      status: 'ENDED',
      title: 'Alpha Saga',
      titleSort: 'Alpha Saga, The',
      summary: 'Series summary',
      readingDirection: 'WEBTOON',
      ageRating: 12,
      totalBookCount: 5,
      genres: ['Action'],
      alternateTitles: [{ label: 'JP', title: 'アルファ' }],
      titleLock: true,
      readingDirectionLock: true,
    });
    // Book DTOs show the new series title.
    expect((await server.json<BookDto>(`/api/v1/books/${book.id}`)).seriesTitle).toBe('Alpha Saga');

    expect((await patchSeries({ title: null, summary: null, readingDirection: null, ageRating: null, genres: null })).statusCode).toBe(204);
    expect(await seriesMeta()).toMatchObject({
      title: 'Alpha Saga',
      summary: 'Series summary',
      readingDirection: '',
      ageRating: null,
      genres: [],
      totalBookCount: 5,
    });
    expect((await patchSeries({ summary: '' })).statusCode).toBe(204);
    expect((await seriesMeta()).summary).toBe('');
  });

  it('rejects invalid values and unknown series', async () => {
    for (const payload of [{ status: 'DONE' }, { totalBookCount: 0 }, { ageRating: -1 }, { readingDirection: 'UP' }, { title: '' }]) {
      const response = await patchSeries(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await patchSeries({ title: 'x' }, 'nope')).statusCode).toBe(404);
  });

  it('accepts a well-formed BCP 47 language tag or none, and refuses anything else', async () => {
    for (const language of ['en_US', 'x', '123', 'en-', 'i-klingon']) {
      expect((await patchSeries({ language })).statusCode, language).toBe(400);
    }
    for (const language of ['pt-BR', 'zh-Hant', 'fr-FR-u-ca-gregory', '']) {
      expect((await patchSeries({ language })).statusCode, language).toBe(204);
      expect((await seriesMeta()).language).toBe(language);
    }
  });
});

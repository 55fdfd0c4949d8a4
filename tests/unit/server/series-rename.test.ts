import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { newId } from '../../../server/db/ids.ts';
import { hashPassword } from '../../../server/http/auth/passwords.ts';
import { createSampleLibrary, type SampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, rescan, startServer, type TestServer } from './helpers.ts';

/*
 * Renaming a series folder keeps the series: the scan recognises the folder by its books (moved
 * files matched by content hash) and moves the series to the new path, with its id, metadata,
 * locks, sharing labels, age rating and collections — so a restriction is never lifted by a rename.
 */

let server: TestServer;
let sample: SampleLibrary;
beforeEach(async () => {
  server = await startServer();
  sample = await createSampleLibrary(join(server.dir, 'library'));
});
afterEach(async () => {
  await server.close();
});

async function call(method: 'PATCH' | 'POST', url: string, payload: unknown): Promise<void> {
  const response = await server.app.inject({ method, url, headers: server.admin, payload: payload as object });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

async function allSeries(headers?: Record<string, string>): Promise<SeriesDto[]> {
  return (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true', headers)).content;
}

describe('renaming a series folder', () => {
  it('keeps the series, its metadata, restrictions and collections, and never shows it to a restricted reader', async () => {
    const library = await addLibrary(server, sample.root);
    const alpha = (await allSeries()).find((s) => s.name === 'Alpha')!;
    await call('PATCH', `/api/v1/series/${alpha.id}/metadata`, {
      ageRating: 18,
      ageRatingLock: true,
      sharingLabels: ['grown-ups'],
      sharingLabelsLock: true,
      summary: 'kept through the rename',
      summaryLock: true,
    });
    await call('POST', '/api/v1/collections', { name: 'Favourites', ordered: false, seriesIds: [alpha.id] });
    const restrictedId = newId(Date.now());
    const now = Date.now();
    server.app.folio.repos.users.insert({
      id: restrictedId,
      email: 'teen@example.org',
      passwordHash: await hashPassword('teen password'),
      roles: ['PAGE_STREAMING'],
      sharedAllLibraries: true,
      sharedLibraryIds: [],
      labelsAllow: [],
      labelsExclude: [],
      ageRestriction: 16,
      ageRestrictionType: 'EXCLUDE',
      created: now,
      lastModified: now,
    });
    const teen = { authorization: basic('teen@example.org', 'teen password') };
    expect((await allSeries(teen)).map((s) => s.name)).not.toContain('Alpha');
    const bookIds = (await server.json<Page<BookDto>>(`/api/v1/series/${alpha.id}/books?unpaged=true`)).content.map((b) => b.id).sort();

    await rename(sample.series[0]!.path, join(sample.root, 'Alpha (2020)'));
    await rescan(server, library.id);

    const live = (await allSeries()).filter((s) => !s.deleted);
    const renamed = live.find((s) => s.name === 'Alpha (2020)')!;
    expect(renamed.id).toBe(alpha.id);
    expect(renamed.url).toBe(join(sample.root, 'Alpha (2020)'));
    expect(live.filter((s) => s.id !== alpha.id && s.name.startsWith('Alpha'))).toEqual([]);
    expect(renamed.metadata).toMatchObject({ ageRating: 18, ageRatingLock: true, sharingLabels: ['grown-ups'], summary: 'kept through the rename' });
    expect(renamed.booksCount).toBe(2);
    const booksAfter = (await server.json<Page<BookDto>>(`/api/v1/series/${alpha.id}/books?unpaged=true`)).content;
    expect(booksAfter.map((b) => b.id).sort()).toEqual(bookIds);
    expect(booksAfter.every((b) => !b.deleted)).toBe(true);
    const collections = (await server.json<Page<{ name: string; seriesIds: string[] }>>('/api/v1/collections?unpaged=true')).content;
    expect(collections.find((c) => c.name === 'Favourites')?.seriesIds).toEqual([alpha.id]);
    // The 16+ exclusion still holds under the new name.
    expect((await allSeries(teen)).map((s) => s.name)).not.toContain('Alpha (2020)');
    expect((await server.get(`/api/v1/series/${alpha.id}`, teen)).statusCode).toBe(404);
  });
});

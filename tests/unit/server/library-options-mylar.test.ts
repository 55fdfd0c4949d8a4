import { execFileSync } from 'node:child_process';
import { promises as fsPromises } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, rescan, startServer, type TestServer } from './helpers.ts';

/** A series.json as Mylar3 writes it. */
const mylarJson = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    version: '1.0.2',
    metadata: {
      type: 'comicSeries',
      publisher: 'Image',
      imprint: null,
      name: 'Saga',
      comicid: 44585,
      year: 2012,
      description_text: 'An epic space opera.',
      description_formatted: null,
      volume: null,
      booktype: 'Print',
      age_rating: '17+',
      collects: null,
      ComicImage: 'https://example.org/saga.jpg',
      total_issues: 54,
      publication_run: 'March 2012 - Present',
      status: 'Continuing',
      ...overrides,
    },
  });

let server: TestServer;
let root: string;
beforeEach(async () => {
  server = await startServer();
  root = join(server.dir, 'library');
  await createCbz(join(root, 'Saga (2012)', 'Saga 001.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
  await createCbz(join(root, 'Other', 'Other 001.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
  await writeFile(join(root, 'Saga (2012)', 'series.json'), mylarJson());
});
afterEach(async () => server.close());

const allSeries = async () => (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content;
const seriesNamed = async (name: string) => (await allSeries()).find((s) => s.name === name)!;
const send = (method: 'PATCH' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, headers: server.admin, ...(payload ? { payload } : {}) });

/** Three series of four books each, every folder with its series.json. */
async function threeSeriesOfFourBooks(): Promise<void> {
  for (const folder of ['Saga (2012)', 'Other', 'Third']) {
    for (let number = 2; number <= 4; number++) {
      await createCbz(join(root, folder, `${folder} 00${number}.cbz`), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    }
  }
  await createCbz(join(root, 'Third', 'Third 001.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
  await writeFile(join(root, 'Other', 'series.json'), mylarJson({ name: 'Other name' }));
  await writeFile(join(root, 'Third', 'series.json'), mylarJson({ name: 'Third name' }));
}

const everyFolderOnce = () => ['Other', 'Saga (2012)', 'Third'].map((folder) => join(root, folder, 'series.json'));

/**
 * The series.json files read from here on, sorted, one entry per read: the real open, counted
 * (module exports of node's own modules follow their objects once synced).
 */
function countSeriesJsonReads(): { paths: () => string[]; clear: () => void; restore: () => void } {
  const readFile = vi.spyOn(fsPromises, 'open');
  syncBuiltinESMExports();
  return {
    paths: () => readFile.mock.calls.map(([path]) => String(path)).filter((path) => path.endsWith('series.json')).sort(),
    clear: () => readFile.mockClear(),
    restore: () => {
      readFile.mockRestore();
      syncBuiltinESMExports();
    },
  };
}

/** Sends an admin action (answered 202) and waits for the tasks it queued. */
async function runAction(url: string): Promise<void> {
  expect((await send('POST', url)).statusCode).toBe(202);
  await server.app.folio.tasks.idle();
}

describe('importMylarSeries', () => {
  it('fills the series metadata from series.json', async () => {
    await addLibrary(server, root);
    const saga = await seriesNamed('Saga (2012)');
    expect(saga.metadata).toMatchObject({
      title: 'Saga',
      titleSort: 'Saga',
      publisher: 'Image',
      summary: 'An epic space opera.',
      status: 'ONGOING',
      ageRating: 17,
      totalBookCount: 54,
      links: [{ label: 'ComicVine', url: 'https://comicvine.gamespot.com/volume/4050-44585/' }],
    });
    // A folder without series.json is untouched.
    expect((await seriesNamed('Other')).metadata).toMatchObject({ title: 'Other', publisher: '', status: 'ONGOING', ageRating: null });
  });

  it('follows changes of series.json on the next scan, leaving locked fields alone', async () => {
    await addLibrary(server, root);
    const saga = await seriesNamed('Saga (2012)');
    expect((await send('PATCH', `/api/v1/series/${saga.id}/metadata`, { summary: 'Mine', summaryLock: true })).statusCode).toBe(204);
    await writeFile(join(root, 'Saga (2012)', 'series.json'), mylarJson({ status: 'Ended', age_rating: 'Adult', description_text: 'Changed.', publisher: 'Image Comics' }));
    await rescan(server, saga.libraryId);
    expect((await seriesNamed('Saga (2012)')).metadata).toMatchObject({ status: 'ENDED', ageRating: 18, summary: 'Mine', publisher: 'Image Comics' });
  });

  it('appends the volume with importComicInfoSeriesAppendVolume, ignores a non-Mylar series.json', async () => {
    await writeFile(join(root, 'Saga (2012)', 'series.json'), mylarJson({ volume: 2, age_rating: 'All' }));
    await writeFile(join(root, 'Other', 'series.json'), JSON.stringify({ hello: 'world' }));
    const library = (await send('POST', '/api/v1/libraries', { name: 'C', root, importComicInfoSeriesAppendVolume: true })).json<LibraryDto>();
    await server.app.folio.tasks.idle();
    expect((await seriesNamed('Saga (2012)')).metadata).toMatchObject({ title: 'Saga (2)', ageRating: 0 });
    expect((await seriesNamed('Other')).metadata.title).toBe('Other');
    expect(library.importMylarSeries).toBe(true);
  });

  it('leaves out values of another JSON type than Mylar writes, and the scan goes on (a number for age_rating failed the whole scan)', async () => {
    await writeFile(
      join(root, 'Saga (2012)', 'series.json'),
      mylarJson({ age_rating: 12, status: 5, publisher: { name: 'Image' }, name: ['Saga'], description_text: 7, volume: '2', total_issues: 1e300, comicid: { id: 1 } }),
    );
    await writeFile(join(root, 'Other', 'series.json'), mylarJson({ name: 'Other name', age_rating: '99999999999+', total_issues: 2.5 }));
    await addLibrary(server, root);
    const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    expect(books.map((b) => b.media.status)).toEqual(['READY', 'READY']);
    // Nothing of the wrong type is taken; the folder name stays the title.
    expect((await seriesNamed('Saga (2012)')).metadata).toMatchObject({ title: 'Saga (2012)', publisher: '', summary: '', status: 'ONGOING', ageRating: null, totalBookCount: null, links: [] });
    // Numbers past Komga's Int, or not whole, are not taken either.
    expect((await seriesNamed('Other')).metadata).toMatchObject({ title: 'Other name', ageRating: null, totalBookCount: null });
  });

  it('does nothing when the library option is off', async () => {
    expect((await send('POST', '/api/v1/libraries', { name: 'C', root, importMylarSeries: false })).statusCode).toBe(200);
    await server.app.folio.tasks.idle();
    expect((await seriesNamed('Saga (2012)')).metadata).toMatchObject({ title: 'Saga (2012)', publisher: '', totalBookCount: null });
  });

  it('reads each folder\'s series.json once per scan, not once per book', async () => {
    await threeSeriesOfFourBooks();
    const reads = countSeriesJsonReads();
    try {
      const library = await addLibrary(server, root);
      expect(reads.paths()).toEqual(everyFolderOnce());
      expect((await allSeries()).map((s) => s.metadata.title).sort()).toEqual(['Other name', 'Saga', 'Third name']);
      // A later scan reads them again (they may have changed), once each.
      reads.clear();
      await createCbz(join(root, 'Third', 'Third 005.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
      await rescan(server, library.id);
      expect(reads.paths()).toEqual(everyFolderOnce());
    } finally {
      reads.restore();
    }
  });

  // An administrator's analyse or metadata refresh of a library or a series runs every book's
  // metadata sources, series.json among them: like a scan's analyses, it reads each folder's file once.
  for (const action of ['analyze', 'metadata/refresh'] as const) {
    it(`reads each folder's series.json once per ${action} of a library, and again on the next one`, async () => {
      await threeSeriesOfFourBooks();
      const library = await addLibrary(server, root);
      const reads = countSeriesJsonReads();
      try {
        await runAction(`/api/v1/libraries/${library.id}/${action}`);
        expect(reads.paths()).toEqual(everyFolderOnce());
        // Nothing is kept from one action to the next: an edit made in between is read.
        reads.clear();
        await writeFile(join(root, 'Third', 'series.json'), mylarJson({ name: 'Third, as edited' }));
        await runAction(`/api/v1/libraries/${library.id}/${action}`);
        expect(reads.paths()).toEqual(everyFolderOnce());
        expect((await seriesNamed('Third')).metadata.title).toBe('Third, as edited');
      } finally {
        reads.restore();
      }
    });

    it(`reads the series.json once per ${action} of a series`, async () => {
      await threeSeriesOfFourBooks();
      await addLibrary(server, root);
      const third = await seriesNamed('Third');
      expect(third.booksCount).toBe(4);
      const reads = countSeriesJsonReads();
      try {
        await runAction(`/api/v1/series/${third.id}/${action}`);
        expect(reads.paths()).toEqual([join(root, 'Third', 'series.json')]);
      } finally {
        reads.restore();
      }
    });
  }

  it('reads series.json again for the scan\'s analyses when it changed after the scan read it', async () => {
    const tasks = server.app.folio.tasks;
    tasks.setWorkers(1);
    // The scan runs first; a held task then keeps its analyses waiting while the file changes.
    let openGate!: () => void;
    tasks.submit('ScanLibrary', 'gate', () => new Promise<void>((resolve) => (openGate = resolve)), 100);
    const created = send('POST', '/api/v1/libraries', { name: 'C', root });
    let release!: () => void;
    const held = new Promise<void>((started) => {
      tasks.submit('ScanLibrary', 'hold', () => new Promise<void>((resolve) => ((release = resolve), started())), 6);
    });
    expect((await created).statusCode).toBe(200);
    openGate();
    await held;
    expect((await seriesNamed('Saga (2012)')).metadata.title).toBe('Saga');
    await writeFile(join(root, 'Saga (2012)', 'series.json'), mylarJson({ name: 'Saga, as edited' }));
    release();
    await tasks.idle();
    expect((await seriesNamed('Saga (2012)')).metadata.title).toBe('Saga, as edited');
  });

  it('passes over a series.json that is no regular file (a pipe would block its read forever)', async () => {
    execFileSync('mkfifo', [join(root, 'Other', 'series.json')]);
    await addLibrary(server, root);
    expect((await seriesNamed('Saga (2012)')).metadata.title).toBe('Saga');
    expect((await seriesNamed('Other')).metadata.title).toBe('Other');
    expect((await server.json<Page<unknown>>('/api/v1/books?media_status=READY')).totalElements).toBe(2);
  });

  it('passes over a series.json that links out of the library (before: the file it led to was read)', async () => {
    const outside = join(server.dir, 'outside.json');
    await writeFile(outside, mylarJson({ name: 'Read from outside', description_text: 'SECRET-OUTSIDE-THE-LIBRARY' }));
    await symlink(outside, join(root, 'Other', 'series.json'));
    await addLibrary(server, root);
    expect((await seriesNamed('Saga (2012)')).metadata.title).toBe('Saga');
    const other = await seriesNamed('Other');
    expect(other.metadata.title).toBe('Other');
    expect(other.metadata.summary).not.toContain('SECRET');
  });
});

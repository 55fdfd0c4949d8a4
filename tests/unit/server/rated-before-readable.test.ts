import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { canSeeBook, canSeeSeries } from '../../../server/domain/content-restrictions.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, rescan, startServer, type TestServer } from './helpers.ts';

/*
 * A book's ComicInfo may rate its series out of a restricted reader's reach. The analysis recorded
 * the book READY (its pages served) and only then read its ComicInfo.xml, an await later: in
 * between, a reader kept from series rated 16 or more could read the pages of a book rated 18, its
 * series not rated yet. And when that import was put off (a server short of descriptors or
 * archive handles), the book stayed readable, unrated, until the retry. A book is now readable
 * only once what it says about its rating is recorded.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it('a book rated out of reach by its ComicInfo is never readable by the restricted reader, not even before the import', async () => {
  const s = (server = await startServer());
  const readerId = await insertUser(s, 'teen@example.org', 'pw', ['PAGE_STREAMING']);
  const users = s.app.folio.repos.users;
  users.update({ ...users.findById(readerId)!, ageRestriction: 16, ageRestrictionType: 'EXCLUDE' });
  await createCbz(join(s.dir, 'lib', 'Night', 'Night 1.cbz'), [{ width: 40, height: 60, color: RED, format: 'png' }], {
    comicInfo: { series: 'Night', ageRating: 'Adults Only 18+' },
  });

  // Every write to the media rows (the status the page routes ask) is looked at as it happens:
  // at no moment may the book be READY while the reader may see it.
  const repos = s.app.folio.repos;
  const media = repos.media;
  const moments: string[] = [];
  repos.media = new Proxy(media, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        const reader = users.findById(readerId)!;
        for (const book of repos.books.findByLibrary(repos.libraries.findAll()[0]?.id ?? '')) {
          if (target.findByBookId(book.id)?.status === 'READY' && canSeeBook(repos, reader, book.id)) moments.push(`${String(key)}: ${book.name} readable`);
        }
        return result;
      };
    },
  });
  try {
    await addLibrary(s, join(s.dir, 'lib'));
  } finally {
    repos.media = media;
  }
  const book = (await s.json<Page<BookDto>>('/api/v1/books')).content[0]!;
  expect(book.media.status).toBe('READY');
  expect((await s.get(`/api/v1/books/${book.id}/pages/1`, { authorization: basic('teen@example.org', 'pw') })).statusCode).toBe(404);
  expect(moments).toEqual([]);
});

it('a series scanned in is not listed to an age-restricted reader before its files have said how it is rated', async () => {
  const s = (server = await startServer());
  const readerId = await insertUser(s, 'teen@example.org', 'pw', ['PAGE_STREAMING']);
  const { repos, events } = s.app.folio;
  repos.users.update({ ...repos.users.findById(readerId)!, ageRestriction: 16, ageRestrictionType: 'EXCLUDE' });
  const reader = { authorization: basic('teen@example.org', 'pw') };
  const root = join(s.dir, 'lib');
  await createCbz(join(root, 'Kids', 'Kids 1.cbz'), [{ width: 40, height: 60, color: RED, format: 'png' }], { comicInfo: { series: 'Kids', ageRating: 'Everyone 10+' } });
  const library = await addLibrary(s, root);
  const kids = (await s.json<Page<BookDto>>('/api/v1/books', reader)).content.map((b) => b.seriesId);
  expect(kids).toHaveLength(1);

  // A new series (its series.json and its book's ComicInfo say Adult) and a new book of the shown
  // series (its ComicInfo says 18+), looked at the moment the scan announces them, before they
  // are analysed: the rating they will get is not known yet.
  await createCbz(join(root, 'Night', 'Night 1.cbz'), [{ width: 40, height: 60, color: RED, format: 'png' }], { comicInfo: { series: 'Night', ageRating: 'Adults Only 18+' } });
  await writeFile(join(root, 'Night', 'series.json'), JSON.stringify({ metadata: { type: 'comicSeries', name: 'Night', age_rating: 'Adult' } }));
  await createCbz(join(root, 'Kids', 'Kids 2.cbz'), [{ width: 40, height: 60, color: RED, format: 'png' }], { comicInfo: { series: 'Kids', ageRating: 'Adults Only 18+' } });
  const seen: string[] = [];
  const unsubscribe = events.subscribe((event) => {
    const user = repos.users.findById(readerId)!;
    if (event.name === 'SeriesAdded' && canSeeSeries(repos, user, event.data.seriesId)) seen.push(`series ${repos.series.findById(event.data.seriesId)?.name}`);
    if (event.name === 'BookAdded' && canSeeBook(repos, user, event.data.bookId)) seen.push(`book ${repos.books.findById(event.data.bookId)?.name}`);
  });
  try {
    await rescan(s, library.id);
  } finally {
    unsubscribe();
  }
  // Neither is listed until rated: Night, a new series, nor Kids 2, a new book of a series shown
  // (its ComicInfo may rate Kids out of reach, as it does here).
  expect(seen).toEqual([]);
  // Once analysed, Kids is rated 18 by its new book: neither series is shown.
  expect((await s.json<Page<BookDto>>('/api/v1/books', reader)).content).toEqual([]);
});

import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { MalformedComicInfoError, parseComicInfo } from '../../../server/domain/metadata/comicinfo.ts';
import { looksLikeWebtoon } from '../../../server/domain/analysis/webtoon-detection.ts';
import { BLUE, RED, createCbz, type ComicInfoSpec } from '../../fixtures/index.ts';
import { addLibrary, rescan, startServer, type TestServer } from './helpers.ts';

const INFO: ComicInfoSpec = {
  title: 'The First Light',
  series: 'Sun Saga',
  number: '1.5',
  summary: 'Where it all begins & more.',
  year: 2021,
  month: 3,
  day: 9,
  writer: 'Ann Author, Bob Writer',
  penciller: 'Cy Artist',
  publisher: 'Dawn Press',
  genre: 'Fantasy, Adventure',
  tags: 'magic, quest',
  languageIso: 'ja',
  manga: 'YesAndRightToLeft',
  ageRating: 'Teen',
  count: 4,
};

describe('ComicInfo.xml parsing', () => {
  it('maps fields, roles, dates and reading direction', () => {
    const xml = `<?xml version="1.0"?><ComicInfo><Title>T</Title><Number>7</Number><Year>1999</Year><Writer>W1,W2</Writer>
      <CoverArtist>C</CoverArtist><Manga>YesAndRightToLeft</Manga><Web>https://www.example.org/x</Web></ComicInfo>`;
    const patch = parseComicInfo(xml)!;
    expect(patch.book).toMatchObject({
      title: 'T',
      number: '7',
      numberSort: 7,
      releaseDate: '1999-01-01',
      authors: [
        { name: 'W1', role: 'writer' },
        { name: 'W2', role: 'writer' },
        { name: 'C', role: 'cover' },
      ],
      links: [{ label: 'example.org', url: 'https://www.example.org/x' }],
    });
    expect(patch.series.readingDirection).toBe('RIGHT_TO_LEFT');
    expect(parseComicInfo('<Other/>')).toBeNull();
    expect(() => parseComicInfo('not xml at all <')).toThrow(MalformedComicInfoError);
    expect(parseComicInfo('<ComicInfo><Manga>No</Manga></ComicInfo>')!.series.readingDirection).toBe('LEFT_TO_RIGHT');
    expect(parseComicInfo('<ComicInfo><Manga>Yes</Manga></ComicInfo>')!.series.readingDirection).toBeUndefined();
    expect(parseComicInfo('<ComicInfo><Manga>Unknown</Manga></ComicInfo>')!.series.readingDirection).toBeUndefined();
  });

  it('ignores a LanguageISO that is not a BCP 47 tag', () => {
    expect(parseComicInfo('<ComicInfo><LanguageISO>en_US</LanguageISO></ComicInfo>')!.series.language).toBeUndefined();
    expect(parseComicInfo('<ComicInfo><LanguageISO>pt-BR</LanguageISO></ComicInfo>')!.series.language).toBe('pt-BR');
  });

  it('keeps a LanguageISO in its canonical spelling, as Komga stores every series language', () => {
    expect(parseComicInfo('<ComicInfo><LanguageISO>EN-us</LanguageISO></ComicInfo>')!.series.language).toBe('en-US');
    expect(parseComicInfo('<ComicInfo><LanguageISO>JA</LanguageISO></ComicInfo>')!.series.language).toBe('ja');
  });

  it('reads <Format>Webtoon</Format> as the WEBTOON direction, before <Manga>', () => {
    const xml = '<ComicInfo><Format>webtoon</Format><Manga>YesAndRightToLeft</Manga></ComicInfo>';
    expect(parseComicInfo(xml)!.series.readingDirection).toBe('WEBTOON');
    expect(parseComicInfo('<ComicInfo><Format>Digital</Format></ComicInfo>')!.series.readingDirection).toBeUndefined();
  });

  it('reads up to the root end tag by searching text: a root name too long for a regular expression is no error', () => {
    const name = 'C'.repeat(500_000);
    expect(parseComicInfo(`<${name}><Title>x</Title></${name}>junk`)).toBeNull();
    // An element whose name starts like the root's is not its end.
    expect(parseComicInfo('<ComicInfo><ComicInfoExtra>e</ComicInfoExtra><Title>x</Title></ComicInfo >junk')!.book.title).toBe('x');
    expect(parseComicInfo('<ComicInfo><Title>x</Title></ComicInfo\n>junk')!.book.title).toBe('x');
  });

  it('rejects XML that is not well-formed instead of reading a stray element as a value', () => {
    const broken = '<ComicInfo><Series>X</Series><Number>99<Title>unclosed';
    expect(() => parseComicInfo(broken)).toThrow(MalformedComicInfoError);
    // Well-formed but with a child element where text belongs: the field is left unset.
    expect(parseComicInfo('<ComicInfo><Number><b>9</b></Number></ComicInfo>')!.book.number).toBeUndefined();
  });
});

describe('webtoon shape', () => {
  it('counts a book as a webtoon when most measured pages are at least twice as tall as wide', () => {
    const strip = { width: 800, height: 3000 };
    const printed = { width: 1000, height: 1500 };
    expect(looksLikeWebtoon([strip, strip, printed])).toBe(true);
    expect(looksLikeWebtoon([strip, printed, printed])).toBe(false);
    expect(looksLikeWebtoon([{ width: null, height: null }])).toBe(false);
  });
});

describe('ComicInfo import during analysis', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer();
  });
  afterEach(async () => {
    await server.close();
  });

  const page = { width: 40, height: 60, color: RED, format: 'png' as const };

  it('fills book and series metadata, and the series aggregation', async () => {
    const root = join(server.dir, 'lib');
    await createCbz(join(root, 'sun', 'book.cbz'), [page], { comicInfo: INFO });
    await addLibrary(server, root);
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    expect(book!.metadata).toMatchObject({
      title: 'The First Light',
      number: '1.5',
      numberSort: 1.5,
      summary: 'Where it all begins & more.',
      releaseDate: '2021-03-09',
      authors: [
        { name: 'Ann Author', role: 'writer' },
        { name: 'Bob Writer', role: 'writer' },
        { name: 'Cy Artist', role: 'penciller' },
      ],
      tags: ['magic', 'quest'],
    });
    expect(book!.seriesTitle).toBe('Sun Saga');
    // ComicInfo.xml is not a page.
    expect(book!.media.pagesCount).toBe(1);
    const series = await server.json<SeriesDto>(`/api/v1/series/${book!.seriesId}`);
    expect(series.name).toBe('sun');
    expect(series.metadata).toMatchObject({
      title: 'Sun Saga',
      titleSort: 'Sun Saga',
      publisher: 'Dawn Press',
      readingDirection: 'RIGHT_TO_LEFT',
      language: 'ja',
      genres: ['Fantasy', 'Adventure'],
      ageRating: 13,
      totalBookCount: 4,
    });
    expect(series.booksMetadata).toMatchObject({
      releaseDate: '2021-03-09',
      summary: 'Where it all begins & more.',
      summaryNumber: '1.5',
      tags: ['magic', 'quest'],
    });
    expect(series.booksMetadata.authors).toHaveLength(3);
  });

  it('skips locked fields on re-import and honours the library switches', async () => {
    const root = join(server.dir, 'lib');
    const path = join(root, 'sun', 'book.cbz');
    await createCbz(path, [page], { comicInfo: INFO });
    const library = await addLibrary(server, root);
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    server.app.folio.db.prepare(`UPDATE book_metadata SET title = 'Mine', title_lock = 1 WHERE book_id = ?`).run(book!.id);

    await createCbz(path, [page, { ...page, color: BLUE }], { comicInfo: { ...INFO, title: 'Changed', summary: 'New summary' } });
    const later = new Date(Date.now() + 10_000);
    await utimes(path, later, later);
    await rescan(server, library.id);
    const after = await server.json<BookDto>(`/api/v1/books/${book!.id}`);
    expect(after.metadata.title).toBe('Mine');
    expect(after.metadata.titleLock).toBe(true);
    expect(after.metadata.summary).toBe('New summary');
    expect(after.media.pagesCount).toBe(2);
  });

  it('skips a malformed ComicInfo.xml whole and says so in the media comment', async () => {
    const root = join(server.dir, 'lib');
    await createCbz(join(root, 'sun', 'book.cbz'), [page], { comicInfo: '<ComicInfo><Series>X</Series><Number>99<Title>unclosed' });
    await addLibrary(server, root);
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    expect(book!.media.status).toBe('READY');
    expect(book!.media.comment).toMatch(/^ComicInfo\.xml skipped: ComicInfo\.xml is not well-formed \(line 1\)/);
    expect(book!.seriesTitle).toBe('sun');
    expect(book!.metadata.number).toBe('1');
  });

  it('reads the ComicInfo element of a file with something after it, as Komga does; a broken element is still skipped', async () => {
    const root = join(server.dir, 'lib');
    const info = '<?xml version="1.0"?>\n<ComicInfo><Title>Kept</Title><Summary>a &lt;/ComicInfo&gt; b</Summary></ComicInfo>';
    const endings: Record<string, Buffer> = {
      // Zero bytes left by a writer that padded its buffer, junk after a comment, a second copy appended.
      padded: Buffer.concat([Buffer.from(info), Buffer.alloc(512)]),
      junk: Buffer.from(`${info}\n<!-- tagged -->\njunk`),
      twice: Buffer.from(`${info}<ComicInfo><Title>Second</Title></ComicInfo>`),
      broken: Buffer.from('<ComicInfo><Title>Cut<Summary>x</ComicInfo>junk'),
    };
    for (const [name, data] of Object.entries(endings)) await createCbz(join(root, name, `${name}.cbz`), [page], { extraEntries: [{ name: 'ComicInfo.xml', data }] });
    await addLibrary(server, root);
    const books = new Map((await server.json<Page<BookDto>>('/api/v1/books')).content.map((b) => [b.name, b]));
    for (const name of ['padded', 'junk', 'twice']) {
      expect(books.get(name)!.media.comment, name).toBe('');
      expect(books.get(name)!.metadata, name).toMatchObject({ title: 'Kept', summary: 'a </ComicInfo> b' });
    }
    expect(books.get('broken')!.media.comment).toMatch(/^ComicInfo\.xml skipped: ComicInfo\.xml is not well-formed/);
    expect(books.get('broken')!.metadata.title).toBe('broken');
  });

  it('reads ComicInfo.xml in the encoding its bytes declare: UTF-16 with a mark, ISO-8859-1 by its declaration', async () => {
    const root = join(server.dir, 'lib');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<?xml version="1.0" encoding="utf-16"?><ComicInfo><Title>Ünïcode ページ</Title><Number>3</Number></ComicInfo>', 'utf16le')]);
    const latin1 = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><ComicInfo><Title>Café crème</Title></ComicInfo>', 'latin1');
    await createCbz(join(root, 'wide', 'wide.cbz'), [page], { extraEntries: [{ name: 'ComicInfo.xml', data: utf16 }] });
    await createCbz(join(root, 'latin', 'latin.cbz'), [page], { extraEntries: [{ name: 'ComicInfo.xml', data: latin1 }] });
    await addLibrary(server, root);
    const books = new Map((await server.json<Page<BookDto>>('/api/v1/books')).content.map((b) => [b.name, b]));
    expect(books.get('wide')!.media.comment).toBe('');
    expect(books.get('wide')!.metadata).toMatchObject({ title: 'Ünïcode ページ', number: '3' });
    expect(books.get('latin')!.metadata.title).toBe('Café crème');
  });

  it('makes a series WEBTOON from <Format> or from tall pages, unless its direction is locked', async () => {
    const root = join(server.dir, 'lib');
    const strip = { width: 40, height: 200, color: RED, format: 'png' as const };
    await createCbz(join(root, 'fmt', 'a.cbz'), [page], { comicInfo: '<ComicInfo><Format>Webtoon</Format></ComicInfo>' });
    await createCbz(join(root, 'tall', 'a.cbz'), [strip, strip, strip]);
    await createCbz(join(root, 'printed', 'a.cbz'), [page, page]);
    const library = await addLibrary(server, root);
    const direction = async (name: string) => {
      const all = await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true');
      return all.content.find((s) => s.name === name)!.metadata.readingDirection;
    };
    expect(await direction('fmt')).toBe('WEBTOON');
    expect(await direction('tall')).toBe('WEBTOON');
    expect(await direction('printed')).toBe('');

    const tall = (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content.find((s) => s.name === 'tall')!;
    server.app.folio.db
      .prepare(`UPDATE series_metadata SET reading_direction = 'LEFT_TO_RIGHT', reading_direction_lock = 1 WHERE series_id = ?`)
      .run(tall.id);
    const path = join(root, 'tall', 'a.cbz');
    await createCbz(path, [strip, strip, strip, strip]);
    const later = new Date(Date.now() + 10_000);
    await utimes(path, later, later);
    await rescan(server, library.id);
    expect(await direction('tall')).toBe('LEFT_TO_RIGHT');
  });

  it('imports nothing when the library disables ComicInfo', async () => {
    const root = join(server.dir, 'lib');
    await createCbz(join(root, 'sun', 'book.cbz'), [page], { comicInfo: INFO });
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/libraries',
      headers: server.admin,
      payload: { name: 'NoInfo', root, importComicInfoBook: false, importComicInfoSeries: false },
    });
    expect(response.statusCode).toBe(200);
    await server.app.folio.tasks.idle();
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    expect(book!.metadata.title).toBe('book');
    expect(book!.seriesTitle).toBe('sun');
  });

  it('groups series into collections (SeriesGroup) and books into read lists (StoryArc)', async () => {
    const root = join(server.dir, 'lib');
    await createCbz(join(root, 'Hero A', 'a1.cbz'), [page], { comicInfo: { seriesGroup: 'Heroes', storyArc: 'Big Event, Side Story', storyArcNumber: '2, 1' } });
    await createCbz(join(root, 'Hero B', 'b1.cbz'), [page], { comicInfo: { seriesGroup: 'Heroes', storyArc: 'Big Event', storyArcNumber: '1' } });
    await addLibrary(server, root);
    const collections = await server.json<Page<{ name: string; seriesIds: string[] }>>('/api/v1/collections');
    expect(collections.content.map((c) => [c.name, c.seriesIds.length])).toEqual([['Heroes', 2]]);
    const lists = await server.json<Page<{ id: string; name: string; ordered: boolean }>>('/api/v1/readlists');
    expect(lists.content.map((l) => l.name)).toEqual(['Big Event', 'Side Story']);
    const event = lists.content[0]!;
    const members = await server.json<Page<BookDto>>(`/api/v1/readlists/${event.id}/books`);
    expect(members.content.map((b) => b.name)).toEqual(['b1', 'a1']);
    // Importing again (metadata refresh) does not duplicate anything.
    await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${members.content[0]!.libraryId}/metadata/refresh`, headers: server.admin });
    await server.app.folio.tasks.idle();
    expect((await server.json<Page<BookDto>>(`/api/v1/readlists/${event.id}/books`)).content.map((b) => b.name)).toEqual(['b1', 'a1']);
    expect((await server.json<Page<unknown>>('/api/v1/collections')).totalElements).toBe(1);
  });
});

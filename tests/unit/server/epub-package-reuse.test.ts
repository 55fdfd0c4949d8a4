import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { OPF_PARSER } from '../../../server/media/epub-opf.ts';
import { bookPackage, epubReader } from '../../../server/media/epub-reader.ts';
import { createReflowableEpub } from '../../fixtures/epub.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * An EPUB's package document is parsed once per file state. Analysis parsed it, then the metadata
 * import, the first WebPub manifest and its navigation each parsed it again: the archive pool's
 * handle held no parse, and was often closed and reopened in between (here: a pool of one handle,
 * so analysing the second book closes the first's).
 */
let server: TestServer;
const books = new Map<string, BookDto>();

beforeAll(async () => {
  server = await startServer({ archivePool: { capacity: 1 } });
  const root = join(server.dir, 'lib');
  for (const name of ['First', 'Second']) {
    await createReflowableEpub(join(root, name, `${name}.epub`), [{ title: 'One', body: '<p>One.</p>' }, { title: 'Two', body: '<p>Two.</p>' }], { title: name });
  }
  await addLibrary(server, root, 'Novels');
  for (const book of (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content) books.set(book.name, book);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

it('the first manifest of an analysed book, its handle closed since, parses no package document', async () => {
  expect([...books.values()].map((book) => book.media.status)).toEqual(['READY', 'READY']);
  const parses = vi.spyOn(OPF_PARSER, 'parse');
  for (const name of ['First', 'Second']) {
    const manifest = await server.json<{ readingOrder: unknown[]; toc: { title: string }[] }>(`/api/v1/books/${books.get(name)!.id}/manifest`);
    expect(manifest.readingOrder).toHaveLength(2);
    expect(manifest.toc.map((link) => link.title)).toEqual(['One', 'Two']);
  }
  // Before: 2 per book (the publication and the navigation each parsed it).
  expect(parses).not.toHaveBeenCalled();
  parses.mockRestore();
});

it('a book file changed in place is parsed again: a kept parse is of one file state', async () => {
  const path = join(server.dir, 'lone', 'Lone.epub');
  await createReflowableEpub(path, [{ title: 'One', body: '<p>One.</p>' }], { title: 'Before' });
  const parses = vi.spyOn(OPF_PARSER, 'parse');
  for (let open = 0; open < 2; open++) {
    const book = await epubReader.open(path);
    expect((await bookPackage(book)).metadata.title).toBe('Before');
    book.close();
  }
  expect(parses).toHaveBeenCalledTimes(1);
  await createReflowableEpub(path, [{ title: 'One', body: '<p>One.</p>' }], { title: 'After' });
  const changed = await epubReader.open(path);
  expect((await bookPackage(changed)).metadata.title).toBe('After');
  changed.close();
  expect(parses).toHaveBeenCalledTimes(2);
  parses.mockRestore();
});

import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { opfXml, writeEpub } from '../../fixtures/epub.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A novel whose spine names documents the archive does not hold: one lost when the book was made,
 * one whose href leads out of the zip, one id the manifest lacks. A reader can load none of them,
 * so none may be a place to read: not in the reading order, the positions or the page count.
 */
let server: TestServer;
let book: BookDto;
let notesBook: BookDto;

const chapter = (title: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body><h1>${title}</h1><p>${'Words. '.repeat(300)}</p></body></html>\n`;

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'lib');
  await writeEpub(join(root, 'Holes', 'Holes.epub'), [
    { name: 'OEBPS/one.xhtml', data: chapter('One') },
    { name: 'OEBPS/two.xhtml', data: chapter('Two') },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '    <dc:title>Holes</dc:title>',
        manifest: [
          { id: 'one', href: 'one.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'lost', href: 'lost.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'outside', href: '../../etc/passwd', mediaType: 'application/xhtml+xml' },
          { id: 'two', href: 'two.xhtml', mediaType: 'application/xhtml+xml' },
        ],
        spine: ['one', 'lost', 'outside', 'no-such-id', 'two'],
      }),
    },
  ]);
  // Endnotes kept out of the default reading order (linear="no"), as many publishers mark them, and
  // a table of contents wrongly listed in the spine, also non-linear.
  await writeEpub(join(root, 'Notes', 'Notes.epub'), [
    { name: 'OEBPS/one.xhtml', data: chapter('One') },
    { name: 'OEBPS/notes.xhtml', data: chapter('Notes') },
    { name: 'OEBPS/two.xhtml', data: chapter('Two') },
    { name: 'OEBPS/toc.ncx', data: '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap/></ncx>' },
    {
      name: 'OEBPS/content.opf',
      data: opfXml({
        metadata: '    <dc:title>Notes</dc:title>',
        manifest: [
          { id: 'one', href: 'one.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'notes', href: 'notes.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'two', href: 'two.xhtml', mediaType: 'application/xhtml+xml' },
          { id: 'ncx', href: 'toc.ncx', mediaType: 'application/x-dtbncx+xml' },
        ],
        spine: ['one', 'notes', 'two', 'ncx'],
      }).replace(/<itemref idref="(notes|ncx)"\/>/g, '<itemref idref="$1" linear="no"/>'),
    },
  ]);
  await addLibrary(server, root, 'Novels');
  await server.app.folio.tasks.idle();
  const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
  book = books.find((b) => b.name === 'Holes')!;
  notesBook = books.find((b) => b.name === 'Notes')!;
  expect(book.media.status).toBe('READY');
  expect(notesBook.media.status).toBe('READY');
});
afterAll(async () => {
  await server.close();
});

it('spine items missing from the archive are no part of the reading order, the positions or the page count', async () => {
  const manifest = await server.json<{ readingOrder: { href: string }[] }>(`/api/v1/books/${book.id}/manifest`);
  const names = manifest.readingOrder.map((link) => link.href.split('/resource/')[1]);
  expect(names).toEqual(['OEBPS/one.xhtml', 'OEBPS/two.xhtml']);
  const positions = await server.json<{ total: number; positions: { href: string }[] }>(`/api/v1/books/${book.id}/positions`);
  expect(new Set(positions.positions.map((p) => p.href.split('/resource/')[1]))).toEqual(new Set(names));
  expect(positions.total).toBe(book.media.pagesCount);
  // Every document left is one a reader can load.
  for (const link of manifest.readingOrder) {
    const response = await server.app.inject({ method: 'GET', url: new URL(link.href).pathname, headers: server.admin });
    expect(response.statusCode, link.href).toBe(200);
  }
});

/*
 * Links and table-of-contents entries lead into non-linear documents (endnotes, an answer key), and
 * a reader shows only what is in the reading order: left out, a note reference led nowhere, in
 * Folio's reader as in Komga's clients. Komga puts every spine item in the reading order; Folio
 * does the same for the documents a reader can show, in spine order.
 */
it('a non-linear document of the spine is in the reading order, the positions and the page count; a non-linear NCX is not', async () => {
  const manifest = await server.json<{ readingOrder: { href: string }[] }>(`/api/v1/books/${notesBook.id}/manifest`);
  const names = manifest.readingOrder.map((link) => link.href.split('/resource/')[1]);
  expect(names).toEqual(['OEBPS/one.xhtml', 'OEBPS/notes.xhtml', 'OEBPS/two.xhtml']);
  const positions = await server.json<{ total: number; positions: { href: string }[] }>(`/api/v1/books/${notesBook.id}/positions`);
  expect(new Set(positions.positions.map((p) => p.href.split('/resource/')[1]))).toEqual(new Set(names));
  expect(positions.total).toBe(notesBook.media.pagesCount);
});

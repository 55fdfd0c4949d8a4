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
  await addLibrary(server, root, 'Novels');
  await server.app.folio.tasks.idle();
  book = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.find((b) => b.name === 'Holes')!;
  expect(book.media.status).toBe('READY');
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

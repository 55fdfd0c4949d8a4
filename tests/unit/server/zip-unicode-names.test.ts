import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { openByContent } from '../../../server/media/analyse-container.ts';
import { renderPage } from '../../fixtures/index.ts';
import { rawZip, unicodePathField } from '../../fixtures/raw-zip.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * Zips written on Windows or Japanese systems store names in a code page (here Shift-JIS) and add
 * an Info-ZIP Unicode Path field with the UTF-8 name. That name is the entry's name (pages listed
 * and ordered by it) when the field's CRC matches the header's bytes; otherwise the header's bytes
 * are read as before.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** "第1話.png" in Shift-JIS: not valid UTF-8, so read as Latin-1 without the Unicode Path field. */
const EPISODE_1_SJIS = Buffer.from('91e63198622e706e67', 'hex');
const EPISODE_1 = '第1話.png';
/** "第0話.png" stored as UTF-8 with bit 11: comes first by its Unicode name. */
const EPISODE_0 = '第0話.png';

async function bookOf(root: string, bytes: Buffer) {
  await mkdir(join(root, 'S'), { recursive: true });
  await writeFile(join(root, 'S', 'names.cbz'), bytes);
  const library = await addLibrary(server!, root);
  const books = await server!.json<Page<BookDto>>(`/api/v1/books?unpaged=true&library_id=${library.id}`);
  return books.content[0]!;
}

describe('zip entry names with an Info-ZIP Unicode Path field', () => {
  it('are listed and ordered by their Unicode name, and their pages are served', async () => {
    server = await startServer();
    const first = await renderPage({ width: 40, height: 60, color: [255, 0, 0], format: 'png' });
    const second = await renderPage({ width: 40, height: 60, color: [0, 0, 255], format: 'png' });
    const book = await bookOf(
      join(server.dir, 'library'),
      rawZip([
        // Written first; by its Latin-1 reading ("\u0091æ1…") it would also sort first.
        { name: EPISODE_1_SJIS, data: second, extra: unicodePathField(EPISODE_1_SJIS, EPISODE_1) },
        { name: Buffer.from(EPISODE_0, 'utf8'), utf8: true, data: first },
      ]),
    );
    expect(book.media.status).toBe('READY');
    const pages = await server.json<{ fileName: string; number: number }[]>(`/api/v1/books/${book.id}/pages`);
    expect(pages.map((p) => p.fileName)).toEqual([EPISODE_0, EPISODE_1]);
    const served = await server.get(`/api/v1/books/${book.id}/pages/2`);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(second)).toBe(true);
  });

  it('is ignored when its CRC is not that of the header name (a stale field): the header name is used', async () => {
    server = await startServer();
    const page = await renderPage({ width: 40, height: 60, color: [0, 255, 0], format: 'png' });
    const book = await bookOf(
      join(server.dir, 'library'),
      rawZip([{ name: EPISODE_1_SJIS, data: page, extra: unicodePathField(EPISODE_1_SJIS, 'renamed.png', 0x12345678) }]),
    );
    const pages = await server.json<{ fileName: string }[]>(`/api/v1/books/${book.id}/pages`);
    expect(pages.map((p) => p.fileName)).toEqual([EPISODE_1_SJIS.toString('latin1')]);
  });

  it('still opens an entry by the header name a book analysed before recorded', async () => {
    server = await startServer();
    const page = await renderPage({ width: 40, height: 60, color: [0, 255, 0], format: 'png' });
    const path = join(server.dir, 'old.cbz');
    await writeFile(path, rawZip([{ name: EPISODE_1_SJIS, data: page, extra: unicodePathField(EPISODE_1_SJIS, EPISODE_1) }]));
    const { book } = await openByContent(path);
    try {
      expect(book.entries().map((e) => e.name)).toEqual([EPISODE_1]);
      const prefix = await book.readPrefix(EPISODE_1_SJIS.toString('latin1'), 8);
      expect(prefix.equals(page.subarray(0, 8))).toBe(true);
    } finally {
      book.close();
    }
  });
});

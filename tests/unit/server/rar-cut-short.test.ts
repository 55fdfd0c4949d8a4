import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { BLUE, GREEN, RED, renderPage } from '../../fixtures/index.ts';
import { analyseContainer } from '../../../server/media/analyse-container.ts';
import { rar4Bytes, rar5Bytes, type RarMember } from '../../fixtures/rar.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A RAR book cut short (a download that stopped, a copy to a full disk) keeps the pages it still
 * holds whole, as a cut CBZ does and as Komga's junrar keeps the headers it read: READY with
 * ERR_1007, the whole pages served byte for byte, the cut one refused with ERR_1007. Before, unrar
 * failing to list past the cut made the whole book ERROR ERR_1008. A book cut inside its first
 * page has nothing whole to read and stays ERROR. A book that ends without its end-of-archive block
 * (at a block boundary, or inside a block before its type byte) is taken as cut, never as whole.
 */

let server: TestServer;
/** The end-of-archive block as written by WinRAR (and tests/fixtures/rar.ts): 7 bytes in RAR 4, 8 in RAR 5. */
const END_BLOCK_BYTES = { rar4: 7, rar5: 8 } as const;
/** unrar's first read of a block is 7 bytes: every cut inside it. */
const HEADER_BYTES_CUT = 7;
let pages: RarMember[];
const books = new Map<string, BookDto>();

/** Where the `index`-th member's data starts in the archive's bytes. */
function dataOffset(bytes: Buffer, index: number): number {
  const at = bytes.indexOf(pages[index]!.data);
  expect(at).toBeGreaterThan(0);
  return at;
}

beforeAll(async () => {
  server = await startServer();
  pages = [];
  for (const [i, color] of [RED, GREEN, BLUE].entries()) {
    pages.push({ name: `page-${i + 1}.png`, data: await renderPage({ width: 60 + i, height: 90, color, format: 'png' }) });
  }
  const folder = join(server.dir, 'library', 'Cut');
  await mkdir(folder, { recursive: true });
  for (const [format, bytes] of [['rar4', rar4Bytes(pages)], ['rar5', rar5Bytes(pages)]] as const) {
    const third = dataOffset(bytes, 2);
    // Inside the third page's data, as a download stopped there leaves it.
    await writeFile(join(folder, `${format}-in-third-page.cbr`), bytes.subarray(0, third + Math.floor(pages[2]!.data.length / 2)));
    // Inside the first page's data: nothing whole.
    await writeFile(join(folder, `${format}-in-first-page.cbr`), bytes.subarray(0, dataOffset(bytes, 0) + 20));
  }
  // RAR 5, the second member's header overwritten (its CRC fails): unrar lists on past it.
  const five = rar5Bytes(pages);
  const second = five.indexOf('page-2.png');
  five.fill(0xee, second - 8, second - 2);
  await writeFile(join(folder, 'rar5-broken-second-header.cbr'), five);
  // Cut inside the third member's header: unrar cannot name it (RAR 5 even takes it for the
  // archive's end), yet the book says pages are lost.
  for (const [format, bytes] of [['rar4', rar4Bytes(pages)], ['rar5', rar5Bytes(pages)]] as const) {
    await writeFile(join(folder, `${format}-in-third-header.cbr`), bytes.subarray(0, bytes.indexOf('page-3.png') - 3));
    // Only its end-of-archive block cut (RAR 4) or gone (RAR 5): every page is whole, no false alarm.
    await writeFile(join(folder, `${format}-end-block-cut.cbr`), bytes.subarray(0, bytes.length - (format === 'rar4' ? 2 : 8)));
    // Cut after each of the third header's first bytes: fewer than hold its type (RAR 4's byte 2,
    // RAR 5's after a CRC32 and a size), and then a few more.
    const third = dataOffset(bytes, 1) + pages[1]!.data.length;
    for (let kept = 1; kept <= HEADER_BYTES_CUT; kept++) {
      await writeFile(join(folder, `${format}-third-header-${kept}.cbr`), bytes.subarray(0, third + kept));
    }
    // Cut after each of the end-of-archive block's first bytes (none at all included).
    const end = bytes.length - END_BLOCK_BYTES[format];
    for (let kept = 0; kept < END_BLOCK_BYTES[format]; kept++) {
      await writeFile(join(folder, `${format}-end-block-${kept}.cbr`), bytes.subarray(0, end + kept));
    }
    // Cut at the boundary before the third header: no byte says whether a member or the end came next.
    await writeFile(join(folder, `${format}-third-header-0.cbr`), bytes.subarray(0, third));
  }
  // Cut 1 byte into the third header, where that byte is the one the end block starts with (its
  // CRC's first byte, once in 256): a third page name is looked for whose header starts that way.
  for (const [format, write] of [['rar4', rar4Bytes], ['rar5', rar5Bytes]] as const) {
    for (let n = 0; ; n++) {
      const named = [pages[0]!, pages[1]!, { name: `page-3-${n}.png`, data: pages[2]!.data }];
      const bytes = write(named);
      const third = dataOffset(bytes, 1) + pages[1]!.data.length;
      if (bytes[third] !== bytes[bytes.length - END_BLOCK_BYTES[format]]) continue;
      await writeFile(join(folder, `${format}-third-header-crc-like-end.cbr`), bytes.subarray(0, third + 1));
      break;
    }
  }
  await addLibrary(server, join(server.dir, 'library'));
  for (const book of (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content) books.set(book.name, book);
}, 60_000);

afterAll(async () => server.close());

async function expectWholePages(book: BookDto, count: number): Promise<void> {
  for (let n = 1; n <= count; n++) {
    const page = await server.get(`/api/v1/books/${book.id}/pages/${n}`);
    expect(page.statusCode, `page ${n}`).toBe(200);
    expect(page.rawPayload.equals(pages[n - 1]!.data), `page ${n} bytes`).toBe(true);
  }
}

describe.each(['rar4', 'rar5'])('a %s book cut short', (format) => {
  it('inside its third page: READY with ERR_1007, pages 1 and 2 served byte for byte, page 3 refused with ERR_1007', async () => {
    const book = books.get(`${format}-in-third-page`)!;
    expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 3 });
    await expectWholePages(book, 2);
    const cut = await server.get(`/api/v1/books/${book.id}/pages/3`);
    expect(cut.statusCode).toBe(422);
    expect(cut.json().message).toMatch(/ERR_1007.*page-3\.png/);
    // Its poster is drawn from the first page.
    expect((await server.get(`/api/v1/books/${book.id}/thumbnail`)).statusCode).toBe(200);
  });

  it('inside its first page: ERROR ERR_1008, nothing to read', () => {
    expect(books.get(`${format}-in-first-page`)!.media).toMatchObject({ status: 'ERROR', comment: 'ERR_1008', pagesCount: 0 });
  });
});

describe.each(['rar4', 'rar5'])('a %s book', (format) => {
  it('cut inside its third header keeps its two whole pages and says ERR_1007', async () => {
    const book = books.get(`${format}-in-third-header`)!;
    expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
    await expectWholePages(book, 2);
  });

  it.each(Array.from({ length: HEADER_BYTES_CUT }, (_, i) => i + 1))(
    'cut after the first %i byte(s) of its third header keeps its two whole pages and says ERR_1007',
    async (kept) => {
      const book = books.get(`${format}-third-header-${kept}`)!;
      expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
      await expectWholePages(book, 2);
      // What the log says of it, in the same words for both formats (RAR 4's was unrar's bare ERAR_EREAD).
      expect((await analyseContainer(join(server.dir, 'library', 'Cut', `${format}-third-header-${kept}.cbr`))).damage).toBe('the file ends inside a header (cut short)');
    },
  );

  it('cut at the block boundary before its third header keeps its two whole pages and says ERR_1007', async () => {
    // Before, unrar's clean end at the boundary passed for the archive's end: READY, no comment, a page lost silently.
    const book = books.get(`${format}-third-header-0`)!;
    expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
    await expectWholePages(book, 2);
    const damage = (await analyseContainer(join(server.dir, 'library', 'Cut', `${format}-third-header-0.cbr`))).damage;
    expect(damage).toMatch(/without its end-of-archive block/);
  });

  it('cut 1 byte into its third header, that byte equal to the end block\'s first, keeps its two pages and says ERR_1007', async () => {
    // Before, the byte matched the end block's CRC and the cut header passed for the end: READY, no comment.
    const book = books.get(`${format}-third-header-crc-like-end`)!;
    expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007', pagesCount: 2 });
    await expectWholePages(book, 2);
  });

  it('cut inside its end-of-archive block before the block\'s type byte keeps its three pages and says ERR_1007; after it, no comment', async () => {
    // The type byte is the end block's third in RAR 4 (after a CRC16), its sixth in RAR 5 (after a CRC32 and a 1-byte size).
    const typeAt = format === 'rar4' ? 2 : 5;
    for (let kept = 0; kept < END_BLOCK_BYTES[format as 'rar4' | 'rar5']; kept++) {
      const book = books.get(`${format}-end-block-${kept}`)!;
      const comment = kept <= typeAt ? 'ERR_1007' : '';
      expect(book.media, `${kept} byte(s) of the end block`).toMatchObject({ status: 'READY', comment, pagesCount: 3 });
    }
  });

  it('cut in its end-of-archive block only serves its three pages; without the block\'s type byte (RAR 5: no block at all) it says ERR_1007', async () => {
    const book = books.get(`${format}-end-block-cut`)!;
    expect(book.media).toMatchObject({ status: 'READY', comment: format === 'rar4' ? '' : 'ERR_1007', pagesCount: 3 });
    await expectWholePages(book, 3);
  });
});

it('a RAR 5 book whose second header is broken keeps the pages before and after it, and says ERR_1007', async () => {
  const book = books.get('rar5-broken-second-header')!;
  expect(book.media).toMatchObject({ status: 'READY', comment: 'ERR_1007' });
  const listed = await server.json<PageDto[]>(`/api/v1/books/${book.id}/pages`);
  for (const whole of [pages[0]!, pages[2]!]) {
    const number = listed.find((page) => page.fileName === whole.name)!.number;
    const page = await server.get(`/api/v1/books/${book.id}/pages/${number}`);
    expect(page.statusCode, whole.name).toBe(200);
    expect(page.rawPayload.equals(whole.data), whole.name).toBe(true);
  }
});

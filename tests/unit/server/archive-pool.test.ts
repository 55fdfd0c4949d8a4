import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectReader, openByContent } from '../../../server/media/analyse-container.ts';
import { ArchivePool } from '../../../server/media/archive-pool.ts';
import { ServerBusy } from '../../../server/media/transient-errors.ts';
import { archiveHandleBudget, connectionBudget, fileReadBudget, descriptorLimit } from '../../../server/media/descriptor-budget.ts';
import { BLUE, GREEN, RED, createCbz, renderPage } from '../../fixtures/index.ts';
import { createImageEpub } from '../../fixtures/epub.ts';
import { writePdf } from '../../fixtures/pdf.ts';
import { writeRar5 } from '../../fixtures/rar.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';

let dir: string;
let first: string;
let second: string;
/** Books the pool opened and has not closed yet. */
let open: Set<string>;

/** A pool whose opens and closes are recorded, to check what it holds. */
function countingPool(capacity: number, waitMs = 5_000): ArchivePool {
  return new ArchivePool({
    capacity,
    waitMs,
    open: async (filePath) => {
      const reader = await detectReader(filePath);
      const book = await reader.open(filePath);
      open.add(filePath);
      const close = book.close.bind(book);
      book.close = () => {
        open.delete(filePath);
        close();
      };
      return { reader, book };
    },
  });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-pool-'));
  open = new Set();
  first = (await createCbz(join(dir, 'a.cbz'), [{ width: 20, height: 30, color: RED, format: 'png' }])).path;
  second = (await createCbz(join(dir, 'b.cbz'), [{ width: 20, height: 30, color: GREEN, format: 'png' }])).path;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ArchivePool', () => {
  it('reopens a book rewritten in place under the same recorded version, instead of reading the new bytes through the old listing', async () => {
    const pool = countingPool(2);
    const page = async () => buffer(await (await pool.get(first, 'v1')).openEntry('page-001.png'));
    expect((await page()).length).toBeGreaterThan(0);
    // Another program writes a new book over the file (same path and inode, before any rescan):
    // a cover now comes first, so page-001.png lies elsewhere in the file.
    const other = await createCbz(join(dir, 'other.cbz'), [
      { width: 40, height: 60, color: BLUE, format: 'png', name: 'cover.png' },
      { width: 30, height: 20, color: GREEN, format: 'png', name: 'page-001.png' },
    ]);
    await writeFile(first, await readFile(other.path));
    // Read at once: the handle's own descriptor shows the change (no wait for the path's check).
    expect((await page()).equals(other.pages[1]!.bytes)).toBe(true);
    pool.closeAll();
  });

  it('keeps one handle per book of every format across uses, and sees each overwritten in place at its next use', async () => {
    const image = await renderPage({ width: 20, height: 30, color: RED, format: 'png' });
    const books = [
      first,
      await createImageEpub(join(dir, 'e.epub'), [{ width: 20, height: 30, color: RED, format: 'png' }]).then((epub) => epub.path),
      await writeRar5(join(dir, 'r.cbr'), [{ name: 'page-001.png', data: image }]),
      await writeSevenZip(join(dir, 's.cb7'), [{ name: 'page-001.png', data: image }]).then(() => join(dir, 's.cb7')),
      await writePdf(join(dir, 'p.pdf'), [{ width: 100, height: 150, color: RED }]),
    ];
    let opens = 0;
    const pool = new ArchivePool({ capacity: books.length, open: (filePath) => (opens++, openByContent(filePath)) });
    // Several uses within the second the path is not looked at again: one open each, so no format's
    // descriptor disagrees with the path's state from before its open (that would reopen every use).
    // (Each get leases the handle, as every read does.)
    for (const book of books) {
      for (let use = 0; use < 3; use++) await pool.get(book, 'v1');
    }
    expect(opens).toBe(books.length);
    // The same bytes written over each file in place: new times on the same inode, a new open each.
    for (const book of books) {
      await writeFile(book, await readFile(book));
      await pool.get(book, 'v1');
    }
    expect(opens).toBe(2 * books.length);
    pool.closeAll();
  });

  it('closes an idle book at once when another needs its slot, and reopens it on demand', async () => {
    const pool = countingPool(1);
    const a = await pool.get(first, 'v1');
    expect([...open]).toEqual([first]);
    const b = await pool.get(second, 'v1');
    expect([...open]).toEqual([second]);
    // A caller still holding `a` reads it: the pool reopens it (closing idle `b`), never fails.
    expect((await text(await a.openEntry('page-001.png'))).length).toBeGreaterThan(0);
    expect([...open]).toEqual([first]);
    expect((await b.readPrefix('page-001.png', 8)).length).toBe(8);
    expect(pool.openCount).toBe(1);
    pool.closeAll();
    await new Promise((resolve) => setImmediate(resolve)); // closing happens once each open settles
    expect(open.size).toBe(0);
  });

  it('keeps a book open while a stream of it is read, and waits for it instead of failing', async () => {
    const pool = countingPool(1);
    const a = await pool.get(first, 'v1');
    const stream = await a.openEntry('page-001.png');
    let bOpened = false;
    const b = pool.get(second, 'v1').then((book) => {
      bOpened = true;
      return book;
    });
    // `a` is in use: `b` waits for the slot rather than closing `a` under its reader.
    await new Promise((resolve) => setImmediate(resolve));
    expect(bOpened).toBe(false);
    expect([...open]).toEqual([first]);
    expect((await text(stream)).length).toBeGreaterThan(0);
    await b;
    expect([...open]).toEqual([second]);
    pool.closeAll();
  });

  it('answers busy when no slot comes free in time', async () => {
    const pool = countingPool(1, 50);
    const stream = await (await pool.get(first, 'v1')).openEntry('page-001.png');
    await expect(pool.get(second, 'v1')).rejects.toBeInstanceOf(ServerBusy);
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    await expect(pool.get(second, 'v1')).resolves.toBeDefined();
    pool.closeAll();
  });

  it('reads a book afresh for its analysis and keeps that handle for the reads that follow', async () => {
    const pool = countingPool(4);
    let opens = 0;
    const counted = new ArchivePool({
      capacity: 4,
      open: async (filePath) => {
        opens++;
        const reader = await detectReader(filePath);
        return { reader, book: await reader.open(filePath) };
      },
    });
    // A handle cached before (earlier content, same recorded version) is not what the analysis reads.
    await counted.get(first, 'v1');
    const listed = await counted.withCurrentHandle(first, 'v1', async ({ book }) => book.entries().map((e) => e.name));
    expect(listed).toEqual(['page-001.png']);
    expect(opens).toBe(2);
    // The poster and the barcode search that follow read through the analysed handle.
    expect((await (await counted.get(first, 'v1')).readPrefix('page-001.png', 4)).length).toBe(4);
    expect(opens).toBe(2);
    counted.closeAll();
    pool.closeAll();
  });

  it('closes a forgotten book once its last reader is done', async () => {
    const pool = countingPool(4);
    const before = await pool.get(first, 'v1');
    const stream = await before.openEntry('page-001.png');
    pool.forget(first);
    expect(open.has(first)).toBe(true);
    await text(stream);
    await new Promise((resolve) => setImmediate(resolve));
    expect(open.has(first)).toBe(false);
    const after = await pool.get(first, 'v1');
    expect(open.has(first)).toBe(true);
    expect((await after.readPrefix('page-001.png', 4)).length).toBe(4);
    pool.closeAll();
    await new Promise((resolve) => setImmediate(resolve)); // closing happens once each open settles
    expect(open.size).toBe(0);
  });

  it('sizes itself from the process descriptor limit', () => {
    const limits = (soft: string) => `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                4096                 files\n`;
    expect(descriptorLimit(limits('1024'))).toBe(1024);
    expect(descriptorLimit(limits('unlimited'))).toBe(Number.MAX_SAFE_INTEGER);
    expect(descriptorLimit('garbage')).toBe(1024);
    expect(archiveHandleBudget(1024)).toBe(128);
    expect(archiveHandleBudget(20)).toBe(8);
    expect(archiveHandleBudget(20_000)).toBe(2500);
    expect(archiveHandleBudget(1_000_000)).toBe(4096);
    // A connection costs its socket; archives and request-held files have budgets of their own.
    expect(fileReadBudget(1024)).toBe(128);
    expect(connectionBudget(1024)).toBe(1024 - 128 - 128 - 64);
    expect(connectionBudget(20)).toBe(16);
  });
});

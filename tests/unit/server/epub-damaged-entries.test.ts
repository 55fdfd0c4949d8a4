import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { analyseContainer } from '../../../server/media/analyse-container.ts';
import { MediaError } from '../../../server/media/book-reader.ts';
import { createImageEpub } from '../../fixtures/epub.ts';
import { epubReader } from '../../../server/media/epub-reader.ts';

/*
 * An EPUB whose documents are deflated but damaged (found by the archive fuzz, seed 551084930):
 * zlib's error escaped analysis as a bare Error instead of the damaged entry it says.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-epub-damaged-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A deflate stream whose first block is "stored" with a length and its complement that disagree.
const BAD_STORED_BLOCK = Buffer.from([0x01, 0x05, 0x00, 0x00, 0x00]);

/** Overwrites the start of an entry's compressed data, found through its local header. */
function damageEntry(zip: Buffer, name: string, bytes: Buffer): void {
  const header = zip.indexOf(name) - 30;
  expect(zip.toString('latin1', header + 30, header + 30 + name.length)).toBe(name);
  const dataAt = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  expect(zip.readUInt16LE(header + 8)).toBe(8);
  bytes.copy(zip, dataAt);
}

it('a deflated entry that cannot be inflated is read as a damaged entry (MediaError ERR_1007 naming it), not a bare zlib error', async () => {
  const file = join(dir, 'broken-entry.epub');
  await createImageEpub(file, [{ width: 24, height: 36, color: [200, 40, 40], format: 'png' }]);
  const zip = await readFile(file);
  damageEntry(zip, 'OEBPS/pages/p001.xhtml', BAD_STORED_BLOCK);
  await writeFile(file, zip);
  const book = await epubReader.open(file);
  try {
    const failure = await book.readPrefix('OEBPS/pages/p001.xhtml', 1024).then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(MediaError);
    expect((failure as MediaError).code).toBe('ERR_1007');
    expect((failure as MediaError).message).toContain('OEBPS/pages/p001.xhtml');
  } finally {
    book.close();
  }
});

/*
 * An image EPUB one of whose page documents cannot be read made the whole book ERROR (ERR_1007):
 * none of its pages could be read. Komga's analysis reads such a book as text (its divina pages
 * are dropped with a warning); here too, with the damaged document named, so the book is READY
 * with ERR_1007 and the EPUB reader shows every other page.
 */
it('an image EPUB whose page document cannot be inflated is read as text, the document named as failed', async () => {
  const file = join(dir, 'broken-page.epub');
  await createImageEpub(file, [
    { width: 24, height: 36, color: [200, 40, 40], format: 'png' },
    { width: 24, height: 36, color: [40, 200, 40], format: 'png' },
    { width: 24, height: 36, color: [40, 40, 200], format: 'png' },
  ]);
  const zip = await readFile(file);
  damageEntry(zip, 'OEBPS/pages/p002.xhtml', BAD_STORED_BLOCK);
  await writeFile(file, zip);
  const analysis = await analyseContainer(file);
  expect(analysis.failedEntries).toEqual(['OEBPS/pages/p002.xhtml']);
  expect(analysis.epubDivinaCompatible).toBe(false);
  expect(analysis.pages).toEqual([]);
  expect(analysis.pageCount).toBe(3);
});

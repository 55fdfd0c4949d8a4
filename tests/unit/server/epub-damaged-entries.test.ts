import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { analyseContainer } from '../../../server/media/analyse-container.ts';
import { MediaError } from '../../../server/media/book-reader.ts';
import { createImageEpub } from '../../fixtures/epub.ts';

/*
 * An EPUB whose documents are deflated but damaged (found by the archive fuzz, seed 551084930):
 * zlib's error escaped analysis as a bare Error instead of the damaged book it says.
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

it('an image EPUB whose page document cannot be inflated is a damaged book (MediaError ERR_1007), not a bare zlib error', async () => {
  const file = join(dir, 'broken-page.epub');
  await createImageEpub(file, [{ width: 24, height: 36, color: [200, 40, 40], format: 'png' }]);
  const zip = await readFile(file);
  damageEntry(zip, 'OEBPS/pages/p001.xhtml', BAD_STORED_BLOCK);
  await writeFile(file, zip);
  const failure = await analyseContainer(file).then(() => null, (error: unknown) => error);
  expect(failure).toBeInstanceOf(MediaError);
  expect((failure as MediaError).code).toBe('ERR_1007');
  expect((failure as MediaError).message).toContain('OEBPS/pages/p001.xhtml');
});

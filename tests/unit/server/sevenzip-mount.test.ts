import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SevenZipModuleFactory } from '7z-wasm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountFolderReadOnly } from '../../../server/media/sevenzip-mount.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';

const require = createRequire(import.meta.url);
const factory = require('7z-wasm') as SevenZipModuleFactory;

let folder: string;
let archive: Buffer;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'folio-7z-mount-'));
  await writeSevenZip(join(folder, 'Book.cb7'), [{ name: 'page-1.txt', data: Buffer.from('page one') }]);
  archive = await readFile(join(folder, 'Book.cb7'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A fresh 7-Zip instance, as the worker makes one per request, with the book's folder mounted. */
async function mounted() {
  const said: string[] = [];
  const sz = await factory({ print: (line: string) => said.push(line), printErr: (line: string) => said.push(line), quit: (_code: number, status: unknown) => { throw status; } });
  mountFolderReadOnly(sz, folder, '/book');
  return { sz, said };
}

describe("7-Zip's mount of a book's folder", () => {
  it('reads the book but refuses every change to the folder', async () => {
    const { sz } = await mounted();
    expect(Buffer.from(sz.FS.readFile('/book/Book.cb7'))).toEqual(archive);
    expect(() => sz.FS.writeFile('/book/planted.txt', 'x')).toThrow();
    expect(() => sz.FS.writeFile('/book/Book.cb7', 'x')).toThrow();
    expect(() => sz.FS.mkdir('/book/planted')).toThrow();
    expect(() => sz.FS.rename('/book/Book.cb7', '/book/Moved.cb7')).toThrow();
    expect(() => sz.FS.unlink('/book/Book.cb7')).toThrow();
    expect(await readdir(folder)).toEqual(['Book.cb7']);
    expect(await readFile(join(folder, 'Book.cb7'))).toEqual(archive);
  });

  it('lets no extraction land in the folder, wherever 7-Zip is led to write', async () => {
    const { sz, said } = await mounted();
    try {
      sz.callMain(['x', '/book/Book.cb7', '-o/book/extracted', '-y']);
    } catch (thrown) {
      // 7-Zip gives up at the first refused write (its C++ exception surfaces as a number) or exits
      // non-zero: either way the folder is what matters.
      said.push(`stopped: ${String(thrown)}`);
    }
    expect(said.join('\n')).not.toContain('Everything is Ok');
    expect(await readdir(folder)).toEqual(['Book.cb7']);
  });
});

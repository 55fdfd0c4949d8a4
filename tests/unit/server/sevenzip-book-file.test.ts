import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SevenZipModuleFactory } from '7z-wasm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountBookFile } from '../../../server/media/sevenzip-book-file.ts';
import { writeSevenZip } from '../../fixtures/sevenzip.ts';

const require = createRequire(import.meta.url);
const factory = require('7z-wasm') as SevenZipModuleFactory;

let folder: string;
let archive: Buffer;
let fd: number;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'folio-7z-book-'));
  await writeSevenZip(join(folder, 'Book.cb7'), [{ name: 'page-1.txt', data: Buffer.from('page one') }]);
  archive = await readFile(join(folder, 'Book.cb7'));
  fd = openSync(join(folder, 'Book.cb7'), 'r');
});
afterEach(async () => {
  closeSync(fd);
  await rm(folder, { recursive: true, force: true });
});

/** A fresh 7-Zip instance, as the worker makes one per request, with the book at /book.7z. */
async function mounted() {
  const said: string[] = [];
  const sz = await factory({ print: (line: string) => said.push(line), printErr: (line: string) => said.push(line), quit: (_code: number, status: unknown) => { throw status; } });
  mountBookFile(sz, fd, archive.length, '/book.7z');
  return { sz, said };
}

describe("7-Zip's view of a book: one read-only file reading the checked descriptor", () => {
  it('reads the book, lists and unpacks it, but refuses every change to it', async () => {
    const { sz, said } = await mounted();
    expect(Buffer.from(sz.FS.readFile('/book.7z'))).toEqual(archive);
    expect(sz.FS.stat('/book.7z').size).toBe(archive.length);
    expect(() => sz.FS.writeFile('/book.7z', 'x')).toThrow();
    expect(() => sz.FS.truncate('/book.7z', 0)).toThrow();
    sz.callMain(['x', '/book.7z', '-o/out', '-y']);
    expect(said.join('\n')).toContain('Everything is Ok');
    expect(Buffer.from(sz.FS.readFile('/out/page-1.txt')).toString()).toBe('page one');
    expect(await readFile(join(folder, 'Book.cb7'))).toEqual(archive);
  });

  it('shows 7-Zip no host folder: an extraction led anywhere stays in memory', async () => {
    const { sz, said } = await mounted();
    try {
      sz.callMain(['x', '/book.7z', `-o${folder}/extracted`, '-y']);
    } catch (thrown) {
      said.push(`stopped: ${String(thrown)}`);
    }
    expect(await readdir(folder)).toEqual(['Book.cb7']);
  });
});

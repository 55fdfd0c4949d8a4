import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createCbz, RED } from '../../fixtures/index.ts';
import { addLibrary, rescan, startServer, type TestServer } from './helpers.ts';

/*
 * File names as real libraries hold them: a newline in a name, the same title in NFD and in NFC
 * (two files on Linux), a name near the 255-byte limit, hidden files and folders (Komga's and
 * Folio's own sidecars among them), and a folder that links to itself. Each visible book is found
 * once, by its exact name, and reads; nothing hidden is taken in; the loop ends the walk.
 */

let server: TestServer;
let libraryId: string;
const page = { width: 20, height: 30, color: RED, format: 'png' as const };
const LONG = `${'Long '.repeat(49)}end`; // 248 characters, 252 bytes with ".cbz"
const visible = ['new\nline', 'Cafe\u0301 NFD', 'Caf\u00e9 NFC', LONG];

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  const folder = join(root, 'Odd');
  for (const name of visible) await createCbz(join(folder, `${name}.cbz`), [page]);
  await createCbz(join(folder, '.hidden.cbz'), [page]);
  await createCbz(join(folder, '.komga', 'sidecar.cbz'), [page]);
  await createCbz(join(folder, '.folio', 'sidecar.cbz'), [page]);
  await mkdir(join(root, 'Loop'));
  await symlink(join(root, 'Loop'), join(root, 'Loop', 'again'));
  await symlink('..', join(root, 'Loop', 'up'));
  libraryId = (await addLibrary(server, root)).id;
});
afterAll(async () => {
  await server.close();
});

const books = async () => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;

describe('odd file names', () => {
  it('find every visible book once, by its exact name, and nothing hidden', async () => {
    expect((await books()).map((b) => b.name).toSorted()).toEqual(visible.toSorted());
  });

  it('read like any other book', async () => {
    for (const book of await books()) {
      expect(book.media, JSON.stringify(book.name)).toMatchObject({ status: 'READY', pagesCount: 1 });
      expect((await server.get(`/api/v1/books/${book.id}/pages/1`)).statusCode, JSON.stringify(book.name)).toBe(200);
      expect((await server.get(`/api/v1/books/${book.id}/file`)).statusCode, JSON.stringify(book.name)).toBe(200);
    }
  });

  it('are the same books after another scan (NFD and NFC are not merged, nothing is moved)', async () => {
    const before = new Map((await books()).map((b) => [b.name, b.id]));
    await rescan(server, libraryId);
    const after = await books();
    expect(after.map((b) => [b.name, b.id, b.deleted]).toSorted()).toEqual([...before].map(([name, id]) => [name, id, false]).toSorted());
  });
});

import { readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, rescan, startServer, type TestServer } from './helpers.ts';

/**
 * Symlink containment (issue 10, item 3): `x.cbz -> /etc/passwd` became a book whose download
 * returned /etc/passwd. A file whose real path leaves the library root is never scanned, read or
 * served; a link whose target stays inside the root is an ordinary book; symlinked folders are not
 * followed.
 */
let server: TestServer;
let root = '';
let outside = '';
let libraryId = '';
const page = { width: 10, height: 10, color: RED, format: 'png' as const };

type BookList = { content: { id: string; name: string; seriesId: string }[] };
const books = async () => (await server.json<BookList>('/api/v1/books?unpaged=true')).content;

beforeAll(async () => {
  server = await startServer();
  root = join(server.dir, 'library');
  outside = join(server.dir, 'outside');
  await createCbz(join(outside, 'Secret', 'secret.cbz'), [page]);
  await createCbz(join(root, 'Series', 'Real 01.cbz'), [page]);
  await createCbz(join(root, 'Series', 'Real 02.cbz'), [page]);
  await symlink('/etc/passwd', join(root, 'Series', 'passwd.cbz'));
  await symlink(join(outside, 'Secret', 'secret.cbz'), join(root, 'Series', 'Secret copy.cbz'));
  await symlink(join(root, 'Series', 'Real 01.cbz'), join(root, 'Series', 'Linked 01.cbz'));
  await symlink(join(outside, 'Secret'), join(root, 'Linked folder'));
  libraryId = (await addLibrary(server, root)).id;
}, 60_000);

afterAll(async () => {
  await server.close();
});

describe('symlinks in a library', () => {
  it('pointing out of the root are not scanned; inside it they are books; folders are not followed', async () => {
    const names = (await books()).map((b) => b.name).sort();
    expect(names).toEqual(['Linked 01', 'Real 01', 'Real 02']);
  });

  it('swapped in after a scan are never read or served', async () => {
    const real02 = (await books()).find((b) => b.name === 'Real 02')!;
    const target = join(root, 'Series', 'Real 02.cbz');
    await rm(target);
    await symlink('/etc/passwd', target);
    const passwd = await readFile('/etc/passwd');

    const download = await server.get(`/api/v1/books/${real02.id}/file`);
    expect(download.statusCode).toBe(404);
    expect(download.rawPayload.includes(passwd.subarray(0, 16))).toBe(false);
    const zip = await server.get(`/api/v1/series/${real02.seriesId}/file`);
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.includes(passwd.subarray(0, 16))).toBe(false);

    // A rescan drops it (it no longer counts as a file of the library).
    await rescan(server, libraryId);
    const after = await server.json<{ deleted: boolean }>(`/api/v1/books/${real02.id}`);
    expect(after.deleted).toBe(true);
  });
});

import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { logFilePath } from '../../../server/logging.ts';
import { pollUntil } from '../../support/poll.ts';
import { createCbz, RED } from '../../fixtures/index.ts';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from './support/spawned-server.ts';

/*
 * A folder the server may not read (permissions changed by hand, a share remounted with other
 * owners, a copy made by another user) says nothing about the books in it: they are not flagged
 * deleted (which "empty trash after scan" would then remove, read progress and all) but kept as
 * they were, and the folder is named in the log.
 *
 * File permissions do not apply to root, so a test run by root runs the server as `nobody`.
 */

const NOBODY = { uid: 65534, gid: 65534 };
const asRoot = process.getuid?.() === 0;
const repoRoot = resolve(import.meta.dirname, '../../..');

/** Whether `nobody` can run the server from this checkout (not when it lies under /root, say). */
function nobodyCanRunServer(): boolean {
  if (!asRoot) return true;
  const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(join(repoRoot, 'server/main.ts'))})`], { ...NOBODY, cwd: '/' });
  return probe.status === 0;
}

async function chownTree(path: string): Promise<void> {
  await chown(path, NOBODY.uid, NOBODY.gid);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) await chownTree(full);
    else await chown(full, NOBODY.uid, NOBODY.gid);
  }
}

let server: SpawnedServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (dir) {
    // Modes given back first, so the folders can be removed.
    for (const folder of ['', 'Hidden', 'Unlisted']) await chmod(join(dir, 'library', folder), 0o755).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
  dir = undefined;
});

describe('a library folder the server may not read', () => {
  it.skipIf(!nobodyCanRunServer())('keeps its books as they were instead of flagging them deleted, and says so in the log', { timeout: 120_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-unreadable-'));
    const root = join(dir, 'library');
    const page = { width: 20, height: 30, color: RED, format: 'png' as const };
    for (const folder of ['Open', 'Hidden', 'Unlisted']) {
      await mkdir(join(root, folder), { recursive: true });
      await createCbz(join(root, folder, `${folder} 1.cbz`), [page]);
    }
    const dataDir = join(dir, 'data');
    await mkdir(dataDir);
    if (asRoot) await chownTree(dir);
    server = await spawnServer(dataDir, asRoot ? { as: NOBODY } : {});
    const cookie = await claimSession(server.url);
    const libraryId = await addLibraryAndWait(server.url, cookie, root, 3);
    await apiCall(server.url, cookie, `/api/v1/libraries/${libraryId}`, { method: 'PATCH', body: JSON.stringify({ emptyTrashAfterScan: true }) });

    // No read permission: the folder cannot be listed (EACCES). No search permission: its names
    // can be listed but none of its files looked at (EACCES again).
    await chmod(join(root, 'Hidden'), 0o000);
    await chmod(join(root, 'Unlisted'), 0o644);
    await apiCall(server.url, cookie, `/api/v1/libraries/${libraryId}/scan`, { method: 'POST' });
    const log = () => readFile(logFilePath(dataDir), 'utf8');
    await pollUntil('the second scan to finish', async () => (await log()).split('library scan finished').length - 1 >= 2, { timeoutMs: 60_000 });

    const all = await apiCall<Page<BookDto>>(server.url, cookie, `/api/v1/books?library_id=${libraryId}&unpaged=true`);
    expect(all.content.map((b) => [b.name, b.deleted]).sort()).toEqual([['Hidden 1', false], ['Open 1', false], ['Unlisted 1', false]]);
    const warned = (await log()).split('\n').filter((line) => line.includes('"level":40') && line.includes('may not be read'));
    expect(warned.some((line) => line.includes(join(root, 'Hidden')))).toBe(true);
    expect(warned.some((line) => line.includes(join(root, 'Unlisted')))).toBe(true);

    // The library's own folder: the library is unavailable until it can be read, as when missing.
    await chmod(root, 0o000);
    await apiCall(server.url, cookie, `/api/v1/libraries/${libraryId}/scan`, { method: 'POST' });
    await pollUntil('the third scan to end', async () => (await log()).includes('library folder may not be read'), { timeoutMs: 60_000 });
    await chmod(root, 0o755);
    expect((await apiCall<{ unavailable: boolean }>(server.url, cookie, `/api/v1/libraries/${libraryId}`)).unavailable).toBe(true);
    const after = await apiCall<Page<BookDto>>(server.url, cookie, `/api/v1/books?library_id=${libraryId}&unpaged=true`);
    expect(after.content.map((b) => [b.name, b.deleted]).sort()).toEqual([['Hidden 1', false], ['Open 1', false], ['Unlisted 1', false]]);
  });
});

import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { logFilePath } from '../../../server/logging.ts';
import { pollUntil } from '../../support/poll.ts';
import { startServer, type TestServer } from './helpers.ts';

let dir: string;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const sweepLine = async (dataDir: string) =>
  (await readFile(logFilePath(dataDir), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg?: string; removed?: number })
    .find((line) => line.msg?.startsWith('removed the partial files'));

describe('partial files a killed server left in the data directory', () => {
  it('are removed at start, in its own folders only, and counted in the log', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-partial-'));
    const dataDir = join(dir, 'data');
    const library = join(dir, 'library');
    // What a server killed mid-write leaves: a poster's and a drawn page's temporary files.
    const posters = join(dataDir, 'thumbnails', 'books');
    const drawn = join(dataDir, 'cache', 'rendered-pages', 'B1', 'v1');
    await mkdir(posters, { recursive: true });
    await mkdir(drawn, { recursive: true });
    await mkdir(library, { recursive: true });
    await writeFile(join(posters, 'B1.jpg'), 'a whole poster');
    await writeFile(join(posters, 'B1.jpg.4242.partial'), 'half a poster');
    await writeFile(join(drawn, '1.png.4242.7.partial'), 'half a page');
    // A library's own files are never Folio's to remove, even when a link leads there.
    await writeFile(join(library, 'comic.cbz.12.partial'), 'a user file');
    await symlink(library, join(dataDir, 'cache', 'linked-library'));

    server = await startServer({ dir, logLevel: 'info', logStdout: false });
    const line = await pollUntil('the sweep of partial files to be logged', () => sweepLine(dataDir), { timeoutMs: 20_000 });

    expect(line.removed).toBe(2);
    expect(await readdir(posters)).toEqual(['B1.jpg']);
    expect(await readdir(drawn)).toEqual([]);
    expect(await readdir(library)).toEqual(['comic.cbz.12.partial']);
  });
});

import { mkdir, mkdtemp, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.ts';

/*
 * The web client's index.html is served from memory on every client-route navigation, read again
 * only when the file on disk is another one (inode, size or modification time changed).
 */
const page = (marker: string) => `<!doctype html><html><head><script type="module" src="./assets/${marker}.js"></script></head><body></body></html>`;
/** A fixed modification time, so a rewrite can put the very same one back. */
const MTIME = 1_700_000_000;

for (const basePath of ['', '/folio']) {
  describe(`the client page ${basePath ? `under ${basePath}` : 'at the root'}`, () => {
    let server: TestServer;
    let index: string;
    beforeAll(async () => {
      const dir = await mkdtemp(join(tmpdir(), 'folio-client-index-'));
      const clientDir = join(dir, 'dist');
      await mkdir(clientDir);
      index = join(clientDir, 'index.html');
      server = await startServer({ dir, clientDir, basePath });
    });
    afterAll(async () => {
      await server.close();
      await rm(server.dir, { recursive: true, force: true });
    });

    const navigate = async (path: string) => {
      const response = await server.get(`${basePath}${path}`, {});
      return { status: response.statusCode, marker: /assets\/(\w+)\.js/.exec(response.body)?.[1] };
    };

    it('is not read again for each navigation while the file stays the same', async () => {
      await writeFile(index, page('one'));
      await utimes(index, MTIME, MTIME);
      expect(await navigate('/series/1')).toEqual({ status: 200, marker: 'one' });
      // Rewritten in place to the same size and given its old time back: still the same file to
      // the server, so what it serves shows whether it read the file again.
      await writeFile(index, page('two'));
      await utimes(index, MTIME, MTIME);
      expect(await navigate('/book/2/read')).toEqual({ status: 200, marker: 'one' });
      expect(await navigate('/')).toEqual({ status: 200, marker: 'one' });
    });

    it('is read again once the file changes: a new time, a new size, or another file moved in its place', async () => {
      await writeFile(index, page('aaa'));
      await utimes(index, MTIME + 10, MTIME + 10);
      expect(await navigate('/series/1')).toEqual({ status: 200, marker: 'aaa' });
      await writeFile(index, page('longer'));
      await utimes(index, MTIME + 10, MTIME + 10);
      expect(await navigate('/series/1')).toEqual({ status: 200, marker: 'longer' });
      const next = `${index}.next`;
      await writeFile(next, page('bbbbbb'));
      await utimes(next, MTIME + 10, MTIME + 10);
      await rename(next, index);
      expect(await navigate('/series/1')).toEqual({ status: 200, marker: 'bbbbbb' });
      await rm(index);
      expect((await navigate('/series/1')).status).toBe(503);
      await writeFile(index, page('back'));
      expect(await navigate('/series/1')).toEqual({ status: 200, marker: 'back' });
    });
  });
}

import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.ts';

/**
 * Library roots (issue 10, item 10): /etc, /proc/self and Folio's own data directory were accepted,
 * so their files became books anyone with a download right could fetch.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const create = (root: string, name = 'L') =>
  server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name, root } });

describe('a library root', () => {
  it('may not be the file system root, a pseudo-filesystem or a system folder', async () => {
    for (const root of ['/', '/etc', '/proc/self', '/proc', '/sys/kernel', '/dev', '/usr/lib', '/var/lib']) {
      const response = await create(root);
      expect(response.statusCode, root).toBe(400);
      expect(response.json().message, root).toMatch(/cannot/);
    }
  });

  it("may not be Folio's data directory, inside it or holding it", async () => {
    const inside = join(server.dataDir, 'thumbnails-look-alike');
    await mkdir(inside, { recursive: true });
    for (const root of [server.dataDir, inside, dirname(server.dataDir)]) {
      const response = await create(root);
      expect(response.statusCode, root).toBe(400);
      expect(response.json().message, root).toMatch(/data directory/);
    }
  });

  it('is refused on update as well, and an ordinary folder is fine', async () => {
    const folder = join(server.dir, 'comics');
    await mkdir(folder, { recursive: true });
    const created = await create(folder, 'Comics');
    expect(created.statusCode).toBe(200);
    const patch = await server.app.inject({ method: 'PATCH', url: `/api/v1/libraries/${created.json().id}`, headers: server.admin, payload: { root: '/etc' } });
    expect(patch.statusCode).toBe(400);
  });
});

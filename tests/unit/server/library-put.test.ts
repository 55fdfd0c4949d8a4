import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LibraryDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let library: LibraryDto;
beforeEach(async () => {
  server = await startServer();
  library = await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
});
afterEach(async () => {
  await server.close();
});

describe('PUT /api/v1/libraries/{id} (deprecated alias of PATCH)', () => {
  it('updates with null-means-keep and is for admins only', async () => {
    const put = (payload: object, headers = server.admin) =>
      server.app.inject({ method: 'PUT', url: `/api/v1/libraries/${library.id}`, headers, payload });
    expect((await put({ name: 'Put name', hashPages: null, emptyTrashAfterScan: true })).statusCode).toBe(204);
    expect(await server.json(`/api/v1/libraries/${library.id}`)).toMatchObject({
      name: 'Put name',
      hashPages: false,
      emptyTrashAfterScan: true,
      root: library.root,
    });
    expect((await put({ seriesCover: 'SOMETIMES' })).statusCode).toBe(400);
    await insertUser(server, 'user@example.org', 'pw', []);
    expect((await put({ name: 'No' }, { authorization: basic('user@example.org', 'pw') })).statusCode).toBe(403);
    expect((await server.app.inject({ method: 'PUT', url: '/api/v1/libraries/NOPE', headers: server.admin, payload: {} })).statusCode).toBe(404);
  });

  it('a blank oneshotsDirectory is none (null), on creation and update, as in Komga', async () => {
    const patch = (payload: object) => server.app.inject({ method: 'PATCH', url: `/api/v1/libraries/${library.id}`, headers: server.admin, payload });
    const folder = async () => (await server.json<LibraryDto>(`/api/v1/libraries/${library.id}`)).oneshotsDirectory;
    expect((await patch({ oneshotsDirectory: '_oneshots' })).statusCode).toBe(204);
    expect(await folder()).toBe('_oneshots');
    expect((await patch({ oneshotsDirectory: '' })).statusCode).toBe(204);
    expect(await folder()).toBeNull();
    expect((await patch({ oneshotsDirectory: '_oneshots' })).statusCode).toBe(204);
    expect((await patch({ oneshotsDirectory: '   ' })).statusCode).toBe(204);
    expect(await folder()).toBeNull();
    const other = await createSampleLibrary(join(server.dir, 'other'));
    const created = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Other', root: other.root, oneshotsDirectory: '' } });
    expect(created.statusCode, created.body).toBe(200);
    expect((created.json() as LibraryDto).oneshotsDirectory).toBeNull();
  });

  it('copies only the options themselves, not names every object inherits (toString, constructor)', async () => {
    const update = vi.spyOn(server.app.folio.repos.libraries, 'update');
    const response = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/libraries/${library.id}`,
      headers: server.admin,
      payload: { name: 'Renamed', toString: 'hostile', constructor: 'hostile', hasOwnProperty: 'hostile' },
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(update).toHaveBeenCalledTimes(1);
    const [stored] = update.mock.lastCall ?? [];
    if (!stored) throw new Error('the library was not updated');
    expect(stored.name).toBe('Renamed');
    for (const key of ['toString', 'constructor', 'hasOwnProperty']) expect(Object.hasOwn(stored, key), key).toBe(false);
    expect(await server.json(`/api/v1/libraries/${library.id}`)).toMatchObject({ name: 'Renamed', root: library.root });
  });
});

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

const create = (payload: object) =>
  server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload });

describe('libraries', () => {
  it('creates a library from name + root with Komga defaults', async () => {
    const root = join(server.dir, 'comics');
    await mkdir(root);
    const response = await create({ name: 'Comics', root });
    expect(response.statusCode).toBe(200);
    const library = response.json();
    expect(library).toMatchObject({
      name: 'Comics',
      root,
      importComicInfoBook: true,
      importComicInfoSeries: true,
      importComicInfoCollection: true,
      importComicInfoReadList: true,
      importComicInfoSeriesAppendVolume: true,
      importEpubBook: true,
      importEpubSeries: true,
      importMylarSeries: true,
      importLocalArtwork: true,
      importBarcodeIsbn: true,
      scanForceModifiedTime: false,
      scanInterval: 'EVERY_6H',
      scanOnStartup: false,
      scanCbx: true,
      scanPdf: true,
      scanEpub: true,
      scanDirectoryExclusions: [],
      repairExtensions: false,
      convertToCbz: false,
      emptyTrashAfterScan: false,
      seriesCover: 'FIRST',
      hashFiles: true,
      hashPages: false,
      hashKoreader: false,
      analyzeDimensions: true,
      oneshotsDirectory: null,
      unavailable: false,
    });
    expect(typeof library.id).toBe('string');
    expect(await server.json(`/api/v1/libraries/${library.id}`)).toEqual(library);
    expect(await server.json('/api/v1/libraries')).toEqual([library]);
  });

  it('keeps explicit options', async () => {
    const root = join(server.dir, 'manga');
    await mkdir(root);
    const response = await create({ name: 'Manga', root, scanInterval: 'daily', hashFiles: false, seriesCover: 'Last' });
    expect(response.json()).toMatchObject({ scanInterval: 'DAILY', hashFiles: false, seriesCover: 'LAST' });
  });

  it('rejects a missing root or a file root with ERR_1016', async () => {
    const file = join(server.dir, 'file.txt');
    await writeFile(file, 'x');
    for (const root of [join(server.dir, 'missing'), file, 'relative/path']) {
      const response = await create({ name: 'X', root });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('ERR_1016');
    }
    expect(await server.json('/api/v1/libraries')).toEqual([]);
  });

  it('rejects a root inside or around another library with ERR_1017', async () => {
    const root = join(server.dir, 'comics');
    await mkdir(join(root, 'inner'), { recursive: true });
    expect((await create({ name: 'A', root })).statusCode).toBe(200);
    for (const other of [join(root, 'inner'), server.dir, root]) {
      const response = await create({ name: 'B', root: other });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('ERR_1017');
    }
  });

  it('refuses a second library of the same name, on creation and on a rename, as Komga does', async () => {
    const [first, second, third] = ['a', 'b', 'c'].map((n) => join(server.dir, n));
    for (const folder of [first!, second!, third!]) await mkdir(folder);
    expect((await create({ name: 'Manga', root: first })).statusCode).toBe(200);
    const other = (await create({ name: 'Comics', root: second })).json() as { id: string };
    for (const name of ['Manga', ' Manga ']) {
      const response = await create({ name, root: third });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Library name already exists');
    }
    const rename = (name: string) =>
      server.app.inject({ method: 'PATCH', url: `/api/v1/libraries/${other.id}`, headers: server.admin, payload: { name } });
    expect((await rename('Manga')).statusCode).toBe(400);
    // Its own name again, or another case (Komga compares names exactly), is no clash.
    expect((await rename('Comics')).statusCode).toBe(204);
    expect((await rename('manga')).statusCode).toBe(204);
    const names = (await server.app.inject({ method: 'GET', url: '/api/v1/libraries', headers: server.admin })).json() as { name: string }[];
    expect(names.map((l) => l.name).sort()).toEqual(['Manga', 'manga']);
  });

  it('validates the body: name required, bad enum rejected', async () => {
    const root = join(server.dir, 'c');
    await mkdir(root);
    for (const payload of [{ root }, { name: '', root }, { name: 'x', root, scanInterval: 'SOMETIMES' }]) {
      const response = await create(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 400, error: 'Bad Request' });
      expect(response.json().message).toBeTruthy();
    }
  });

  it('answers 404 for unknown libraries and scans, 202 for a scan', async () => {
    expect((await server.get('/api/v1/libraries/nope')).statusCode).toBe(404);
    const unknownScan = await server.app.inject({ method: 'POST', url: '/api/v1/libraries/nope/scan', headers: server.admin });
    expect(unknownScan.statusCode).toBe(404);
    const root = join(server.dir, 'c');
    await mkdir(root);
    const library = (await create({ name: 'C', root })).json();
    const scan = await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/scan`, headers: server.admin });
    expect(scan.statusCode).toBe(202);
  });
});

describe('libraries, remembered between tasks', () => {
  it('sees a change made through the API on the very next read, and lists libraries by name', async () => {
    const repos = server.app.folio.repos;
    for (const name of ['b', 'A']) {
      const root = join(server.dir, name);
      await mkdir(root);
      expect((await create({ name, root })).statusCode).toBe(200);
    }
    expect(repos.libraries.findAll().map((l) => l.name)).toEqual(['A', 'b']);
    const a = repos.libraries.findAll()[0]!;
    const patch = await server.app.inject({ method: 'PATCH', url: `/api/v1/libraries/${a.id}`, headers: server.admin, payload: { importBarcodeIsbn: false, name: 'c' } });
    expect(patch.statusCode).toBe(204);
    expect(repos.libraries.findById(a.id)).toMatchObject({ importBarcodeIsbn: false, name: 'c' });
    expect(repos.libraries.findAll().map((l) => l.name)).toEqual(['b', 'c']);
    expect((await server.app.inject({ method: 'DELETE', url: `/api/v1/libraries/${a.id}`, headers: server.admin })).statusCode).toBe(204);
    expect(repos.libraries.findById(a.id)).toBeUndefined();
    expect(repos.libraries.findAll().map((l) => l.name)).toEqual(['b']);
  });

  it('hands out copies: changing a returned library changes nothing remembered', async () => {
    const root = join(server.dir, 'comics');
    await mkdir(root);
    const id = (await create({ name: 'Comics', root })).json().id as string;
    const libraries = server.app.folio.repos.libraries;
    const found = libraries.findById(id)!;
    found.scanDirectoryExclusions.push('#mine');
    found.hashFiles = false;
    libraries.findAll()[0]!.scanDirectoryExclusions.length = 0;
    expect(libraries.findById(id)).toMatchObject({ hashFiles: true, scanDirectoryExclusions: [] });
  });

  it('remembers nothing read inside a transaction that is rolled back', async () => {
    const root = join(server.dir, 'comics');
    await mkdir(root);
    const id = (await create({ name: 'Comics', root })).json().id as string;
    const { db, repos } = server.app.folio;
    const rolledBack = db.transaction(() => {
      repos.libraries.update({ ...repos.libraries.findById(id)!, hashFiles: false });
      expect(repos.libraries.findById(id)!.hashFiles).toBe(false);
      throw new Error('roll back');
    });
    expect(rolledBack).toThrow('roll back');
    expect(repos.libraries.findById(id)!.hashFiles).toBe(true);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { attachmentDisposition, parseRange } from '../../../server/http/file-download.ts';
import { createCbz, createSampleLibrary, RED, type SampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let sample: SampleLibrary;
let library: LibraryDto;
beforeEach(async () => {
  server = await startServer();
  sample = await createSampleLibrary(join(server.dir, 'library'));
  library = await addLibrary(server, sample.root);
});
afterEach(async () => {
  await server.close();
});

const bookNamed = async (name: string) =>
  (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.find((b) => b.name === name)!;
const seriesNamed = async (name: string) =>
  (await server.json<Page<SeriesDto>>('/api/v1/series?unpaged=true')).content.find((s) => s.name === name)!;

/** Entry names and bytes of a zip held in memory. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, async (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('Range parsing', () => {
  it('reads single ranges, suffixes and open ends; ignores what it cannot use', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(parseRange('items=0-1', 100)).toBeUndefined();
    expect(parseRange('bytes=9-3', 100)).toBeUndefined();
    expect(parseRange(undefined, 100)).toBeUndefined();
  });
});

describe('book file download', () => {
  it('serves byte ranges with 206, and 416 outside the file', async () => {
    const book = await bookNamed('Alpha 01');
    const bytes = await readFile(sample.series[0]!.books[0]!.path);
    const full = await server.get(`/api/v1/books/${book.id}/file`);
    expect(full.statusCode).toBe(200);
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.rawPayload.equals(bytes)).toBe(true);

    const part = await server.get(`/api/v1/books/${book.id}/file`, { ...server.admin, range: 'bytes=10-109' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-109/${bytes.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload.equals(bytes.subarray(10, 110))).toBe(true);
    expect(part.headers['content-disposition']).toContain('attachment; filename="Alpha 01.cbz"');

    const tail = await server.get(`/api/v1/books/${book.id}/file`, { ...server.admin, range: 'bytes=-22' });
    expect(tail.statusCode).toBe(206);
    // The zip end-of-central-directory record sits in the last 22 bytes.
    expect(tail.rawPayload.readUInt32LE(0)).toBe(0x06054b50);

    const outside = await server.get(`/api/v1/books/${book.id}/file`, { ...server.admin, range: `bytes=${bytes.length}-` });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(outside.json()).toMatchObject({ status: 416, error: 'Range Not Satisfiable' });

    // A partial copy older than the file must not be resumed: whole file instead.
    const stale = await server.get(`/api/v1/books/${book.id}/file`, {
      ...server.admin,
      range: 'bytes=0-9',
      'if-range': new Date(0).toUTCString(),
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(bytes.length);
    const fresh = await server.get(`/api/v1/books/${book.id}/file`, {
      ...server.admin,
      range: 'bytes=0-9',
      'if-range': full.headers['last-modified'] as string,
    });
    expect(fresh.statusCode).toBe(206);
  });

  it('answers /file/<name> like /file, content guard included', async () => {
    const book = await bookNamed('Alpha 01');
    const bytes = await readFile(sample.series[0]!.books[0]!.path);
    const response = await server.get(`/api/v1/books/${book.id}/file/Alpha%2001.cbz`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(bytes)).toBe(true);
    const ranged = await server.get(`/api/v1/books/${book.id}/file/x.cbz`, { ...server.admin, range: 'bytes=0-3' });
    expect([ranged.statusCode, ranged.rawPayload.readUInt32LE(0)]).toEqual([206, 0x04034b50]);
    const id = await insertUser(server, 'dl@example.org', 'pw', ['FILE_DOWNLOAD']);
    server.app.folio.repos.users.update({ ...server.app.folio.repos.users.findById(id)!, ageRestriction: 12, ageRestrictionType: 'ALLOW_ONLY' });
    // Unrated series are hidden from an ALLOW_ONLY user.
    expect((await server.get(`/api/v1/books/${book.id}/file/a.cbz`, { authorization: basic('dl@example.org', 'pw') })).statusCode).toBe(404);
  });

  it('keeps non-ASCII names exact in filename*', async () => {
    await createCbz(join(sample.root, 'Gamma', 'Ça « va » 1.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/scan`, headers: server.admin });
    await server.app.folio.tasks.idle();
    const book = await bookNamed('Ça « va » 1');
    const response = await server.get(`/api/v1/books/${book.id}/file`);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="_a _ va _ 1.cbz"; filename*=UTF-8''${encodeURIComponent('Ça « va » 1.cbz')}`,
    );
  });
});

describe('series and read list downloads', () => {
  it('zips the live books of a series, byte for byte, with an exact length', async () => {
    const alpha = await seriesNamed('Alpha');
    const response = await server.get(`/api/v1/series/${alpha.id}/file`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain('filename="Alpha.zip"');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.headers.etag).toBeUndefined();
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()].sort()).toEqual(['Alpha 01.cbz', 'Alpha 02.cbz']);
    for (const book of sample.series[0]!.books) {
      expect(entries.get(`${book.name}.cbz`)!.equals(await readFile(book.path))).toBe(true);
    }
  });

  it('needs FILE_DOWNLOAD and respects the caller’s shared libraries', async () => {
    const alpha = await seriesNamed('Alpha');
    await insertUser(server, 'reader@example.org', 'pw', ['PAGE_STREAMING']);
    const reader = { authorization: basic('reader@example.org', 'pw') };
    expect((await server.get(`/api/v1/series/${alpha.id}/file`, reader)).statusCode).toBe(403);

    const id = await insertUser(server, 'dl@example.org', 'pw', ['FILE_DOWNLOAD']);
    const user = server.app.folio.repos.users.findById(id)!;
    server.app.folio.repos.users.update({ ...user, sharedAllLibraries: false, sharedLibraryIds: [] });
    const dl = { authorization: basic('dl@example.org', 'pw') };
    expect((await server.get(`/api/v1/series/${alpha.id}/file`, dl)).statusCode).toBe(404);
    const book = await bookNamed('Alpha 01');
    expect((await server.get(`/api/v1/books/${book.id}/file`, dl)).statusCode).toBe(404);
  });

  it('zips a read list in reading order with only the books the caller may see', async () => {
    const a1 = await bookNamed('Alpha 01');
    const b1 = await bookNamed('Beta 01');
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/readlists',
      headers: server.admin,
      payload: { name: 'Mixed', bookIds: [b1.id, a1.id] },
    });
    expect(created.statusCode).toBe(200);
    const listId = (created.json() as { id: string }).id;
    const response = await server.get(`/api/v1/readlists/${listId}/file`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('filename="Mixed.zip"');
    expect([...(await unzip(response.rawPayload)).keys()]).toEqual(['1 - Beta 01.cbz', '2 - Alpha 01.cbz']);

    // Label exclusion hides Beta from this user: the zip holds Alpha only.
    const beta = await seriesNamed('Beta');
    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/series/${beta.id}/metadata`,
      headers: server.admin,
      payload: { sharingLabels: ['private'] },
    });
    expect(patched.statusCode).toBe(204);
    const id = await insertUser(server, 'dl@example.org', 'pw', ['FILE_DOWNLOAD']);
    server.app.folio.repos.users.update({ ...server.app.folio.repos.users.findById(id)!, labelsExclude: ['private'] });
    const dl = { authorization: basic('dl@example.org', 'pw') };
    const restricted = await server.get(`/api/v1/readlists/${listId}/file`, dl);
    expect(restricted.statusCode).toBe(200);
    expect([...(await unzip(restricted.rawPayload)).keys()]).toEqual(['1 - Alpha 01.cbz']);
    expect((await server.get(`/api/v1/series/${beta.id}/file`, dl)).statusCode).toBe(404);
  });

  it('names every entry by one safe path segment, whatever the file names on disk hold', async () => {
    // Legal names on Linux: a Windows unzipper reads the backslashes as folders (and .. as their parents).
    const folder = join(sample.root, 'Hostile');
    const names = ['x\\..\\..\\..\\Startup\\evil.cbz', 'line\nbreak.cbz', 'fine.cbz'];
    for (const name of names) await createCbz(join(folder, name), [{ width: 20, height: 30, color: RED, format: 'png' }]);
    await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/scan`, headers: server.admin });
    await server.app.folio.tasks.idle();
    const hostile = await seriesNamed('Hostile');
    const response = await server.get(`/api/v1/series/${hostile.id}/file`);
    // Before: yazl refused the name ("invalid relative path") and the whole download failed with 500.
    expect(response.statusCode).toBe(200);
    const entries = [...(await unzip(response.rawPayload)).keys()].sort();
    expect(entries).toEqual(['fine.cbz', 'line_break.cbz', 'x_.._.._.._Startup_evil.cbz']);
  });
});

describe('attachmentDisposition', () => {
  it('writes a name holding a lone UTF-16 surrogate with U+FFFD instead of throwing', () => {
    // Before: encodeURIComponent threw URIError, and the download answered 500.
    expect(attachmentDisposition('Broken \ud800 list.zip')).toBe(`attachment; filename="Broken _ list.zip"; filename*=UTF-8''Broken%20%EF%BF%BD%20list.zip`);
    expect(attachmentDisposition('Smile \ud83d\ude00.zip')).toBe(`attachment; filename="Smile __.zip"; filename*=UTF-8''Smile%20%F0%9F%98%80.zip`);
  });
});

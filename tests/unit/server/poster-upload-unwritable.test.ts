import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { serverMessage } from '../../../src/ui/serverMessages.ts';
import { loggedLines, type TestServer, multipartFile } from './helpers.ts';
import { startPosterUploadServer } from './support/poster-upload-server.ts';

/*
 * An uploaded poster (POST /api/v1/{books,series,collections,readlists}/{id}/thumbnails) that the
 * server cannot keep: the thumbnails folder cannot be written (a full disk, a read-only mount; here,
 * deterministically, a file stands where the folder should be, as in poster-unwritable-folder), or
 * the database does not take its row (another process's lock). It was a 500, and a file written
 * before the row failed stayed for ever, referred to by nothing. Now: 503 with Retry-After saying
 * why, no row, no file, no leftover.
 */

let server: TestServer;
let bookId: string;
let seriesId: string;
let upload: Buffer;

beforeAll(async () => {
  ({ server, bookId, seriesId, upload } = await startPosterUploadServer({ logLevel: 'warn', logStdout: false }));
}, 60_000);
afterAll(async () => {
  await server.close();
});

function post(kind: string, id: string) {
  const body = multipartFile(upload);
  return server.app.inject({ method: 'POST', url: `/api/v1/${kind}/${id}/thumbnails`, payload: body.payload, headers: { ...server.admin, ...body.headers } });
}

/** Every file under the data folder's thumbnails (leftover `.partial` files included). */
async function thumbnailFiles(): Promise<string[]> {
  const entries = await readdir(join(server.dataDir, 'thumbnails'), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
}

describe('an uploaded poster the server cannot keep', () => {
  it('is a 503 saying the data folder cannot be written, with nothing kept, when its folder cannot be written', async () => {
    const folder = join(server.dataDir, 'thumbnails', 'series');
    await rm(folder, { recursive: true, force: true });
    await mkdir(join(server.dataDir, 'thumbnails'), { recursive: true });
    await writeFile(folder, 'in the way');
    const before = await thumbnailFiles();
    try {
      const response = await post('series', seriesId);
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('60');
      expect(response.json()).toMatchObject({ status: 503, message: 'Not saved: the server cannot write its data folder; try again later' });
      // The web client says it in the reader's language.
      const key = serverMessage(response.json().message)?.parts[0]?.key;
      expect(key).toBe('server_messages.not_saved_unwritable');
      expect((en as { server_messages: Record<string, unknown> }).server_messages.not_saved_unwritable).toBeTypeOf('string');
      expect(server.app.folio.repos.seriesThumbnails.list(seriesId).filter((t) => t.type === 'USER_UPLOADED')).toEqual([]);
      expect(await thumbnailFiles()).toEqual(before);
      expect((await loggedLines(server)).filter((l) => l.includes('request not saved: the data folder cannot be written') && /"level":50/.test(l) && /ENOTDIR|EEXIST/.test(l))).toHaveLength(1);
    } finally {
      await rm(folder);
    }
    // Room again: the same upload is kept.
    expect((await post('series', seriesId)).statusCode).toBe(200);
  });

  it('leaves no file behind when the database does not take its row (another process holds the lock)', async () => {
    const before = await thumbnailFiles();
    const other = new Database(join(server.dataDir, 'folio.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    other.prepare("UPDATE server_setting SET value = value WHERE key = 'nothing'").run();
    try {
      const response = await post('books', bookId);
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBeDefined();
      expect(response.json()).toMatchObject({ message: 'Not saved: the database is busy; try again later' });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(server.app.folio.repos.thumbnails.list(bookId).filter((t) => t.type === 'USER_UPLOADED')).toEqual([]);
    expect(await thumbnailFiles()).toEqual(before);
  });
});

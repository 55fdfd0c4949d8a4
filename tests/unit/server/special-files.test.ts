import { closeSync, constants, openSync, renameSync, writeFileSync } from 'node:fs';
import { rm, symlink } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { startServer, type TestServer } from './helpers.ts';

/*
 * A named pipe (or a device) in a library, reached through a symlink that stays inside the root:
 * opening it for reading waits until something writes to it, which may be never. The scan must not
 * read it, or the scan task (and a thread of the pool every file operation shares) waits for ever.
 */

let server: TestServer;
let pipe: string;

beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  // Whatever waits on the pipe gets its end of file, and later reads find an ordinary file there,
  // so the server can close (a writer opened read-write never waits).
  const writer = openSync(pipe, constants.O_RDWR);
  writeFileSync(`${pipe}.plain`, '');
  renameSync(`${pipe}.plain`, pipe);
  closeSync(writer);
  await server.close();
});

describe('special files in a library', () => {
  it('local artwork linked to a named pipe is not read: the scan finishes and the book is analysed', async () => {
    const root = join(server.dir, 'library');
    await createCbz(join(root, 'Piped', 'Piped.cbz'), [{ width: 10, height: 20, color: RED, format: 'png' }]);
    pipe = join(root, 'Piped', 'pipe');
    execFileSync('mkfifo', [pipe]);
    await symlink('pipe', join(root, 'Piped', 'cover.jpg'));
    await symlink('pipe', join(root, 'Piped', 'Piped.jpg'));
    const created = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Pipes', root } });
    expect(created.statusCode).toBe(200);
    const book = await pollUntil(
      'the book to be scanned and analysed',
      async () => (await server.json<Page<BookDto>>('/api/v1/books')).content.find((b) => b.media.status === 'READY'),
      { timeoutMs: 10_000 },
    );
    expect(book.name).toBe('Piped');
    await server.app.folio.tasks.idle();
    // The pipe is no artwork: no sidecar poster for the series or the book.
    const sidecars = [`/api/v1/series/${book.seriesId}/thumbnails`, `/api/v1/books/${book.id}/thumbnails`].map(async (url) =>
      ((await server.json<{ type: string }[]>(url)) ?? []).filter((t) => t.type === 'SIDECAR'),
    );
    expect(await Promise.all(sidecars)).toEqual([[], []]);
  });

  it('a book replaced by a named pipe after its scan is recorded unreadable (ERR_1000) instead of waiting on it', async () => {
    const root = join(server.dir, 'library');
    const { path } = await createCbz(join(root, 'Swapped', 'Swapped.cbz'), [{ width: 10, height: 20, color: RED, format: 'png' }]);
    const created = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Swaps', root } });
    expect(created.statusCode).toBe(200);
    await server.app.folio.tasks.idle();
    const [book] = (await server.json<Page<BookDto>>('/api/v1/books')).content;
    expect(book!.media.status).toBe('READY');
    pipe = path;
    await rm(path);
    execFileSync('mkfifo', [pipe]);
    const analysed = await server.app.inject({ method: 'POST', url: `/api/v1/books/${book!.id}/analyze`, headers: server.admin });
    expect(analysed.statusCode).toBe(202);
    const media = await pollUntil(
      'the analysis of the swapped book to finish',
      async () => {
        const current = (await server.json<BookDto>(`/api/v1/books/${book!.id}`)).media;
        return current.status !== 'READY' && current;
      },
      { timeoutMs: 10_000 },
    );
    expect(media).toMatchObject({ status: 'ERROR', comment: 'ERR_1000' });
  });
});

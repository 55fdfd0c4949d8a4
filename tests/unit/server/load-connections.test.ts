import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionBudget } from '../../../server/media/descriptor-budget.ts';
import { renderPage, writeStoredCbz } from '../../fixtures/index.ts';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from './support/spawned-server.ts';

/*
 * A crowd opening connections all at once, under the common service limit of 1,024 descriptors:
 * every connection costs the server one descriptor (its socket), the files requests read (book
 * downloads, here) and archives come from budgets of their own and wait when those are spent.
 * So 600 clients at once are all answered, none reset, and the process stays under its limit.
 */

const BOOKS = 12;
const CLIENTS = 600;

let dir: string;
let server: SpawnedServer;
let cookie: string;
let books: { id: string }[];
let bookBytes: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-connections-'));
  // Pages of 128 KiB: a download (about 512 KiB) is still being sent while others start.
  const page = Buffer.concat([await renderPage({ width: 40, height: 60, color: [30, 30, 200], format: 'jpeg' }), randomBytes(128 * 1024)]);
  const folder = join(dir, 'library', 'Series');
  await mkdir(folder, { recursive: true });
  for (let b = 0; b < BOOKS; b++) await writeStoredCbz(join(folder, `Book ${b}.cbz`), [page, page, page, page]);
  server = await spawnServer(join(dir, 'data'), { nofile: 1024 });
  cookie = await claimSession(server.url);
  await addLibraryAndWait(server.url, cookie, join(dir, 'library'), BOOKS, 90_000);
  books = (await apiCall<{ content: { id: string; size: string; sizeBytes: number }[] }>(server.url, cookie, `/api/v1/books?size=${BOOKS}`)).content;
  bookBytes = (books[0] as unknown as { sizeBytes: number }).sizeBytes;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** One GET on a connection of its own: its status and body length, or the error that ended it. */
function fetchAlone(url: string): Promise<{ status: number; bytes: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent: false, headers: { cookie } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.once('error', (error) => resolve({ error: String(error) }));
    });
    req.once('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? String(error) }));
    req.end();
  });
}

describe('connections under a 1,024 descriptor limit', () => {
  it('the connection cap leaves room for a crowd: each connection is budgeted its socket only', () => {
    expect(connectionBudget(1024)).toBeGreaterThanOrEqual(CLIENTS);
  });

  it('600 clients opening connections at once are all answered, and descriptors stay under the limit', async () => {
    let peakDescriptors = 0;
    const sampler = setInterval(() => {
      server.openDescriptors().then(
        (n) => (peakDescriptors = Math.max(peakDescriptors, n)),
        () => undefined, // the process is gone: the assertion on exited() reports it
      );
    }, 20);
    const results = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) => {
        const book = books[i % books.length]!;
        // Half download whole books (a file each), half read pages (archives).
        const path = i % 2 === 0 ? `/api/v1/books/${book.id}/file` : `/api/v1/books/${book.id}/pages/${(i % 4) + 1}`;
        return fetchAlone(`${server.url}${path}`);
      }),
    );
    clearInterval(sampler);
    const failures = results.flatMap((r, i) => ('error' in r ? [`${i}: ${r.error}`] : r.status !== 200 ? [`${i}: ${r.status}`] : []));
    expect(failures.slice(0, 5)).toEqual([]);
    const downloads = results.filter((_, i) => i % 2 === 0) as { bytes: number }[];
    expect(downloads.every((d) => d.bytes === bookBytes)).toBe(true);
    expect(server.exited()).toBeNull();
    expect(server.stderr()).not.toMatch(/EMFILE/);
    expect(peakDescriptors).toBeLessThan(1024);
  }, 120_000);
});

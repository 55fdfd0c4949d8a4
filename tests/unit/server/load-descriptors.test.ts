import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage, writeStoredCbz } from '../../fixtures/index.ts';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from './support/spawned-server.ts';

/*
 * Many readers over many books, with the server under the common service limit of 1,024
 * descriptors: every page that exists is served (no 404 for lack of a descriptor), clients that
 * cut off downloads mid-page never kill the process, and the open descriptors stay bounded.
 */

const BOOKS = 240;
const PAGES = 4;
const CLIENTS = 96;
const REQUESTS = 1_200;

let dir: string;
let server: SpawnedServer;
let cookie: string;
let books: { id: string }[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-load-'));
  // A real JPEG followed by 192 KiB that decoders ignore: big enough that downloads are in flight
  // long enough to be cut off.
  const page = Buffer.concat([await renderPage({ width: 40, height: 60, color: [200, 30, 30], format: 'jpeg' }), randomBytes(192 * 1024)]);
  for (let s = 0; s < BOOKS / 8; s++) {
    const folder = join(dir, 'library', `Series ${s}`);
    await mkdir(folder, { recursive: true });
    for (let b = 0; b < 8; b++) await writeStoredCbz(join(folder, `Book ${b}.cbz`), Array.from({ length: PAGES }, () => page));
  }
  server = await spawnServer(join(dir, 'data'), { nofile: 1024 });
  cookie = await claimSession(server.url);
  await addLibraryAndWait(server.url, cookie, join(dir, 'library'), BOOKS, 90_000);
  books = (await apiCall<{ content: { id: string }[] }>(server.url, cookie, `/api/v1/books?size=${BOOKS}&media_status=READY`)).content;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('page serving under a 1,024 descriptor limit', () => {
  it('serves every page to many concurrent readers, survives aborted downloads, and bounds descriptors', async () => {
    expect(books.length).toBe(BOOKS);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let peakDescriptors = 0;
    let next = 0;
    const sampler = setInterval(() => {
      server.openDescriptors().then(
        (n) => (peakDescriptors = Math.max(peakDescriptors, n)),
        () => undefined, // the process is gone: the assertion on exited() reports it
      );
    }, 50);
    const client = async (index: number) => {
      while (next < REQUESTS && server.exited() === null) {
        const request = next++;
        const book = books[(request * 7 + index) % books.length]!;
        const page = (request % PAGES) + 1;
        const controller = new AbortController();
        try {
          const response = await fetch(`${server.url}/api/v1/books/${book.id}/pages/${page}`, { headers: { cookie }, signal: controller.signal });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status !== 200) {
            failures.push(`${response.status} ${await response.text()}`);
            continue;
          }
          // Every third reader walks away mid-page, as a client turning pages fast does.
          if (request % 3 === 0) {
            const reader = response.body!.getReader();
            await reader.read();
            controller.abort();
          } else {
            expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(192 * 1024);
          }
        } catch (error) {
          if (!controller.signal.aborted) failures.push(String(error));
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    clearInterval(sampler);
    expect(server.stderr()).not.toMatch(/TypeError|EMFILE/);
    expect(server.exited()).toBeNull();
    expect(failures.slice(0, 5)).toEqual([]);
    expect([...statuses.keys()]).toEqual([200]);
    expect(peakDescriptors).toBeLessThan(1024);
  }, 120_000);
});

import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../fixtures/index.ts';
import { connectionBudget } from '../../../server/media/descriptor-budget.ts';
import { pollUntil } from '../../support/poll.ts';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from './support/spawned-server.ts';

/*
 * Readers who start downloading a whole book and then stop reading (a phone that lost its network,
 * a client paused in the background) hold their connection and the book file the download streams
 * from. With every connection the server accepts taken by such a download, the process must still
 * have descriptors left to open archives for other readers: no EMFILE, no 503 for lack of a file.
 */

const LIMIT = 256;
const SMALL_BOOKS = 24;

let dir: string;
let server: SpawnedServer;
let cookie: string;
let big: { id: string };
let small: { id: string }[];
const sockets: Socket[] = [];

async function writeBook(file: string, pages: Buffer[]): Promise<void> {
  const zip = new yazl.ZipFile();
  pages.forEach((bytes, i) => zip.addBuffer(bytes, `${String(i + 1).padStart(3, '0')}.jpg`, { compress: false }));
  zip.end();
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file);
    out.on('close', () => resolve());
    out.on('error', reject);
    zip.outputStream.pipe(out);
  });
}

/** Starts a download and reads only its first bytes: the rest stays unread, stalling the response. */
function stalledDownload(path: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\n\r\n`);
    });
    sockets.push(socket);
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve(chunk.toString('latin1').split('\r\n')[0]!);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    socket.once('close', () => resolve('closed'));
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-stalled-'));
  const page = await renderPage({ width: 40, height: 60, color: [30, 30, 200], format: 'jpeg' });
  // Far more than the socket buffers of both ends hold, so an unread download stays in flight.
  await mkdir(join(dir, 'library', 'Big'), { recursive: true });
  await writeBook(join(dir, 'library', 'Big', 'Big.cbz'), [page, Buffer.concat([page, randomBytes(16 * 1024 * 1024)])]);
  await mkdir(join(dir, 'library', 'Small'), { recursive: true });
  for (let b = 0; b < SMALL_BOOKS; b++) await writeBook(join(dir, 'library', 'Small', `Book ${b}.cbz`), [page, page]);
  server = await spawnServer(join(dir, 'data'), { nofile: LIMIT });
  cookie = await claimSession(server.url);
  await addLibraryAndWait(server.url, cookie, join(dir, 'library'), SMALL_BOOKS + 1, 60_000);
  const books = (await apiCall<{ content: { id: string; name: string }[] }>(server.url, cookie, '/api/v1/books?size=100&media_status=READY')).content;
  big = books.find((b) => b.name === 'Big')!;
  small = books.filter((b) => b.name !== 'Big');
}, 90_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('downloads that stop being read', () => {
  it('filling every connection the server accepts leave descriptors for other readers', async () => {
    expect(small).toHaveLength(SMALL_BOOKS);
    // Every connection the budget allows but a few: this test's own keep-alive connections (setup
    // calls, the page reads below) count against it too.
    const stalled = connectionBudget(LIMIT) - 4;
    const statusLines = await Promise.all(Array.from({ length: stalled }, () => stalledDownload(`/api/v1/books/${big.id}/file`)));
    expect(new Set(statusLines)).toEqual(new Set(['HTTP/1.1 200 OK']));
    // Each page of a book not open yet needs a descriptor for its archive.
    const pageStatuses: number[] = [];
    for (const book of small) {
      const response = await fetch(`${server.url}/api/v1/books/${book.id}/pages/1`, { headers: { cookie } });
      await response.arrayBuffer();
      pageStatuses.push(response.status);
    }
    expect(new Set(pageStatuses)).toEqual(new Set([200]));
    expect(await server.openDescriptors()).toBeLessThan(LIMIT);
    const log = await readFile(join(dir, 'data', 'logs', 'folio.log'), 'utf8');
    expect(log).not.toMatch(/EMFILE/);
    // Once the readers are gone, so are their files.
    for (const socket of sockets.splice(0)) socket.destroy();
    await pollUntil('the stalled downloads to close their files', async () => (await server.openDescriptors()) < 100);
    expect(server.exited()).toBeNull();
  }, 60_000);
});

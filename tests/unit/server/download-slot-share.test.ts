import { mkdtemp, rm } from 'node:fs/promises';
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileReadBudget } from '../../../server/media/descriptor-budget.ts';
import { pollUntil } from '../../support/poll.ts';
import { writeStoredCbz, paddedPage } from '../../fixtures/index.ts';
import { type SpawnedServer, addLibraryAndWait, apiCall, claimSession, spawnServer } from './support/spawned-server.ts';

/*
 * Downloads are paced by their client: a book file or a zip read slowly keeps its file open for as
 * long as the client likes, and every file a request holds comes from one budget (file-slots.ts:
 * an eighth of the descriptor limit, 32 at 256). One account opening that many downloads and not
 * reading them held every slot: another user's download waited 15 s and got 503 (so did posters
 * read from disk and thumbnails). Each user's downloads now hold at most a quarter of the slots;
 * past that, that user's next download waits for one of its own to end.
 */
const NOFILE = 256;
let dir: string;
let server: SpawnedServer;
let bookId: string;
const basicOf = (email: string) => `Basic ${Buffer.from(`${email}:pw`).toString('base64')}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-download-share-'));
  server = await spawnServer(join(dir, 'data'), { nofile: NOFILE });
  const cookie = await claimSession(server.url);
  // Larger than what loopback socket buffers absorb, so a download nobody reads stays open.
  await writeStoredCbz(join(dir, 'lib', 'Big', 'Big 01.cbz'), [await paddedPage(48 * 1024 * 1024)]);
  await addLibraryAndWait(server.url, cookie, join(dir, 'lib'), 1);
  bookId = (await apiCall<{ content: { id: string }[] }>(server.url, cookie, '/api/v1/books')).content[0]!.id;
  for (const email of ['hog@x.org', 'other@x.org']) {
    await apiCall(server.url, cookie, '/api/v2/users', { method: 'POST', body: JSON.stringify({ email, password: 'pw', roles: ['FILE_DOWNLOAD'] }) });
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Starts a download and resolves with its response once the headers are in; the body is not read. */
function startDownload(email: string, opened: ClientRequest[]): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}/api/v1/books/${bookId}/file`, { agent: false, headers: { authorization: basicOf(email) } }, resolve);
    req.once('error', reject);
    req.end();
    opened.push(req);
  });
}

it("one user's stalled downloads leave file slots for everyone else, and its own next downloads wait their turn", async () => {
  const slots = fileReadBudget(NOFILE);
  const share = slots / 4;
  const opened: ClientRequest[] = [];
  const answered: IncomingMessage[] = [];
  // The waiting downloads still open at the end are destroyed there: their requests fail then.
  const endedUnanswered: unknown[] = [];
  try {
    for (let i = 0; i < slots; i++) {
      void startDownload('hog@x.org', opened).then(
        (r) => answered.push(r),
        (error: unknown) => endedUnanswered.push(error),
      );
    }
    await pollUntil(`the hog's first ${share} downloads to start`, () => answered.length >= share);
    // Another user's download starts at once (before: it waited 15 s for a slot, then 503).
    const started = Date.now();
    const other = await startDownload('other@x.org', opened);
    expect(other.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    other.destroy();
    // The hog holds its share; the rest of its downloads wait for its own to end (they were refused
    // at once before, which failed a burst of one account's downloads under load).
    expect(answered.map((r) => r.statusCode)).toEqual(Array.from({ length: share }, () => 200));
    answered[0]!.destroy();
    await pollUntil("one of the hog's waiting downloads to take the freed share", () => answered.length > share);
    expect(answered[share]!.statusCode).toBe(200);
    expect(endedUnanswered).toEqual([]);
  } finally {
    for (const req of opened) req.destroy();
  }
  expect(server.exited()).toBeNull();
}, 90_000);

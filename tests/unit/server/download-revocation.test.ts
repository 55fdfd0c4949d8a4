import { type IncomingMessage, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { paddedPage, writeStoredCbz } from '../../fixtures/index.ts';
import { addLibrary, basic, startServer, type TestServer } from './helpers.ts';
import { send } from './accounts-helpers.ts';

/*
 * A download in flight when its user loses access — deleted, FILE_DOWNLOAD taken away, restricted
 * away from the book, password reset by an admin — went on to its last byte: the access was checked
 * once, at the start, and a whole series or read list takes a slow client hours. Event streams
 * already end on such a change (sse-routes.ts); downloads now end too.
 */
let server: TestServer;
let base: string;
let bookId: string;
let seriesId: string;

beforeAll(async () => {
  // No heartbeat within a test's time: an event stream that ends did so on the change itself.
  server = await startServer({ sseHeartbeatMs: 600_000 });
  // Larger than what loopback socket buffers absorb, so an unread download stays in flight.
  await writeStoredCbz(join(server.dir, 'lib', 'Big', 'Big 01.cbz'), [await paddedPage(48 * 1024 * 1024)]);
  await addLibrary(server, join(server.dir, 'lib'));
  const book = (await server.json<{ content: { id: string; seriesId: string }[] }>('/api/v1/books')).content[0]!;
  bookId = book.id;
  seriesId = book.seriesId;
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await server.close();
});

/** Starts a download as `email` and resolves with the response once its first bytes came; then reads no more. */
function startDownload(path: string, email: string, headers: Record<string, string> = { authorization: basic(email, 'pw') }): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { agent: false, headers }, (res) => {
      res.once('data', () => {
        res.pause();
        resolve(res);
      });
    });
    req.once('error', reject);
    req.end();
  });
}

const cases: [string, (userId: string) => Promise<number>][] = [
  ['deleted', async (id) => (await send(server, 'DELETE', `/api/v2/users/${id}`, server.admin)).statusCode],
  ['FILE_DOWNLOAD taken away', async (id) => (await send(server, 'PATCH', `/api/v2/users/${id}`, server.admin, { roles: [] })).statusCode],
  ['restricted away from the book', async (id) => (await send(server, 'PATCH', `/api/v2/users/${id}`, server.admin, { labelsAllow: ['nothing'] })).statusCode],
  ['password reset by an admin', async (id) => (await send(server, 'PATCH', `/api/v2/users/${id}/password`, server.admin, { password: 'new' })).statusCode],
];

it.each(cases)('a book, series or read-list download ends when its user is %s', async (_, revoke) => {
  const email = `reader-${Math.random().toString(36).slice(2)}@x.org`;
  const created = await send(server, 'POST', '/api/v2/users', server.admin, { email, password: 'pw', roles: ['FILE_DOWNLOAD'] });
  expect(created.statusCode, created.body).toBe(201);
  const readList = await send(server, 'POST', '/api/v1/readlists', server.admin, { name: email, bookIds: [bookId] });
  const downloads = await Promise.all(
    [`/api/v1/books/${bookId}/file`, `/api/v1/series/${seriesId}/file`, `/api/v1/readlists/${readList.json().id}/file`].map((path) => startDownload(path, email)),
  );
  try {
    expect(await revoke(created.json().id)).toBe(204);
    // Read what is left: a download cut off ends short; one left running arrives whole (48 MB).
    const outcomes = await Promise.all(
      downloads.map(
        (res) =>
          new Promise<boolean>((resolve) => {
            res.on('error', () => undefined);
            res.once('close', () => resolve(res.complete));
            res.resume();
          }),
      ),
    );
    expect(outcomes).toEqual([false, false, false]);
  } finally {
    for (const res of downloads) res.destroy();
  }
});

/** Resolves with whether each response arrived whole once read to its end. */
function readToEnd(responses: IncomingMessage[]): Promise<boolean[]> {
  return Promise.all(
    responses.map(
      (res) =>
        new Promise<boolean>((resolve) => {
          res.on('error', () => undefined);
          res.once('close', () => resolve(res.complete));
          res.resume();
        }),
    ),
  );
}

it("deleting an API key ends the downloads and event stream made with it, and not those of the user's other key", async () => {
  const email = `keyholder-${Math.random().toString(36).slice(2)}@x.org`;
  const created = await send(server, 'POST', '/api/v2/users', server.admin, { email, password: 'pw', roles: ['FILE_DOWNLOAD'] });
  expect(created.statusCode, created.body).toBe(201);
  const newKey = async (comment: string) => {
    const response = await send(server, 'POST', '/api/v2/users/me/api-keys', { authorization: basic(email, 'pw') }, { comment });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { id: string; key: string };
  };
  const [deleted, kept] = [await newKey('e-reader'), await newKey('tablet')];
  const readList = await send(server, 'POST', '/api/v1/readlists', server.admin, { name: email, bookIds: [bookId] });
  const paths = [`/api/v1/books/${bookId}/file`, `/api/v1/series/${seriesId}/file`, `/api/v1/readlists/${readList.json().id}/file`];
  const cut = await Promise.all(paths.map((path) => startDownload(path, email, { 'x-api-key': deleted.key })));
  const stream = await startDownload('/sse/v1/events', email, { 'x-api-key': deleted.key });
  // The other key's download is the witness that the deletion was acted on by then: it must run on.
  const other = await startDownload(paths[0]!, email, { 'x-api-key': kept.key });
  try {
    expect((await send(server, 'DELETE', `/api/v2/users/me/api-keys/${deleted.id}`, { authorization: basic(email, 'pw') })).statusCode).toBe(204);
    // Before: the three downloads arrived whole, and the stream stayed open until its next heartbeat
    // (none in this test's time). The stream ends cleanly; it only has to end.
    expect(await readToEnd(cut)).toEqual([false, false, false]);
    await readToEnd([stream]);
    expect(await readToEnd([other])).toEqual([true]);
  } finally {
    for (const res of [...cut, stream, other]) res.destroy();
  }
});

/*
 * The content's side of the same rule: a series rated or labelled out of a restricted reader's
 * reach mid-download. Their session is untouched (nothing about the user changed), so only the
 * change to the series can end the download; before, it ran to its last byte.
 */
const contentChanges: [string, object, object][] = [
  ['rated at or above their age limit', { ageRating: 18 }, { ageRating: null }],
  ['given a sharing label they exclude', { sharingLabels: ['Adult'] }, { sharingLabels: [] }],
];

it.each(contentChanges)("a restricted reader's book, series or read-list download ends when the series is %s", async (_, hide, restore) => {
  const email = `restricted-${Math.random().toString(36).slice(2)}@x.org`;
  const created = await send(server, 'POST', '/api/v2/users', server.admin, { email, password: 'pw', roles: ['FILE_DOWNLOAD'] });
  expect(created.statusCode, created.body).toBe(201);
  const restricted = await send(server, 'PATCH', `/api/v2/users/${created.json().id}`, server.admin, { ageRestriction: { age: 16, restriction: 'EXCLUDE' }, labelsExclude: ['adult'] });
  expect(restricted.statusCode, restricted.body).toBe(204);
  const witnessEmail = `witness-${Math.random().toString(36).slice(2)}@x.org`;
  expect((await send(server, 'POST', '/api/v2/users', server.admin, { email: witnessEmail, password: 'pw', roles: ['FILE_DOWNLOAD'] })).statusCode).toBe(201);
  const readList = await send(server, 'POST', '/api/v1/readlists', server.admin, { name: email, bookIds: [bookId] });
  const paths = [`/api/v1/books/${bookId}/file`, `/api/v1/series/${seriesId}/file`, `/api/v1/readlists/${readList.json().id}/file`];
  const cut = await Promise.all(paths.map((path) => startDownload(path, email)));
  // An unrestricted reader's download of the same series, started before the change, runs on.
  const witness = await startDownload(paths[1]!, witnessEmail);
  try {
    const changed = await send(server, 'PATCH', `/api/v1/series/${seriesId}/metadata`, server.admin, hide);
    expect(changed.statusCode, changed.body).toBe(204);
    expect(await readToEnd(cut)).toEqual([false, false, false]);
    expect(await readToEnd([witness])).toEqual([true]);
  } finally {
    for (const res of [...cut, witness]) res.destroy();
    expect((await send(server, 'PATCH', `/api/v1/series/${seriesId}/metadata`, server.admin, restore)).statusCode).toBe(204);
  }
});

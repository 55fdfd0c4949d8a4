import { type IncomingMessage, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { paddedPage, writeStoredCbz } from '../../fixtures/index.ts';
import { fileSlots } from '../../../server/media/file-slots.ts';
import { pollUntil } from '../../support/poll.ts';
import { send } from './accounts-helpers.ts';
import { addLibrary, basic, startServer, type TestServer } from './helpers.ts';

/*
 * A series or read-list zip holds the file of the book it is sending (file-slots.ts), counted
 * against its user's share. yazl pipes each book into the zip and did not end it when the zip's
 * stream was destroyed (the client left, or its access ended: download-revocation.ts), so the file
 * stayed open, its slot and its owner's share held until garbage collection closed it: a user who
 * abandoned a quarter of the slots' worth of series downloads could download nothing more.
 */
let server: TestServer;
let base: string;
let seriesId: string;
let bookId: string;

beforeAll(async () => {
  server = await startServer({ sseHeartbeatMs: 600_000 });
  // Larger than what loopback socket buffers absorb, so an unread download stays in flight.
  await writeStoredCbz(join(server.dir, 'lib', 'Big', 'Big 01.cbz'), [await paddedPage(48 * 1024 * 1024)]);
  await addLibrary(server, join(server.dir, 'lib'));
  const book = (await server.json<{ content: { id: string; seriesId: string }[] }>('/api/v1/books')).content[0]!;
  seriesId = book.seriesId;
  bookId = book.id;
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await server.close();
});

/** Starts a download and resolves with the response once its first bytes came; then reads no more. */
function startDownload(path: string, email: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { agent: false, headers: { authorization: basic(email, 'pw') } }, (res) => {
      res.once('data', () => {
        res.pause();
        resolve(res);
      });
    });
    req.once('error', reject);
    req.end();
  });
}

async function newReader(): Promise<{ email: string; id: string }> {
  const email = `reader-${Math.random().toString(36).slice(2)}@x.org`;
  const created = await send(server, 'POST', '/api/v2/users', server.admin, { email, password: 'pw', roles: ['FILE_DOWNLOAD'] });
  expect(created.statusCode, created.body).toBe(201);
  return { email, id: created.json().id };
}

it('a series or read-list zip the client leaves closes the file it was sending', async () => {
  const { email } = await newReader();
  const readList = await send(server, 'POST', '/api/v1/readlists', server.admin, { name: email, bookIds: [bookId] });
  for (const path of [`/api/v1/series/${seriesId}/file`, `/api/v1/readlists/${readList.json().id}/file`]) {
    const res = await startDownload(path, email);
    expect(fileSlots.inUse).toBe(1);
    res.destroy();
    // Before: still 1 after 10 s (the file was closed by garbage collection, if ever).
    await pollUntil(`the file of ${path} to be closed once its client left`, () => fileSlots.inUse === 0, { timeoutMs: 10_000 });
  }
});

it('a series zip ended by its user losing access closes the file it was sending', async () => {
  const { email, id } = await newReader();
  // Counted from what is held now, so that this test stands on its own.
  const held = fileSlots.inUse;
  const res = await startDownload(`/api/v1/series/${seriesId}/file`, email);
  try {
    expect(fileSlots.inUse).toBe(held + 1);
    expect((await send(server, 'DELETE', `/api/v2/users/${id}`, server.admin)).statusCode).toBe(204);
    await pollUntil('the file of the revoked download to be closed', () => fileSlots.inUse === held, { timeoutMs: 10_000 });
  } finally {
    res.destroy();
  }
});

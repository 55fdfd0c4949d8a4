import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { connect, createServer, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { requirePagesReady } from '../../../server/http/book-readiness.ts';
import { refuseConnection } from '../../../server/http/connection-refusal.ts';
import { handleError, HttpError } from '../../../server/http/errors.ts';
import { MediaError } from '../../../server/media/book-reader.ts';
import { OperationTimeout, RecentlyTimedOut, ServerBusy } from '../../../server/media/transient-errors.ts';
import { serverMessage } from '../../../src/ui/serverMessages.ts';

/**
 * The failures a reader can meet that a test cannot provoke on a real library at will (a time limit
 * running out, no archive handle free, a damaged entry, the server's own bug, every connection
 * taken, a book analysed long ago): the server's own error handler and checks write each message,
 * and the client's table (src/ui/serverMessages.ts) must read it into a locale key, or the reader
 * sees it in English whatever their language. server-messages-known.test.ts provokes the others.
 */
const db = new Database(':memory:');
afterAll(() => db.close());

function keyExists(key: string): boolean {
  let node: unknown = en;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string' || (typeof node === 'object' && node !== null && 'other' in node);
}

/** The message the server's error handler answers for an error thrown by a route. */
async function answeredFor(error: Error): Promise<string> {
  const app = Fastify({ logger: false });
  app.decorate('folio', { db } as never);
  app.setErrorHandler(handleError);
  app.get('/fail', async () => {
    throw error;
  });
  try {
    const response = await app.inject({ method: 'GET', url: '/fail' });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    return (response.json() as { message: string }).message;
  } finally {
    await app.close();
  }
}

/** The body of the 503 a connection gets when the server has no place for it. */
async function connectionRefusal(): Promise<string> {
  const server = createServer((socket) => refuseConnection(socket, { lingerMs: 0 }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const chunks: Buffer[] = [];
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise<void>((resolve, reject) => {
      client.on('close', () => resolve());
      client.on('error', reject);
    });
    const text = Buffer.concat(chunks).toString('utf8');
    return (JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { message: string }).message;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('failures of reading that the web client shows', () => {
  it('are each a message the client translates', async () => {
    const messages = [
      await answeredFor(new Error('a bug of the server')),
      await answeredFor(new ServerBusy()),
      await answeredFor(new OperationTimeout('decoding page 3', 30_000)),
      await answeredFor(new RecentlyTimedOut('decoding page 3', 30_000, 60)),
      await answeredFor(new MediaError('ERR_1007', 'entry 003.jpg: invalid stored block lengths')),
      await answeredFor(new MediaError('ERR_1000', 'ENOENT: /comics/gone.cbz')),
      await connectionRefusal(),
    ];
    for (const status of ['UNKNOWN', 'OUTDATED', 'ERROR', 'UNSUPPORTED'] as const) {
      try {
        requirePagesReady({ status });
        throw new Error(`${status} was served`);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        messages.push(error.message);
      }
    }
    // duplicate-routes.ts, for a book that is not a zip (the real flow needs a page-hash match).
    messages.push('Pages can only be removed from CBZ/ZIP books');
    expect(new Set(messages).size).toBe(messages.length);
    const unknown = messages.filter((message) => !serverMessage(message)?.parts.every((part) => keyExists(part.key)));
    expect(unknown).toEqual([]);
  });

  it("a damaged book's refusal passes on its error code, not the English detail after it", () => {
    const read = serverMessage('Book content cannot be read (ERR_1007): entry 003.jpg: invalid stored block lengths');
    expect(read?.parts).toEqual([{ key: 'server_messages.book_unreadable', params: { reason: 'ERR_1007' } }]);
  });
});

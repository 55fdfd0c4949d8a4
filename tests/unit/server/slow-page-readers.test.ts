import { mkdir, writeFile } from 'node:fs/promises';
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { paddedPage } from '../../fixtures/index.ts';
import { rawZip } from '../../fixtures/raw-zip.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A page streamed from its archive (larger than what is read whole, or past the budget of bytes
 * held) keeps the archive open until its response is done. A client that reads slowly enough (a
 * trickle of bytes, never idle long enough for the stalled-connection limit) kept it open for as
 * long as it liked, and once every archive the server may hold open was held that way, every other
 * reader waited and was told to try again. Now, while someone waits for an archive, a stream held
 * past the stream lease is cut (the slow client sees its response incomplete) and the archive goes
 * to the one waiting.
 */

let server: TestServer | undefined;
const open: ClientRequest[] = [];
afterEach(async () => {
  for (const request of open.splice(0)) request.destroy();
  await server?.close();
  server = undefined;
});

interface Slow {
  response: IncomingMessage;
  /** Resolves once the response has ended or was cut: whether it came complete. */
  finished: Promise<boolean>;
}

/** A GET whose response is left unread once its headers are in (the slowest of readers). */
function slowGet(port: number, path: string, headers: Record<string, string>): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ port, host: '127.0.0.1', path, headers }, (response) => {
      response.pause();
      const finished = new Promise<boolean>((done) => {
        response.once('close', () => done(response.complete));
        // A cut response reports an error too; `complete` says it.
        response.on('error', () => undefined);
      });
      resolve({ response, finished });
    });
    open.push(request);
    request.once('error', reject);
    request.end();
  });
}

describe('a page streamed to a client that reads slowly', () => {
  it('gives its archive up to a reader waiting for one once held past the stream lease', { timeout: 60_000 }, async () => {
    // One archive open at a time, every page streamed, a lease of 300 ms, waits of up to 10 s.
    server = await startServer({ logLevel: 'error', logStdout: false, archivePool: { capacity: 1, wholeReadBytes: 0, waitMs: 10_000, streamLeaseMs: 300 } });
    const root = join(server.dir, 'library');
    for (const name of ['A', 'B']) {
      await mkdir(join(root, name), { recursive: true });
      await writeFile(join(root, name, `${name}.cbz`), rawZip([{ name: Buffer.from('01.png'), data: await paddedPage(24 * 1024 * 1024, [20, 20, 200]) }]));
    }
    await addLibrary(server, root);
    const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    const [a, b] = ['A', 'B'].map((name) => books.find((book) => book.name === name)!);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;

    const slow = await slowGet(port, `/api/v1/books/${a!.id}/pages/1`, server.admin);
    expect(slow.response.statusCode).toBe(200);
    expect(server.app.folio.archives.openCount).toBe(1);

    // Another reader needs the one archive the server may open: it gets it, well within its wait.
    const started = Date.now();
    const other = await server.get(`/api/v1/books/${b!.id}/pages/1`);
    expect(other.statusCode).toBe(200);
    expect(other.rawPayload.length).toBe(24 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(9_000);
    // The slow reader's response was cut, not left hanging.
    slow.response.resume();
    expect(await slow.finished).toBe(false);
  });
});

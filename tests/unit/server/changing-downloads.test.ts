import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, truncate, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { renderPage } from '../../fixtures/index.ts';
import { rawZip } from '../../fixtures/raw-zip.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A book file can change while it is downloaded (a copy into the library still running, a tool
 * rewriting it). The download announced the size it had when it started: the body must hold to
 * it. More bytes would be read by a keep-alive client as the next response (so it sends the
 * announced bytes only); fewer would leave it waiting for the rest (so the response is cut).
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Larger than what loopback socket buffers hold, so the server is still reading when the file changes. */
const BOOK_BYTES = 32 * 1024 * 1024;

async function downloadableBook() {
  server = await startServer();
  const root = join(server.dir, 'library');
  // A page and a stored entry of noise make the file about BOOK_BYTES.
  const path = join(root, 'S', 'big.cbz');
  const page = await renderPage({ width: 30, height: 40, color: [9, 9, 9], format: 'png' });
  await mkdir(join(root, 'S'), { recursive: true });
  await writeFile(path, rawZip([{ name: Buffer.from('01.png'), data: page }, { name: Buffer.from('filler.bin'), data: randomBytes(BOOK_BYTES) }]));
  await addLibrary(server, root);
  const id = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content[0]!.id;
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  return { id, port, path };
}

interface RawResponse {
  contentLength: number;
  /** Body bytes received before the server ended the connection or the next response began. */
  bodyBytes: number;
  /** Whether a second request on the same connection got a response that starts as one should. */
  nextResponseIntact: boolean;
}

/**
 * GET over a raw keep-alive connection: reads the headers, then holds off reading while `meanwhile`
 * changes the file, then counts the body's bytes. Once the announced length has come, a second
 * request goes out on the connection and its answer must start with a status line (bytes left over
 * from the first body would come first). A cut response ends the connection instead.
 */
function downloadWhile(port: number, path: string, authorization: string, meanwhile: () => Promise<void>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const request = (url: string) => socket.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nConnection: keep-alive\r\n\r\n`);
    let head = Buffer.alloc(0);
    let contentLength = -1;
    let bodyBytes = 0;
    let after: Buffer | undefined;
    const finish = () => {
      socket.destroy();
      resolve({ contentLength, bodyBytes: Math.min(bodyBytes, contentLength), nextResponseIntact: after?.subarray(0, 9).toString('latin1') === 'HTTP/1.1 ' });
    };
    socket.on('data', (chunk: Buffer) => {
      if (after) {
        after = Buffer.concat([after, chunk]);
        if (after.length >= 9) finish();
        return;
      }
      if (contentLength >= 0) {
        bodyBytes += chunk.length;
        if (bodyBytes > contentLength) {
          // More than announced, already here.
          after = chunk.subarray(chunk.length - (bodyBytes - contentLength));
          finish();
        } else if (bodyBytes === contentLength) {
          after = Buffer.alloc(0);
          request('/api/v1/users/me');
        }
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const match = /content-length: (\d+)/i.exec(head.subarray(0, end).toString('latin1'));
      if (!match) return reject(new Error(`no Content-Length: ${head.subarray(0, end).toString('latin1')}`));
      contentLength = Number(match[1]);
      bodyBytes = head.length - end - 4;
      socket.pause();
      meanwhile().then(() => socket.resume(), reject);
    });
    socket.once('end', finish);
    socket.once('close', finish);
    socket.once('error', finish);
    request(path);
  });
}

describe('a book file that changes while it is downloaded', () => {
  it('growing: the announced bytes are sent and nothing past them', { timeout: 60_000 }, async () => {
    const { id, port, path } = await downloadableBook();
    const received = await downloadWhile(port, `/api/v1/books/${id}/file`, server!.admin.authorization!, () => appendFile(path, Buffer.alloc(4 * 1024 * 1024, 7)));
    expect(received.contentLength).toBeGreaterThan(BOOK_BYTES / 2);
    expect(received.bodyBytes).toBe(received.contentLength);
    expect(received.nextResponseIntact).toBe(true);
  });

  it('shrinking: the response is cut instead of ending short on an open connection', { timeout: 60_000 }, async () => {
    const { id, port, path } = await downloadableBook();
    const received = await downloadWhile(port, `/api/v1/books/${id}/file`, server!.admin.authorization!, () => truncate(path, 1024 * 1024));
    expect(received.bodyBytes).toBeLessThan(received.contentLength);
    expect(received.nextResponseIntact).toBe(false);
  });
});

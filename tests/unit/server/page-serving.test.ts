import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { open, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { ReusableBuffers, sizeClass } from '../../../server/media/reusable-buffers.ts';
import { BLUE, GREEN, RED, YELLOW, createCbz, renderPage, type PageSpec } from '../../fixtures/index.ts';
import { hashPassword } from '../../../server/http/auth/passwords.ts';
import { addLibrary, basic, insertUser, rescan, startServer, type TestServer } from './helpers.ts';

/*
 * Page bytes are read whole (one positional read into a lent buffer) and sent from memory. What
 * that must not change: the bytes (stored and deflated entries), errors for damaged entries, a
 * replaced book read again, memory bounded by the pool's budget however clients behave.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const png = (color: [number, number, number]) => ({ width: 60, height: 90, color, format: 'png' as const });

async function booksByName(s: TestServer): Promise<Map<string, BookDto>> {
  const page = await s.json<Page<BookDto>>('/api/v1/books?unpaged=true');
  return new Map(page.content.map((b) => [b.name, b]));
}

/** A library holding one CBZ (S/<fileName>) of `pages`, scanned: what was written, the library and the book's id. */
async function libraryOfOneBook(s: TestServer, fileName: string, pages: PageSpec[]) {
  const book = await createCbz(join(s.dir, 'library', 'S', fileName), pages);
  const library = await addLibrary(s, join(s.dir, 'library'));
  const id = (await booksByName(s)).get(book.name)!.id;
  return { book, library, id };
}

describe('reusable buffers', () => {
  it('lends buffers in size classes, reuses a returned one and refuses past the budget', () => {
    expect(sizeClass(1)).toBe(4096);
    expect(sizeClass(1 << 20)).toBe(1 << 20);
    expect(sizeClass((1 << 20) + 1)).toBe(1.25 * (1 << 20));
    expect(sizeClass(1_400_000)).toBe(1.5 * (1 << 20));
    const buffers = new ReusableBuffers(3 << 20);
    const first = buffers.take(1_400_000)!;
    expect(first.length).toBe(sizeClass(1_400_000));
    expect(buffers.lentOut).toBe(first.length);
    // Two of that class do not fit in 3 MiB: the caller is told to stream instead.
    const second = buffers.take(1_400_000);
    expect(second).toBeDefined();
    expect(buffers.take(1_400_000)).toBeUndefined();
    buffers.give(first);
    expect(buffers.take(1_500_000) === first).toBe(true);
    expect(() => buffers.give(randomBytes(8))).toThrow(/never lent/);
    buffers.give(second!);
    expect(() => buffers.give(second!)).toThrow(/twice/);
  });

  it('keeps what a crowd larger than the idle allowance gives back while it is still served, and lets it go once it has left', () => {
    let now = 0;
    const size = 8192;
    // Room for ten in flight, two kept idle when nobody is reading.
    const buffers = new ReusableBuffers(10 * size, 2 * size, () => now);
    const crowd = () => Array.from({ length: 6 }, () => buffers.take(size)!);
    const first = crowd();
    for (const buffer of first) buffers.give(buffer);
    // The crowd asks again at once: every buffer comes back from what it gave, none is allocated
    // (a fresh one is memory the kernel must fault in and zero, and the collector free later).
    now += 1000;
    const second = crowd();
    expect(second.filter((buffer) => first.includes(buffer))).toHaveLength(6);
    for (const buffer of second) buffers.give(buffer);
    expect(buffers.keptIdle).toBe(6 * size);
    // The crowd has gone: after a quiet while the idle allowance is back to two.
    now += 60_000;
    const one = buffers.take(size)!;
    buffers.give(one);
    expect(buffers.keptIdle).toBeLessThanOrEqual(2 * size);
    expect(buffers.lentOut).toBe(0);

    // Pages of one book fall in neighbouring classes: an idle buffer a class up serves a smaller page.
    const pages = new ReusableBuffers(8 << 20);
    const larger = pages.take(1_400_000)!;
    pages.give(larger);
    const smaller = pages.take(1_200_000)!;
    expect(smaller === larger).toBe(true);
    expect(pages.lentOut).toBe(larger.length);
    pages.give(smaller);
    expect(pages.lentOut).toBe(0);
  });

  it('never holds more than its budget lent and idle together, whatever the mix of sizes', () => {
    const small = 8192;
    const large = 4 * small;
    const buffers = new ReusableBuffers(10 * small, 2 * small, () => 0);
    const smalls = Array.from({ length: 8 }, () => buffers.take(small)!);
    for (const buffer of smalls) buffers.give(buffer);
    expect(buffers.keptIdle).toBe(8 * small);
    // Larger pages now: the idle small ones make room instead of adding to the memory held.
    const larges = [buffers.take(large)!, buffers.take(large)!];
    expect(buffers.lentOut + buffers.keptIdle).toBeLessThanOrEqual(10 * small);
    for (const buffer of larges) buffers.give(buffer);
    expect(buffers.lentOut + buffers.keptIdle).toBeLessThanOrEqual(10 * small);
  });
});

describe('pages read whole', () => {
  it('serves stored and deflated entries byte for byte, and gives every lent buffer back', async () => {
    server = await startServer();
    const root = join(server.dir, 'library');
    const stored = await createCbz(join(root, 'S', 'Stored.cbz'), [png(RED), png(GREEN)]);
    const deflated = await createCbz(join(root, 'S', 'Deflated.cbz'), [png(BLUE), png(YELLOW)], { compress: true });
    await addLibrary(server, root);
    const books = await booksByName(server);
    for (const written of [stored, deflated]) {
      const id = books.get(written.name)!.id;
      const responses = await Promise.all(written.pages.map((_, i) => server!.get(`/api/v1/books/${id}/pages/${i + 1}`)));
      for (const [i, response] of responses.entries()) {
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-length']).toBe(String(written.pages[i]!.bytes.length));
        expect(response.rawPayload.equals(written.pages[i]!.bytes)).toBe(true);
      }
    }
    expect(server.app.folio.archives.heldWholeBytes).toBe(0);
  });

  it('streams instead when the budget of bytes held is spent, with the same bytes', async () => {
    server = await startServer({ archivePool: { wholeReadBytes: 1 } });
    const { book, id } = await libraryOfOneBook(server, 'Book.cbz', [png(RED), png(GREEN)]);
    const response = await server.get(`/api/v1/books/${id}/pages/2`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(book.pages[1]!.bytes)).toBe(true);
  });

  it('keeps a page counted against the budget until its response closes, even when the client leaves', async () => {
    server = await startServer();
    const root = join(server.dir, 'library');
    // A JPEG followed by 16 MiB that decoders ignore: more than the sockets hold, so the response
    // is still being sent when the client goes away.
    const big = Buffer.concat([await renderPage({ width: 40, height: 60, color: RED, format: 'jpeg' }), randomBytes(16 << 20)]);
    const yazl = (await import('yazl')).default;
    const zip = new yazl.ZipFile();
    zip.addBuffer(big, '001.jpg', { compress: false });
    zip.end();
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(join(root, 'S'), { recursive: true });
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    await writeFile(join(root, 'S', 'Big.cbz'), Buffer.concat(chunks));
    await addLibrary(server, root);
    const id = (await booksByName(server)).get('Big')!.id;

    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const closed = new Promise<void>((resolve) => server!.app.server.once('request', (_req, res) => res.once('close', () => resolve())));
    const pool = server.app.folio.archives;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ port, host: '127.0.0.1', path: `/api/v1/books/${id}/pages/1`, headers: server!.admin }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          // The first bytes arrived: the page is held for this response. Leave without reading on.
          expect(pool.heldWholeBytes).toBeGreaterThanOrEqual(big.length);
          req.destroy();
          resolve();
        });
      });
      req.once('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error)));
      req.end();
    });
    await closed;
    expect(pool.heldWholeBytes).toBe(0);
  });

  it('answers a damaged entry with its error code instead of bytes, and still serves the others', async () => {
    server = await startServer();
    // Four pages. The book's analysis read every page's header through the handle the pool keeps for
    // what follows (poster, barcode search), which remembers where each page's data starts.
    const { book, id } = await libraryOfOneBook(server, 'Book.cbz', [png(RED), png(GREEN), png(BLUE), png(YELLOW)]);
    // Break page 2's local header signature in place (same size, the listing stays readable).
    const bytes = await readFile(book.path);
    const at = bytes.indexOf(Buffer.from(book.pages[1]!.name)) - 30;
    expect(bytes.readUInt32LE(at)).toBe(0x04034b50);
    const file = await open(book.path, 'r+');
    await file.write(Buffer.from('XXXX'), 0, 4, at);
    await file.close();
    // The kept handle's descriptor shows the file changed on its next use: the handle opened
    // instead reads the damaged header at once.
    const damaged = await server.get(`/api/v1/books/${id}/pages/2`);
    expect(damaged.statusCode).toBe(422);
    expect(damaged.json().message).toContain('ERR_1007');
    const healthy = await server.get(`/api/v1/books/${id}/pages/1`);
    expect(healthy.rawPayload.equals(book.pages[0]!.bytes)).toBe(true);
    expect(server.app.folio.archives.heldWholeBytes).toBe(0);
  });

  it('serves a book overwritten in place (same inode, new bytes) from its new listing at once, never bytes at the old offsets', async () => {
    server = await startServer();
    const { book, id } = await libraryOfOneBook(server, 'Book.cbz', [png(RED), png(GREEN)]);
    expect((await server.get(`/api/v1/books/${id}/pages/1`)).rawPayload.equals(book.pages[0]!.bytes)).toBe(true);
    // Another program copies a different book of as many pages over the file, before any rescan:
    // a wider first page, so page 1 lies elsewhere and has another length in the new bytes.
    const other = await createCbz(join(server.dir, 'other.cbz'), [{ ...png(BLUE), width: 120 }, png(YELLOW)]);
    const inode = (await stat(book.path)).ino;
    await writeFile(book.path, await readFile(other.path));
    expect((await stat(book.path)).ino).toBe(inode);
    // Asked at once (within the second the path is not looked at again): the new first page.
    const response = await server.get(`/api/v1/books/${id}/pages/1`);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(other.pages[0]!.bytes)).toBe(true);
    expect(server.app.folio.archives.heldWholeBytes).toBe(0);
  });

  it('reads a book replaced on disk again once it is rescanned, never the old bytes or offsets', async () => {
    server = await startServer();
    const root = join(server.dir, 'library');
    const path = join(root, 'S', 'Book.cbz');
    const before = await createCbz(path, [png(RED), png(GREEN)]);
    const library = await addLibrary(server, root);
    const id = (await booksByName(server)).get(before.name)!.id;
    expect((await server.get(`/api/v1/books/${id}/pages/2`)).rawPayload.equals(before.pages[1]!.bytes)).toBe(true);
    // Same name, other pages of other sizes (so other offsets), a later modification time.
    const after = await createCbz(path, [{ ...png(BLUE), width: 90 }, { ...png(YELLOW), width: 120 }, png(GREEN)]);
    const later = new Date(Date.now() + 60_000);
    await utimes(path, later, later);
    await rescan(server, library.id);
    for (const [i, page] of after.pages.entries()) {
      const response = await server.get(`/api/v1/books/${id}/pages/${i + 1}`);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(page.bytes)).toBe(true);
    }
  });
});

describe('the caller, remembered between requests', () => {
  it('loses a library, a role or a password at once: the next page or poster request is refused', async () => {
    server = await startServer();
    const { library, id } = await libraryOfOneBook(server, 'Book.cbz', [png(RED)]);
    const userId = await insertUser(server, 'reader@example.org', 'pw', ['PAGE_STREAMING']);
    const reader = { authorization: basic('reader@example.org', 'pw') };
    const patch = async (body: object) => {
      const response = await server!.app.inject({ method: 'PATCH', url: `/api/v2/users/${userId}`, headers: server!.admin, payload: body });
      expect(response.statusCode).toBe(204);
    };
    // Remembered: several requests in a row, with the cached Basic credentials.
    for (let i = 0; i < 3; i++) expect((await server.get(`/api/v1/books/${id}/pages/1`, reader)).statusCode).toBe(200);
    expect((await server.get(`/api/v1/books/${id}/thumbnail`, reader)).statusCode).toBe(200);

    await patch({ sharedLibraries: { all: false, libraryIds: [] } });
    expect((await server.get(`/api/v1/books/${id}/pages/1`, reader)).statusCode).toBe(404);
    expect((await server.get(`/api/v1/books/${id}/thumbnail`, reader)).statusCode).toBe(404);

    await patch({ sharedLibraries: { all: false, libraryIds: [library.id] } });
    expect((await server.get(`/api/v1/books/${id}/pages/1`, reader)).statusCode).toBe(200);
    await patch({ roles: [] });
    expect((await server.get(`/api/v1/books/${id}/pages/1`, reader)).statusCode).toBe(403);

    // A changed password: the old one stops working on the next request.
    const user = server.app.folio.repos.users.findById(userId)!;
    server.app.folio.repos.users.update({ ...user, passwordHash: await hashPassword('new'), lastModified: Date.now() });
    expect((await server.get(`/api/v1/books/${id}/thumbnail`, reader)).statusCode).toBe(401);
    // A deleted user is nobody.
    server.app.folio.repos.users.delete(userId);
    expect(server.app.folio.repos.users.findById(userId)).toBeUndefined();
  });

  it('hands out copies: changing a returned user changes nothing remembered', async () => {
    server = await startServer();
    const userId = await insertUser(server, 'reader@example.org', 'pw', ['PAGE_STREAMING']);
    const users = server.app.folio.repos.users;
    users.findById(userId)!.roles.push('ADMIN');
    expect(users.findById(userId)!.roles).toEqual(['PAGE_STREAMING']);
  });

  it('remembers nothing read inside a transaction that is rolled back', async () => {
    server = await startServer();
    const userId = await insertUser(server, 'reader@example.org', 'pw', ['PAGE_STREAMING']);
    const { db, repos } = server.app.folio;
    const rolledBack = db.transaction(() => {
      repos.users.update({ ...repos.users.findById(userId)!, roles: ['ADMIN'] });
      expect(repos.users.findById(userId)!.roles).toEqual(['ADMIN']);
      throw new Error('roll back');
    });
    expect(rolledBack).toThrow('roll back');
    expect(repos.users.findById(userId)!.roles).toEqual(['PAGE_STREAMING']);
  });
});

describe('posters served from memory by their record', () => {
  it('looks the library and the selected poster up together, and follows the record when the selection changes', async () => {
    server = await startServer();
    const { book, library, id } = await libraryOfOneBook(server, 'Red.cbz', [png(RED)]);
    const thumbnails = server.app.folio.repos.thumbnails;
    expect(thumbnails.findBookPoster('no-such-book')).toBeUndefined();
    // Drawn in the background after analysis, or on this first request: either way one is selected.
    const first = await server.get(`/api/v1/books/${id}/thumbnail`);
    expect(first.statusCode).toBe(200);
    const found = thumbnails.findBookPoster(id)!;
    expect(found.libraryId).toBe(library.id);
    expect(found.poster).toMatchObject({ bookId: id, type: 'GENERATED', selected: true, mediaType: 'image/jpeg' });

    // Served again from memory, then the record changes under it: the next request has the new bytes.
    expect((await server.get(`/api/v1/books/${id}/thumbnail`)).rawPayload.equals(first.rawPayload)).toBe(true);
    const upload = await renderPage({ width: 40, height: 60, color: GREEN, format: 'png' });
    const uploaded = await server.app.inject({
      method: 'POST',
      url: `/api/v1/books/${id}/thumbnails`,
      headers: { ...server.admin, 'content-type': 'multipart/form-data; boundary=x' },
      payload: Buffer.concat([
        Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n'),
        upload,
        Buffer.from('\r\n--x--\r\n'),
      ]),
    });
    expect(uploaded.statusCode).toBe(200);
    const now = await server.get(`/api/v1/books/${id}/thumbnail`);
    expect(now.rawPayload.equals(upload)).toBe(true);
    expect(now.headers.etag).not.toBe(first.headers.etag);
    // A book whose posters are all gone still answers by its library (then draws one again).
    thumbnails.deleteByType(id, 'USER_UPLOADED');
    thumbnails.deleteGeneratedForBook(id);
    expect(thumbnails.findBookPoster(id)).toEqual({ libraryId: library.id, poster: undefined });
    expect((await server.get(`/api/v1/books/${id}/thumbnail`)).statusCode).toBe(200);
  });

  it('a poster drawn again is served at once, though the kept one is no longer checked on disk', async () => {
    server = await startServer();
    const { id } = await libraryOfOneBook(server, 'Tall.cbz', [{ width: 800, height: 1600, color: RED, format: 'png' }]);
    const size = async () => {
      const response = await server!.get(`/api/v1/books/${id}/thumbnail`);
      expect(response.statusCode).toBe(200);
      const { default: sharp } = await import('sharp');
      const { width, height } = await sharp(response.rawPayload).metadata();
      return [width, height];
    };
    expect(await size()).toEqual([150, 300]);
    expect(await size()).toEqual([150, 300]);
    const settings = await server.app.inject({ method: 'PATCH', url: '/api/v1/settings', headers: server.admin, payload: { thumbnailSize: 'MEDIUM' } });
    expect(settings.statusCode).toBe(204);
    const regenerate = await server.app.inject({ method: 'PUT', url: '/api/v1/books/thumbnails', headers: server.admin });
    expect(regenerate.statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect(await size()).toEqual([300, 600]);
  });
});

import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { writeStoredCbz } from '../../fixtures/comics.ts';
import { decodeImage } from '../../../server/media/image-decode.ts';
import { pageThumbnail } from '../../../server/domain/pages/page-thumbnails.ts';
import { bookThumbnail } from '../../../server/domain/posters/book-thumbnails.ts';
import { sharedWorkWaits } from '../../../server/domain/shared-work.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A page thumbnail or a book poster is drawn once for everyone asking at the same time. A request
 * that joined a drawing started by background work waited for it as long as it took, past the
 * request's own limit (15 s: here lowered to 200 ms): it now gets its 503 with Retry-After at that
 * limit, and the drawing goes on and is kept.
 */

let server: TestServer;
let book: BookDto;
const { requestMs } = sharedWorkWaits;

beforeAll(async () => {
  server = await startServer({ logLevel: 'error', logStdout: false });
  const pages = await Promise.all([0, 1].map((i) => sharp({ create: { width: 400, height: 600, channels: 3, background: { r: 40 * i, g: 90, b: 140 } } }).jpeg().toBuffer()));
  const root = join(server.dir, 'library');
  await writeStoredCbz(join(root, 'Joined', 'joined.cbz'), pages);
  await addLibrary(server, root);
  book = (await server.json<Page<BookDto>>('/api/v1/books')).content[0]!;
  expect(book.media.status).toBe('READY');
  await server.app.folio.tasks.idle();
}, 60_000);
afterEach(() => {
  sharedWorkWaits.requestMs = requestMs;
});
afterAll(async () => {
  await server.close();
});

/** Both image workers held until the returned function is called: every decode behind them waits. */
function holdImageWorkers(): () => Promise<void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = [0, 1].map(() => decodeImage(() => gate));
  return async () => {
    release();
    await Promise.all(held);
  };
}

describe('a request joining a drawing already under way', () => {
  it('of a page thumbnail gets 503 at its own limit; the background drawing goes on and is kept', { timeout: 30_000 }, async () => {
    sharedWorkWaits.requestMs = 200;
    const ctx = server.app.folio;
    const release = holdImageWorkers();
    let backgroundDone = false;
    const background = pageThumbnail(ctx, ctx.repos.books.findById(book.id)!, ctx.repos.media.findByBookId(book.id)!.lastModified, 1).finally(() => (backgroundDone = true));
    const answer = await server.get(`/api/v1/books/${book.id}/pages/1/thumbnail`);
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.headers['retry-after']).toBeDefined();
    expect(backgroundDone).toBe(false);
    await release();
    const drawn = await background;
    expect(await sharp(drawn!).metadata()).toMatchObject({ format: 'jpeg', height: 300 });
    // Kept: the next request reads what the background drew.
    const again = await server.get(`/api/v1/books/${book.id}/pages/1/thumbnail`);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(drawn!)).toBe(true);
  });

  it("of a book's poster gets 503 at its own limit; the background drawing goes on and is stored", { timeout: 30_000 }, async () => {
    sharedWorkWaits.requestMs = 200;
    const ctx = server.app.folio;
    ctx.repos.thumbnails.deleteGeneratedForBook(book.id);
    const release = holdImageWorkers();
    let backgroundDone = false;
    const background = bookThumbnail(ctx, book.id).finally(() => (backgroundDone = true));
    const answer = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.headers['retry-after']).toBeDefined();
    expect(backgroundDone).toBe(false);
    await release();
    expect(await background).not.toBeNull();
    expect(ctx.repos.thumbnails.findSelectedForBook(book.id)?.type).toBe('GENERATED');
    expect((await server.get(`/api/v1/books/${book.id}/thumbnail`)).statusCode).toBe(200);
  });
});

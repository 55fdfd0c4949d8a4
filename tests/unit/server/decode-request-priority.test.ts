import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { writeStoredCbz } from '../../fixtures/comics.ts';
import { decodeImage, waitingDecodes } from '../../../server/media/image-decode.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * The two image workers and their 256 waiting places were one queue for everyone: a large scan's
 * background decodes (posters, the barcode search) filled it, and a reader's page thumbnail or
 * conversion was refused at once with a 503 while the scan went on. Requests now have a queue of
 * their own, served first whenever a worker comes free.
 */

const BACKGROUND_QUEUED = 256;
let server: TestServer;
let book: BookDto;

beforeAll(async () => {
  server = await startServer({ logLevel: 'error', logStdout: false });
  const pages = await Promise.all([0, 1].map((i) => sharp({ create: { width: 400, height: 600, channels: 3, background: { r: 40 * i, g: 90, b: 140 } } }).jpeg().toBuffer()));
  const root = join(server.dir, 'library');
  await writeStoredCbz(join(root, 'Priority', 'priority.cbz'), pages);
  await addLibrary(server, root);
  book = (await server.json<Page<BookDto>>('/api/v1/books')).content[0]!;
  expect(book.media.status).toBe('READY');
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('image decodes asked for by requests', () => {
  it('are served while background work fills its queue to the limit, before that work', { timeout: 60_000 }, async () => {
    await server.app.folio.tasks.idle();
    // Both workers busy with background decodes held open, and the background queue full behind
    // them with decodes that, once started, are held too.
    let releaseRunning!: () => void;
    let releaseQueued!: () => void;
    const running = new Promise<void>((resolve) => (releaseRunning = resolve));
    const queuedGate = new Promise<void>((resolve) => (releaseQueued = resolve));
    let backgroundDone = 0;
    const held = [0, 1].map(() => decodeImage(() => running));
    const queued = Array.from({ length: BACKGROUND_QUEUED }, () => decodeImage(() => queuedGate.then(() => void backgroundDone++)));

    const thumbnail = server.get(`/api/v1/books/${book.id}/pages/2/thumbnail`);
    // The request waits for a worker instead of being refused (it was a 503 at once).
    await pollUntil('the request to wait for an image worker', () => waitingDecodes().request === 1, { timeoutMs: 10_000 });
    releaseRunning();
    // The first worker freed goes to the request, not to the background work queued before it.
    const answer = await thumbnail;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await sharp(answer.rawPayload).metadata()).toMatchObject({ format: 'jpeg', height: 300 });
    expect(backgroundDone).toBe(0);
    releaseQueued();
    await Promise.all([...held, ...queued]);
    expect(backgroundDone).toBe(BACKGROUND_QUEUED);
  });
});

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { analysisBounds } from '../../../server/media/analysis-bounds.ts';
import { sevenZip } from '../../../server/media/sevenzip-client.ts';
import { writeBzip2NavEpub } from '../../fixtures/bzip2-nav-epub.ts';
import { addLibrary, loggedLines, startServer, type TestServer } from './helpers.ts';

/*
 * A hostile EPUB whose navigation document is stored with BZIP2 (the zip reader takes it, the
 * EPUB format does not): 7-Zip unpacks it in its pool, within the pool's time limit. Read for a
 * Readium reader, it gets a request's bounds, as a page does: one 7-Zip call, 503 when it runs out
 * of time, and the publication is not kept with an empty table of contents. (It got analysis's:
 * every time-out made again up to the book's bound on 7-Zip's time, about 6 minutes, then an
 * empty table of contents, cached.)
 */

let server: TestServer;
const defaultLimit = sevenZip.timeLimitMs;
const defaultWorkMs = analysisBounds.workMs;

beforeEach(async () => {
  server = await startServer({ logLevel: 'warn' });
  const root = join(server.dir, 'library');
  for (const series of ['Control', 'Slow']) {
    await mkdir(join(root, series), { recursive: true });
    await writeBzip2NavEpub(join(root, series, `${series.toLowerCase()}.epub`));
  }
  await addLibrary(server, root);
});
afterEach(async () => {
  Object.defineProperty(sevenZip, 'timeLimitMs', { configurable: true, writable: true, enumerable: true, value: defaultLimit });
  analysisBounds.workMs = defaultWorkMs;
  await server.close();
});

/** Every 7-Zip call from now on gets a 1 ms limit (a fresh worker is slower than that to start). */
function timeOutEveryCall(): void {
  Object.defineProperty(sevenZip, 'timeLimitMs', { configurable: true, get: () => 1 });
}

/** Everything logged so far (the file is written asynchronously: see loggedLines). */
const logText = async () => (await loggedLines(server)).join('\n');
const books = async () => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;

describe('an EPUB navigation document stored with BZIP2, read for a reader', () => {
  it('runs out of time once: the book stays readable without its table of contents, said in a header, and the contents come back after a minute', async () => {
    const all = await books();
    expect(all.map((b) => [b.name, b.media.status])).toEqual([
      ['control', 'READY'],
      ['slow', 'READY'],
    ]);
    const [control, slow] = all;
    // The same book read in time: its table of contents comes out of the BZIP2 entry.
    const readable = await server.json<{ toc: { title: string }[] }>(`/api/v1/books/${control!.id}/manifest`);
    expect(readable.toc.map((l) => l.title)).toEqual(['First', 'Second']);

    await sevenZip.stop();
    // Analysis's bound on 7-Zip's time made tiny: a read that went by it would end at once (empty table of contents) rather than after minutes.
    analysisBounds.workMs = 3;
    timeOutEveryCall();
    const calls = sevenZip.calls;
    // Before: 503 for the manifest, the positions and the progression, for ten minutes.
    const timedOut = await server.get(`/api/v1/books/${slow!.id}/manifest`);
    expect(timedOut.statusCode).toBe(200);
    expect(timedOut.json<{ toc: unknown[]; readingOrder: unknown[] }>().readingOrder).toHaveLength(2);
    expect(timedOut.json<{ toc: unknown[] }>().toc).toEqual([]);
    // Said, with when it is read again (the first refusal: a minute), and never cached.
    expect(timedOut.headers['folio-navigation-unavailable']).toBe('60');
    expect(timedOut.headers['cache-control']).toBe('no-store');
    expect(sevenZip.calls - calls).toBe(1);

    // Positions and progression never depend on the navigation: read and saved meanwhile.
    const positions = await server.get(`/api/v1/books/${slow!.id}/positions`);
    expect(positions.statusCode).toBe(200);
    const saved = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/books/${slow!.id}/progression`,
      headers: { ...server.admin, 'content-type': 'application/json' },
      payload: {
        modified: new Date().toISOString(),
        device: { id: 'test', name: 'Test' },
        locator: { ...positions.json<{ positions: { href: string; type: string; locations: object }[] }>().positions[1] },
      },
    });
    expect(saved.statusCode).toBe(204);

    // Refused at once meanwhile, without 7-Zip: the header counts down.
    const again = await server.get(`/api/v1/books/${slow!.id}/manifest`);
    expect(again.statusCode).toBe(200);
    expect(Number(again.headers['folio-navigation-unavailable'])).toBeGreaterThan(0);
    expect(Number(again.headers['folio-navigation-unavailable'])).toBeLessThanOrEqual(60);
    expect(sevenZip.calls - calls).toBe(1);
    // Logged with the book, not silent.
    const warned = (await logText()).split('\n').filter((line) => line.includes('EPUB navigation not read now') && line.includes(slow!.id));
    expect(warned.length).toBeGreaterThanOrEqual(2);

    // A minute on, with 7-Zip in time again, the table of contents is read and served.
    Object.defineProperty(sevenZip, 'timeLimitMs', { configurable: true, writable: true, enumerable: true, value: defaultLimit });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      const back = await server.get(`/api/v1/books/${slow!.id}/manifest`);
      expect(back.statusCode).toBe(200);
      expect(back.headers['folio-navigation-unavailable']).toBeUndefined();
      expect(back.json<{ toc: { title: string }[] }>().toc.map((l) => l.title)).toEqual(['First', 'Second']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps refusing an entry that runs out of time again, each time for twice as long, up to ten minutes', async () => {
    const slow = (await books())[1]!;
    await sevenZip.stop();
    analysisBounds.workMs = 3;
    timeOutEveryCall();
    const seen: string[] = [];
    let now = Date.now();
    try {
      for (let i = 0; i < 6; i++) {
        vi.useFakeTimers({ toFake: ['Date'], now });
        const response = await server.get(`/api/v1/books/${slow.id}/manifest`);
        seen.push(String(response.headers['folio-navigation-unavailable']));
        now += Number(response.headers['folio-navigation-unavailable']) * 1000 + 1000;
      }
    } finally {
      vi.useRealTimers();
    }
    expect(seen).toEqual(['60', '120', '240', '480', '600', '600']);
  });
});

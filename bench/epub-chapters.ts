/**
 * How long a chapter of a text EPUB takes to open in the reader, by the chapter's size: three
 * generated books of one chapter each (200 KB, 2 MB, 5 MB of XHTML; novels that keep the whole book
 * in one file are the 2–5 MB ones), opened in real Chromium against the real server. For each:
 *   - first text: from the reader's address being asked for to the first screen of text shown
 *     (the reader's frame host marked ready), and the reader's own measure of the same from the
 *     moment the navigator starts (`folio:epub-first-text`), and of that the chapter's decoding,
 *     parsing and cleaning (`folio:epub-clean`, summed when the chapter was read more than once);
 *   - a page turn inside the chapter: ArrowRight to the new place reported and a frame painted;
 *   - with BENCH_TRACE=1, where the main thread's time went while the chapter opened (trace events
 *     summed by name; BENCH_TRACE_FILE=path keeps the raw trace for the DevTools Performance panel).
 * Environment: BENCH_RUNS (3) opens per size, BENCH_TURNS (10) turns per open, BENCH_SIZES
 * (200000,2000000,5000000) bytes, BENCH_CHECKOUT (this one) another checkout whose server and built
 * client (its dist/) are measured. Prints a table and the load average; writes nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from '../tests/chromium.ts';
import { createReflowableEpub } from '../tests/fixtures/epub.ts';
import { startFolio } from '../tests/e2e/support/folio-server.ts';
import { percentile, round } from './lib/stats.ts';
import { waitUntil } from './lib/wait.ts';
import { traceMainThread } from './support/trace.ts';
import { claimWithLibrary } from './support/claimed-server.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TURNS = Number(process.env.BENCH_TURNS ?? 10);
const SIZES = (process.env.BENCH_SIZES ?? '200000,2000000,5000000').split(',').map(Number);
const TRACE = process.env.BENCH_TRACE === '1';
/** An open that has not shown its text by then is written down as timed out (BENCH_OPEN_LIMIT_MS). */
const OPEN_LIMIT_MS = Number(process.env.BENCH_OPEN_LIMIT_MS ?? 120_000);

/** Paragraphs of a novel: plain sentences with some emphasis, about `bytes` of markup. */
function novelText(bytes: number): string {
  const paragraphs: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const paragraph = i % 40 === 0
      ? `<h2 id="s${i}">Section ${i / 40 + 1}</h2>\n`
      : `<p>It was a dark and stormy night; the rain fell in <em>torrents</em>, except at occasional intervals, when it was checked by a violent gust of wind (paragraph ${i}). The lamps struggled against the darkness.</p>\n`;
    paragraphs.push(paragraph);
    length += paragraph.length;
  }
  return paragraphs.join('');
}

const label = (bytes: number) => (bytes >= 1_000_000 ? `${bytes / 1_000_000} MB` : `${bytes / 1000} KB`);

const root = await mkdtemp(join(tmpdir(), 'folio-bench-epub-chapters-'));
for (const bytes of SIZES) {
  await createReflowableEpub(
    join(root, label(bytes), `Chapter ${label(bytes)}.epub`),
    [{ title: 'The only chapter', body: `<h1>The only chapter</h1><p>First words of the ${label(bytes)} chapter.</p>${novelText(bytes)}` }],
    { title: `Chapter ${label(bytes)}` },
  );
}
const folio = await startFolio(process.env.BENCH_CHECKOUT ? { checkout: process.env.BENCH_CHECKOUT } : {});
const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs });
try {
  const { auth, call } = await claimWithLibrary(folio.url, root);
  let books: { id: string; name: string }[] = [];
  await waitUntil('the books analysed', async () => {
    const page = (await (await call('/api/v1/books?media_status=READY&size=10')).json()) as { content: { id: string; name: string }[] };
    books = page.content;
    return books.length === SIZES.length;
  }, 200, 180_000);

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Basic credentials once: the session cookie lands in the browser context's jar.
  const login = await context.request.get(`${folio.url}/api/v2/users/me`, { headers: auth });
  if (!login.ok()) throw new Error(`login: ${login.status()}`);

  const open = async (page: Page, bookId: string) => {
    // A chapter that never shows says why here.
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') console.log(`[page ${message.type()}] ${message.text().slice(0, 300)}`);
    });
    page.on('pageerror', (error) => console.log(`[page error] ${error.message.slice(0, 300)}`));
    const started = Date.now();
    await page.goto(`${folio.url}/book/${bookId}/read?incognito=true`);
    await page.waitForSelector('[data-testid="epub-frames"][data-ready="true"]', { state: 'attached', timeout: OPEN_LIMIT_MS });
    const wall = Date.now() - started;
    const measured = await page.evaluate(() => performance.getEntriesByName('folio:epub-first-text')[0]?.duration ?? -1);
    // A checkout from before the measure existed reports 0.
    const cleaned = await page.evaluate(() => performance.getEntriesByName('folio:epub-clean').reduce((sum, entry) => sum + entry.duration, 0));
    return { wall, measured, cleaned };
  };
  /**
   * ArrowRight to the new place named on the frame host and the next frame painted, ms. The clock
   * starts just before the key is sent (the key may land inside the book's frame, whose events the
   * page does not see), so one DevTools round trip (a few ms) is included.
   */
  const turn = async (page: Page) => {
    await page.evaluate(() => {
      const w = window as unknown as { __turn: Promise<number>; __turnStart: number };
      const host = document.querySelector('[data-testid="epub-frames"]')!;
      w.__turn = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => {
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - w.__turnStart)));
        });
        observer.observe(host, { attributes: true, attributeFilter: ['data-progression', 'data-position'] });
      });
      w.__turnStart = performance.now();
    });
    await page.keyboard.press('ArrowRight');
    return page.evaluate(() => (window as unknown as { __turn: Promise<number> }).__turn);
  };

  const rows: string[] = [];
  for (const bytes of SIZES) {
    const book = books.find((b) => b.name === `Chapter ${label(bytes)}`)!;
    const walls: number[] = [];
    const measures: number[] = [];
    const cleanings: number[] = [];
    const turns: number[] = [];
    let timedOut = false;
    for (let run = 0; run < RUNS && !timedOut; run++) {
      const page = await context.newPage();
      try {
        const opened = await open(page, book.id);
        walls.push(opened.wall);
        measures.push(opened.measured);
        cleanings.push(opened.cleaned);
        for (let i = 0; i < TURNS; i++) turns.push(await turn(page));
      } catch (error) {
        if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
        console.log(`the ${label(bytes)} chapter showed no text within ${OPEN_LIMIT_MS} ms`);
        timedOut = true;
      }
      await page.close();
    }
    const ms = (samples: number[], p: number) => (samples.length === 0 ? '–' : String(round(percentile(samples, p), 0)));
    const row = `| ${label(bytes)} | ${ms(walls, 50)} (${walls.map((w) => round(w, 0)).join(', ')}${timedOut ? `, > ${OPEN_LIMIT_MS}` : ''}) | ${ms(measures, 50)} | ${ms(cleanings, 50)} (${cleanings.map((c) => round(c, 0)).join(', ')}) | ${ms(turns, 50)} | ${ms(turns, 95)} |`;
    console.log(row);
    rows.push(row);
    if (TRACE) {
      const page = await context.newPage();
      const shares = await traceMainThread(page, async () => {
        // A chapter that never shows is traced too: the trace says where its time went.
        await open(page, book.id).catch((error: unknown) => {
          if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
          console.log(`traced: the ${label(bytes)} chapter showed no text within ${OPEN_LIMIT_MS} ms`);
        });
      }, process.env.BENCH_TRACE_FILE ? `${process.env.BENCH_TRACE_FILE}-${label(bytes).replace(' ', '')}.json` : undefined);
      console.log(`main thread while the ${label(bytes)} chapter opened (ms, count):`);
      for (const share of shares.slice(0, 18)) console.log(`  ${share.name}: ${round(share.totalMs, 0)} ms (${share.count})`);
      await page.close();
    }
  }
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${RUNS} opens a size, ${TURNS} turns an open`);
  console.log('| chapter | first text, from the address ms: median (runs) | from the navigator\'s start ms | of which cleaning ms: median (runs) | page turn median ms | page turn p95 ms |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
} finally {
  await browser.close();
  await folio.stop();
  await rm(root, { recursive: true, force: true });
}

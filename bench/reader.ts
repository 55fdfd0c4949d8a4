/**
 * Page-pipeline benchmark: `node bench/reader.ts` (Node 22); `BENCH_QUICK=1` for a short smoke run.
 *
 * Builds the web client plus a bench page, starts the real Folio server on a generated library,
 * drives headless Chromium (playwright-core, the system Chromium from tests/chromium.ts) and
 * measures, each time next to a naive `<img>` reader in the same run:
 *   1. decoding a page to screen size by format and size (24 MP JPEG; 4 MP JPEG, WebP, PNG):
 *      worker pool vs main thread (<img>.decode() + a resizing drawImage);
 *   2. first page painted after opening the reader, next to the floor (fetch + decode of that page alone);
 *   3. page turns (key press → painted frame), preloaded and cold, with the main thread's long tasks;
 *   4. scrolling a 1000-page webtoon: dropped frames, decoded-bitmap high-water mark, JS heap growth.
 * Figures go to stdout, bench/RESULTS.md and bench/results/reader.json. Not a test: nothing here
 * fails on a slow figure.
 */
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import { chromiumArgs, chromiumExecutable } from '../tests/chromium.ts';
import type { DecodeRun } from './page/main.ts';
import { scanLikeImages, writeBook, type BenchImage } from './support/books.ts';
import { AdminClient, startServer } from './support/folio.ts';
import { readerReport, type DecodeGroupResult, type ReaderBenchResults } from './support/reader-report.ts';
import { summarise } from './support/summary.ts';
import { firstFrameQuality, type FirstFrameQuality } from './support/first-frame-quality.ts';
import { traceMainThread } from './support/trace.ts';
import { medianWaterfall, waterfallTable, watchRequests, type Timed } from './support/waterfall.ts';
import { folioWebtoon, naiveWebtoon, scrollWebtoon, type WebtoonScrollRun, type WebtoonTarget } from './support/webtoon-scroll.ts';

const repoRoot = resolve(import.meta.dirname, '..');
const QUICK = process.env.BENCH_QUICK === '1';
/** BENCH_PARTS=first,turns (any of decode, first, turns, webtoon) runs only those parts; default all. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'decode,first,turns,webtoon').split(',').map((part) => part.trim()));
/** 24 MP, portrait like a comic page. */
const LARGE = { width: 4000, height: 6000 };
/** 4 MP. */
const SMALL = { width: 1640, height: 2440 };
const DISTINCT_IMAGES = 4;
/** BENCH_TURNS overrides the number of timed page turns. */
const TURNS = Number(process.env.BENCH_TURNS) || (QUICK ? 10 : 100);

const RAPID_TURNS = QUICK ? 5 : 15;
/** The two <img> readers take about a second a turn: fewer of them in a quick run. */
const NAIVE_TURNS = QUICK ? 5 : TURNS;
const DECODE_PAGES = QUICK ? 2 : 6;
/**
 * Three rounds even in a quick run: each round rotates which method decodes first, and the first pays
 * the page's warm-up (one round put the new path first and read it 0.80x the old one, against 1.14x
 * in reruns that rotated).
 */
const DECODE_ROUNDS = 3;
/**
 * BENCH_FIRST_RUNS overrides the number of first-page runs. Five even in a quick run: with two, the
 * median of the open from the book screen swung from 0.99x to 1.22x the floor between otherwise equal
 * runs (12 batches of 5 ranged 1.06-1.35x).
 */
const FIRST_PAGE_RUNS = Number(process.env.BENCH_FIRST_RUNS) || 5;
/**
 * BENCH_RTT_MS=<ms>: every page (the floor's too) sees the server this round trip away, through
 * DevTools' network emulation. The server runs on the same machine as the browser, so by default a
 * request costs no travel time and the first page measures CPU alone; a reader's visitor is usually
 * on another machine, where what starts a round trip earlier saves it.
 */
const RTT_MS = Number(process.env.BENCH_RTT_MS) || 0;
const VIEWPORT = { width: 1280, height: 800 };
const DPR = 2;
const PAUSE_MS = 500;
const STRIP_PAGES = 1000;
const STRIP = { width: 800, height: 3000 };
const SIDE_PADDING = 25;
/** The issue's two webtoon speeds: a brisk read, and a flick. */
const SCROLL_SPEEDS = [9600, 24000];
const SCROLL_SECONDS = QUICK ? 3 : 30;
const EMAIL = 'bench@example.org';
const PASSWORD = 'bench-password';

interface Size {
  width: number;
  height: number;
}

/** The size the reader draws a page at: screen fit in the viewport, in device pixels. */
function screenFit(page: Size): Size {
  const scale = Math.min(VIEWPORT.width / page.width, VIEWPORT.height / page.height);
  return { width: Math.round(page.width * scale * DPR), height: Math.round(page.height * scale * DPR) };
}

async function buildClient(outDir: string): Promise<void> {
  await build({
    root: repoRoot,
    configFile: join(repoRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      // BENCH_NO_MINIFY=1 keeps function names readable in a trace (figures then are not the shipped build's).
      minify: process.env.BENCH_NO_MINIFY !== '1',
      rollupOptions: {
        input: { main: join(repoRoot, 'index.html'), bench: join(repoRoot, 'bench/page/index.html') },
      },
    },
  });
}

interface FolioTurnRun {
  shown: number[];
  painted: number[];
  /** Turns whose page the debug overlay listed as decoded when the key went down. */
  preloaded: number;
  longTasks: number;
  longTaskTime: number;
}

/**
 * Folio's reader: ArrowRight, then wait for the new page's pixels, then one frame. `shown` is when
 * anything of the page is on screen (possibly its enlarged preview), `painted` when the real bitmap is.
 * With `waitForPreload`, each turn first waits (up to 10 s) until the debug overlay lists the next
 * page as decoded: the "preloaded" case. Long tasks are counted over the whole session.
 */
async function folioTurns(page: Page, turns: number, pauseMs: number, waitForPreload: boolean): Promise<FolioTurnRun> {
  return page.evaluate(
    async ({ turns, pauseMs, waitForPreload }) => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="reader-canvas"]');
      if (!canvas) throw new Error('reader canvas not found');
      const overlay = document.querySelector<HTMLElement>('[data-testid="reader-debug"]');
      if (waitForPreload && !overlay) throw new Error('debug overlay not found');
      const decoded = (page: number) => {
        const list = /decoded ([^\n]*)/.exec(overlay?.textContent ?? '')?.[1] ?? '';
        return list.split(',').some((part) => {
          const [from, to] = part.split('-').map(Number);
          return from !== undefined && page >= from && page <= (to ?? from);
        });
      };
      let longTasks = 0;
      let longTaskTime = 0;
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          longTasks++;
          longTaskTime += entry.duration;
        }
      });
      observer.observe({ type: 'longtask', buffered: false });
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const sleep = (delay: number) => new Promise((resolve) => setTimeout(resolve, delay));
      const shown: number[] = [];
      const painted: number[] = [];
      let preloaded = 0;
      for (let turn = 0; turn < turns; turn++) {
        await sleep(pauseMs);
        const next = Number(canvas.dataset.currentPage) + 1;
        if (waitForPreload) {
          const deadline = performance.now() + 10_000;
          while (!decoded(next) && performance.now() < deadline) await sleep(50);
        }
        if (decoded(next)) preloaded++;
        const target = String(next);
        let shownAt = 0;
        // Marks for the trace: each turn's window, to read in the Performance panel.
        performance.mark(`turn ${next}`);
        const start = performance.now();
        const done = new Promise<number>((resolve) => {
          const check = () => {
            if (!shownAt && canvas.dataset.shownPage === target) shownAt = performance.now();
            if (canvas.dataset.paintedPage === target) {
              mutations.disconnect();
              resolve(performance.now());
            }
          };
          const mutations = new MutationObserver(check);
          mutations.observe(canvas, { attributes: true, attributeFilter: ['data-painted-page', 'data-shown-page'] });
        });
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
        const paintedAt = await done;
        await frame();
        performance.mark(`turn ${next} painted`);
        painted.push(performance.now() - start);
        // When the first pixels of the page were drawn (the preview, or the page itself), before the frame.
        shown.push(Math.min(shownAt || paintedAt, paintedAt) - start);
      }
      await sleep(100);
      observer.disconnect();
      return { shown, painted, preloaded, longTasks, longTaskTime };
    },
    { turns, pauseMs, waitForPreload },
  );
}

export interface RapidFrames {
  turns: number;
  intervalMs: number;
  /** Frames sampled from the first key press until the last page is painted at full quality. */
  frames: number;
  full: number;
  /** The page turned to, at a lower resolution (its preview). */
  preview: number;
  /** Another page's pixels (the last page kept up while nothing of the new one exists yet). */
  wrong: number;
  blank: number;
}

/**
 * `turns` ArrowRight presses `intervalMs` apart, faster than pages decode; every animation frame from
 * the first press until the last page is painted is classed by what the canvas shows: the page turned
 * to at full quality, that page's preview, another page, or nothing at all (blank).
 */
async function rapidTurnFrames(page: Page, turns: number, intervalMs: number): Promise<RapidFrames> {
  return page.evaluate(
    async ({ turns, intervalMs }) => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="reader-canvas"]');
      if (!canvas) throw new Error('reader canvas not found');
      const first = Number(canvas.dataset.currentPage);
      let target = first;
      const counts = { frames: 0, full: 0, preview: 0, wrong: 0, blank: 0 };
      let pressed = 0;
      const presses = setInterval(() => {
        target++;
        pressed++;
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
        if (pressed >= turns) clearInterval(presses);
      }, intervalMs);
      const deadline = performance.now() + turns * intervalMs + 20_000;
      await new Promise<void>((resolve) => {
        const sample = () => {
          if (pressed > 0) {
            counts.frames++;
            const { shownPage, paintedPage } = canvas.dataset;
            if (paintedPage === String(target)) counts.full++;
            else if (shownPage === String(target)) counts.preview++;
            else if (shownPage === undefined) counts.blank++;
            else counts.wrong++;
          }
          if ((pressed >= turns && canvas.dataset.paintedPage === String(first + turns)) || performance.now() > deadline) resolve();
          else requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      });
      return { turns, intervalMs, ...counts };
    },
    { turns, intervalMs },
  );
}

/**
 * Records, in every page of a context, when page 1 was first painted by the reader (plus one frame),
 * in ms since the document's time origin, and when the reader's own view first showed it
 * (`folioReaderViewPaint`, no frame added). `folioFirstPaint` can be reset for an in-app navigation.
 */
async function recordFirstPaint(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const state = window as unknown as { folioFirstPaint: number | null; folioFirstPaintPending: boolean; folioReaderViewPaint: number | null };
    state.folioFirstPaint = null;
    state.folioFirstPaintPending = false;
    state.folioReaderViewPaint = null;
    new MutationObserver(() => {
      // When the reader's own view first showed page 1 (on a cold load it takes over from the first frame).
      if (state.folioReaderViewPaint === null && document.querySelector('[data-testid="reader-canvas"][data-painted-page="1"]')) {
        state.folioReaderViewPaint = performance.now();
      }
      if (state.folioFirstPaint !== null || state.folioFirstPaintPending) return;
      // The reader's canvas, or on a cold load the first frame painted before the app runs (the same
      // bitmap at the same place: src/ui/reader/openingPaint.ts).
      if (!document.querySelector('[data-testid="reader-canvas"][data-painted-page="1"], [data-testid="reader-opening-frame"][data-painted-page="1"]')) return;
      state.folioFirstPaintPending = true;
      requestAnimationFrame(() => {
        state.folioFirstPaint = performance.now();
        state.folioFirstPaintPending = false;
      });
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-painted-page'] });
    // On a cold load whose first frame is the document's own image of the page (src/ui/reader/openingImage.ts):
    // its Element Timing render time, the frame that showed it whole (the browser decodes it while
    // it rasterises, after the script showed it, so no frame callback of the page's can see it).
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { identifier?: string; renderTime?: number })[]) {
        if (entry.identifier !== 'folio-opening-page' || !entry.renderTime) continue;
        if (state.folioFirstPaint === null || entry.renderTime < state.folioFirstPaint) state.folioFirstPaint = entry.renderTime;
      }
    }).observe({ type: 'element', buffered: true });
  });
}

/**
 * What each page said (console, failed requests, crashes, workers), kept so that a step that never ends
 * can say where the page was: the bench has met a cold load that never painted, on an idle machine.
 */
const pageEvents = new WeakMap<Page, string[]>();
function recordPageEvents(page: Page): void {
  const events: string[] = [];
  pageEvents.set(page, events);
  const note = (line: string) => {
    events.push(`${performance.now().toFixed(0)} ms ${line}`);
    if (events.length > 400) events.shift();
  };
  page.on('console', (message) => note(`console.${message.type()}: ${message.text()}`));
  page.on('requestfailed', (request) => note(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('requestfinished', (request) => note(`request done: ${request.url()}`));
  page.on('crash', () => note('renderer crashed'));
  page.on('worker', (worker) => note(`worker started: ${worker.url()}`));
}

/** A step of a page that has a deadline; past it, the page's recorded events are printed before the error. */
async function withinDeadline<T>(page: Page, step: string, work: Promise<T>, milliseconds = 60_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${step}: no answer in ${milliseconds} ms`)), milliseconds);
  });
  try {
    return await Promise.race([work, deadline]);
  } catch (error) {
    console.error(`${step} failed; the page's events:\n  ${(pageEvents.get(page) ?? []).join('\n  ')}`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

const firstPaint = (page: Page) =>
  withinDeadline(
    page,
    'first paint',
    page
      .waitForFunction(() => (window as unknown as { folioFirstPaint: number | null }).folioFirstPaint, undefined, { timeout: 60_000 })
      .then((handle) => handle.jsonValue() as Promise<number>),
    65_000,
  );

/** A JS heap reading after a forced garbage collection, through the Chrome DevTools Protocol. */
async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
  } finally {
    await cdp.detach();
  }
}

async function scrollWithHeap(page: Page, target: WebtoonTarget, speed: number, traceFile?: string) {
  const heapBefore = await heapAfterGc(page);
  let run: WebtoonScrollRun | null = null;
  const scroll = async () => {
    run = await scrollWebtoon(page, target, speed, SCROLL_SECONDS);
  };
  // BENCH_TRACE_FILE also keeps a trace of Folio's scroll at each speed (traced runs drop more frames).
  if (traceFile) await traceMainThread(page, scroll, traceFile);
  else await scroll();
  if (!run) throw new Error('the webtoon scroll returned nothing');
  await page.waitForTimeout(500);
  const heapAfter = await heapAfterGc(page);
  return { run, heapBefore, heapAfter };
}

/**
 * A context closed with requests in flight leaves the server working on them: the book screen and
 * the reader ask for page thumbnails, each a decode of a 24 MP page that takes both cores for a while
 * (seen in a BENCH_COLD_TRACE trace, still running 600 ms into the next cold load). A first page is
 * measured on a server that has finished what the previous step asked, as a visitor opening a link
 * would find it; the floor gets the same quiet server.
 */
const SETTLE_MS = 1500;
const serverSettled = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/**
 * Headless Chromium opens a browser window per context, and each window loads the address bar's
 * WebUI popup (a hundred chrome:// scripts) in the same seconds as a cold load of the reader: work no
 * reader's visitor pays on opening a page, and on a 2-core machine it delayed the cold load by
 * hundreds of ms (seen in a BENCH_COLD_TRACE trace). The floor, measured in an open page, never paid it.
 */
const BENCH_ONLY_ARGS = ['--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup'];

export async function runReaderBench(): Promise<void> {
  const loadAtStart = loadavg();
  const work = await mkdtemp(join(tmpdir(), 'folio-bench-'));
  const cacheDir = join(repoRoot, 'bench/out/images');
  const libraryRoot = join(work, 'library');
  const clientDir = join(work, 'client');
  const dataDir = join(work, 'data');
  for (const folder of ['Bench', 'Formats', 'Strip']) await mkdir(join(libraryRoot, folder), { recursive: true });
  await mkdir(dataDir, { recursive: true });

  console.log(`${QUICK ? 'QUICK run: ' : ''}generating pages (cached in bench/out)…`);
  const large = await scanLikeImages(cacheDir, DISTINCT_IMAGES, LARGE.width, LARGE.height);
  await writeBook(join(libraryRoot, 'Bench', 'Bench 01.cbz'), large, TURNS + 10);
  // Only the parts that use them get the format book and the 1000-page strip (a first-page run
  // alone then scans one book).
  const formats: { label: string; images: BenchImage[] }[] = PARTS.has('decode')
    ? [
        { label: '4 MP JPEG', images: await scanLikeImages(cacheDir, DISTINCT_IMAGES, SMALL.width, SMALL.height, 'jpeg') },
        { label: '4 MP WebP', images: await scanLikeImages(cacheDir, DISTINCT_IMAGES, SMALL.width, SMALL.height, 'webp') },
        { label: '4 MP PNG', images: await scanLikeImages(cacheDir, DISTINCT_IMAGES, SMALL.width, SMALL.height, 'png') },
        { label: '4 MP AVIF', images: await scanLikeImages(cacheDir, DISTINCT_IMAGES, SMALL.width, SMALL.height, 'avif') },
      ]
    : [];
  // Formats 01: the 4 MP JPEGs, then the WebPs, the PNGs and the AVIFs.
  const formatPages = formats.flatMap((format) => format.images);
  if (formatPages.length > 0) await writeBook(join(libraryRoot, 'Formats', 'Formats 01.cbz'), formatPages, formatPages.length);
  if (PARTS.has('webtoon')) {
    const strips = await scanLikeImages(cacheDir, DISTINCT_IMAGES, STRIP.width, STRIP.height);
    await writeBook(join(libraryRoot, 'Strip', 'Strip 01.cbz'), strips, STRIP_PAGES);
  }
  const expectedBooks = 1 + (formatPages.length > 0 ? 1 : 0) + (PARTS.has('webtoon') ? 1 : 0);
  const averageBytes = (images: BenchImage[]) => images.reduce((sum, image) => sum + image.bytes.length, 0) / images.length / 1e6;

  console.log('building the client and the bench page…');
  await buildClient(clientDir);

  const server = await startServer(repoRoot, dataDir, clientDir);
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath: chromiumExecutable(), args: [...chromiumArgs, ...BENCH_ONLY_ARGS], headless: true });
    const admin = new AdminClient(server.url, EMAIL, PASSWORD);
    await admin.claim(EMAIL, PASSWORD);
    const books = await admin.library(libraryRoot, expectedBooks);
    const byName = (name: string) => {
      const found = books.find((candidate) => candidate.name === name);
      if (!found) throw new Error(`bench book ${name} was not found`);
      return found;
    };
    const book = byName('Bench 01');
    const formatBook = formatPages.length > 0 ? byName('Formats 01') : { id: '', name: '', pages: 0 };
    const strip = PARTS.has('webtoon') ? byName('Strip 01') : { id: '', name: '', pages: 0 };
    console.log(`server ${server.url}; books: ${books.map((found) => `${found.name} (${found.pages} pages)`).join(', ')}`);

    // Log in once the way the web client does (Basic auth, then the session cookie); every context
    // below starts from this state with an empty HTTP cache.
    const loginContext = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: DPR });
    const loginPage = await loginContext.newPage();
    await loginPage.goto(`${server.url}/bench/page/index.html`);
    const auth = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;
    const status = await loginPage.evaluate(async (authorization) => {
      const response = await fetch('/api/v2/users/me', {
        headers: { Authorization: authorization, 'X-Requested-With': 'XMLHttpRequest' },
        credentials: 'include',
      });
      return response.status;
    }, auth);
    if (status !== 200) throw new Error(`login failed: HTTP ${status}`);
    const storageState = await loginContext.storageState();
    await loginContext.close();

    const openContexts: BrowserContext[] = [];
    const freshPage = async (readerSettings: Record<string, unknown>, path: string, beforeLoad?: (page: Page) => void | Promise<void>): Promise<Page> => {
      const context = await browser!.newContext({ viewport: VIEWPORT, deviceScaleFactor: DPR, storageState });
      openContexts.push(context);
      await context.addInitScript((settings) => localStorage.setItem('folio.reader', settings), JSON.stringify(readerSettings));
      await recordFirstPaint(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error('page error:', error));
      recordPageEvents(page);
      if (RTT_MS > 0) {
        // Every request of the page (its workers' included) a round trip away, as from another machine.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: RTT_MS, downloadThroughput: -1, uploadThroughput: -1 });
      }
      await beforeLoad?.(page);
      await page.goto(`${server.url}${path}`);
      return page;
    };
    const closeContexts = async () => {
      for (const context of openContexts.splice(0)) await context.close();
    };
    const benchPage = async () => {
      const page = await freshPage({ animations: false }, '/bench/page/index.html');
      await page.waitForFunction(() => 'folioBench' in window);
      return page;
    };
    const pageUrls = (bookId: string, from: number, count: number, tag: string) =>
      Array.from({ length: count }, (_, index) => `/api/v1/books/${bookId}/pages/${from + index}?bench=${tag}`);
    const readerPath = (bookId: string) => `/book/${bookId}/read?incognito=true`;

    // 1. Decode by format and size. Rounds alternate which method goes first.
    console.log('decode: worker pool vs main thread, by format…');
    const groups = [
      { label: '24 MP JPEG', size: LARGE, bookId: book.id, from: 1, count: DECODE_PAGES, mb: averageBytes(large) },
      ...formats.map((format, index) => ({
        label: format.label,
        size: SMALL,
        bookId: formatBook.id,
        from: 1 + index * DISTINCT_IMAGES,
        // Quick runs decode two pages per format (the 5-minute budget of `BENCH_QUICK=1 npm run bench`).
        count: QUICK ? 2 : DISTINCT_IMAGES,
        mb: averageBytes(format.images),
      })),
    ];
    const decodes: DecodeGroupResult[] = [];
    if (PARTS.has('decode')) {
      const page = await benchPage();
      for (const group of groups) {
        const target = screenFit(group.size);
        // Three methods, each round in a rotated order: the reader's pool (scaled decode where it
        // applies), the same pool on the previous path (createImageBitmap), the main thread.
        const runs: Record<'worker' | 'workerOld' | 'main', DecodeRun[]> = { worker: [], workerOld: [], main: [] };
        const measure = {
          worker: (round: number) =>
            page.evaluate(({ urls, size, natural }) => window.folioBench.decodeInWorkers(urls, size, natural, 'auto'), {
              urls: pageUrls(group.bookId, group.from, group.count, `w${round}`),
              size: target,
              natural: group.size,
            }),
          workerOld: (round: number) =>
            page.evaluate(({ urls, size, natural }) => window.folioBench.decodeInWorkers(urls, size, natural, 'bitmap'), {
              urls: pageUrls(group.bookId, group.from, group.count, `o${round}`),
              size: target,
              natural: group.size,
            }),
          main: (round: number) =>
            page.evaluate(({ urls, size }) => window.folioBench.decodeOnMainThread(urls, size), {
              urls: pageUrls(group.bookId, group.from, group.count, `m${round}`),
              size: target,
            }),
        };
        const order = ['worker', 'workerOld', 'main'] as const;
        for (let round = 0; round < DECODE_ROUNDS; round++) {
          for (let step = 0; step < order.length; step++) {
            const method = order[(round + step) % order.length]!;
            runs[method].push(await measure[method](round));
          }
        }
        const describe = (runs: DecodeRun[]) => ({
          ...summarise(runs.flatMap((run) => run.totals)),
          worstFrameGap: Math.max(...runs.map((run) => run.worstFrameGap)),
          longTaskTimePerRun: runs.reduce((sum, run) => sum + run.longTaskTime, 0) / runs.length,
        });
        decodes.push({
          label: group.label,
          pixels: `${group.size.width}×${group.size.height}`,
          averageMB: group.mb,
          target,
          worker: describe(runs.worker),
          workerOld: describe(runs.workerOld),
          main: describe(runs.main),
        });
        const last = decodes.at(-1)!;
        console.log(`  ${group.label}: worker p50 ${last.worker.median.toFixed(1)} ms (old path ${last.workerOld.median.toFixed(1)} ms), main p50 ${last.main.median.toFixed(1)} ms`);
      }
      await closeContexts();
    }

    // 2. First page: the floor and the naive <img> on the bench page, Folio opened in the app already
    // running (client-side navigation) and by loading its address. Each in a context with an empty cache.
    console.log('first page: Folio vs the floor vs a naive <img>…');
    const firstPage = { floor: [] as number[], floorScaled: [] as number[], naive: [] as number[], img: [] as number[], inApp: [] as number[], pointed: [] as number[], coldLoad: [] as number[], coldReaderView: [] as number[] };
    const watching: { inApp: ReturnType<typeof watchRequests> | null; cold: ReturnType<typeof watchRequests> | null } = { inApp: null, cold: null };
    const waterfalls: Timed[][] = [];
    const inAppWaterfalls: Timed[][] = [];
    const firstDecodes = { fresh: [] as number[], started: [] as number[], main: [] as number[] };
    const largeTarget = screenFit(LARGE);
    for (let run = 0; run < (PARTS.has('first') ? FIRST_PAGE_RUNS : 0); run++) {
      await serverSettled();
      const page = await benchPage();
      const [floorUrl] = pageUrls(book.id, 1, 1, `floor${run}`);
      const [naiveUrl] = pageUrls(book.id, 1, 1, `naive-first${run}`);
      firstPage.floor.push(
        await withinDeadline(page, 'floor', page.evaluate(({ url, size }) => window.folioBench.firstPageFloor(url, size), { url: floorUrl as string, size: largeTarget })),
      );
      const [scaledUrl] = pageUrls(book.id, 1, 1, `floor-scaled${run}`);
      firstPage.floorScaled.push(
        await withinDeadline(
          page,
          'scaled floor',
          page.evaluate(({ url, size, natural }) => window.folioBench.firstPageFloorScaled(url, size, natural), {
            url: scaledUrl as string,
            size: largeTarget,
            natural: LARGE,
          }),
        ),
      );
      firstPage.naive.push(await withinDeadline(page, 'naive first page', page.evaluate((url) => window.folioBench.naiveFirstPage(url), naiveUrl as string)));
      const [imgUrl] = pageUrls(book.id, 1, 1, `img-first${run}`);
      const imgCss = { width: largeTarget.width / DPR, height: largeTarget.height / DPR };
      firstPage.img.push(
        await withinDeadline(page, 'img first page', page.evaluate(({ url, css }) => window.folioBench.imgFirstPage(url, css), { url: imgUrl as string, css: imgCss })),
      );
      // The first decode of page 1's bytes, each in a fresh context, in an order rotated per run.
      const decodeOrder = (['fresh', 'started', 'main'] as const).map((_, index, all) => all[(index + run) % all.length]!);
      for (const where of decodeOrder) {
        const decodePage = await benchPage();
        const [url] = pageUrls(book.id, 1, 1, `first-decode-${where}${run}`);
        firstDecodes[where].push(
          await withinDeadline(
            decodePage,
            `first decode (${where})`,
            decodePage.evaluate(({ url, size, natural, where }) => window.folioBench.firstDecode(url, size, natural, where, 1000), {
              url: url as string,
              size: largeTarget,
              natural: LARGE,
              where,
            }),
          ),
        );
      }
      await closeContexts();
      // In the app: start on the book's screen, let it settle, then navigate to the reader as a link
      // would. In a fresh context (an empty HTTP cache), like the cold load. Its waterfall counts from
      // the navigation: what the book screen started before it shows at negative times.
      const inApp = await freshPage({ animations: false }, `/book/${book.id}`, (page) => {
        watching.inApp = watchRequests(page, book.id, 1);
      });
      await inApp.waitForTimeout(1500);
      // BENCH_IN_APP_TRACE=<file>: the first run's open from the book screen under a browser-wide trace.
      const inAppTrace = run === 0 ? process.env.BENCH_IN_APP_TRACE : undefined;
      if (inAppTrace) await browser.startTracing(undefined, { path: inAppTrace, screenshots: false, categories: process.env.BENCH_COLD_TRACE_CATEGORIES?.split(',') });
      const start = await withinDeadline(inApp, 'navigating to the reader', inApp.evaluate((path) => {
        const state = window as unknown as { folioFirstPaint: number | null };
        state.folioFirstPaint = null;
        const begun = performance.now();
        history.pushState(null, '', path);
        window.dispatchEvent(new PopStateEvent('popstate'));
        return begun;
      }, readerPath(book.id)));
      const inAppPainted = await firstPaint(inApp);
      if (inAppTrace) await browser.stopTracing();
      firstPage.inApp.push(inAppPainted - start);
      if (watching.inApp) inAppWaterfalls.push(await watching.inApp.finish(inAppPainted, start));
      await closeContexts();
      // As a user opens it: the pointer moves onto Read and clicks (the app starts the opening decode the
      // moment the pointer is on the link). Timed from the pointer's arrival on the link, so whatever
      // pointing at it started counts; a person's dwell before the click would only add to the lead.
      const pointed = await freshPage({ animations: false }, `/book/${book.id}`);
      await pointed.waitForTimeout(1500);
      await pointed.evaluate(() => {
        const state = window as unknown as { folioFirstPaint: number | null; folioPointedAt?: number };
        state.folioFirstPaint = null;
        document.addEventListener(
          'pointerover',
          (event) => {
            if (state.folioPointedAt === undefined && event.target instanceof Element && event.target.closest('a[href$="/read"]')) state.folioPointedAt = performance.now();
          },
          { capture: true },
        );
      });
      await withinDeadline(pointed, 'clicking Read', pointed.getByRole('link', { name: 'Read', exact: true }).click());
      const pointedPainted = await firstPaint(pointed);
      const pointedAt = await pointed.evaluate(() => (window as unknown as { folioPointedAt?: number }).folioPointedAt);
      if (pointedAt === undefined) throw new Error('the pointer never reached the Read link');
      firstPage.pointed.push(pointedPainted - pointedAt);
      // Loading the reader's address: the document, the app's scripts, the API calls, then the page.
      await closeContexts();
      await serverSettled();
      // BENCH_COLD_TRACE=<file>: the first run's cold load under a browser-wide trace (every process and
      // thread: the renderer's main thread, the decode workers, the raster and image-decode threads).
      const coldTrace = run === 0 ? process.env.BENCH_COLD_TRACE : undefined;
      if (coldTrace) await browser.startTracing(undefined, { path: coldTrace, screenshots: false, categories: process.env.BENCH_COLD_TRACE_CATEGORIES?.split(',') });
      const cold = await freshPage({ animations: false }, readerPath(book.id), (page) => {
        watching.cold = watchRequests(page, book.id, 1);
      });
      const painted = await firstPaint(cold);
      if (coldTrace) await browser.stopTracing();
      firstPage.coldLoad.push(painted);
      const readerView = await withinDeadline(
        cold,
        "the reader's own view",
        cold.waitForFunction(() => (window as unknown as { folioReaderViewPaint: number | null }).folioReaderViewPaint).then((handle) => handle.jsonValue() as Promise<number>),
      );
      firstPage.coldReaderView.push(readerView);
      if (watching.cold) waterfalls.push(await watching.cold.finish(painted));
      await closeContexts();
      console.log(`  run ${run + 1}: floor ${firstPage.floor.at(-1)!.toFixed(0)} / ${firstPage.floorScaled.at(-1)!.toFixed(0)} ms, from the book screen ${firstPage.inApp.at(-1)!.toFixed(0)} ms (pointing at Read ${firstPage.pointed.at(-1)!.toFixed(0)} ms), cold ${painted.toFixed(0)} ms (img floor ${firstPage.img.at(-1)!.toFixed(0)} ms, reader's view ${readerView.toFixed(0)} ms); first decode fresh ${firstDecodes.fresh.at(-1)!.toFixed(0)}, started ${firstDecodes.started.at(-1)!.toFixed(0)}, main ${firstDecodes.main.at(-1)!.toFixed(0)} ms`);
    }

    // The first frame a cold load paints from the document's image, against the reader's canvas that
    // replaces it: the main bundle is held until the image is up, then the two are compared pixel by pixel.
    let frameQuality: FirstFrameQuality | null = null;
    if (PARTS.has('first') && process.env.BENCH_FIRST_QUALITY !== '0') {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const held = await freshPage({ animations: false }, readerPath(book.id), async (page) => {
        await page.route(/\/assets\/main-[^/]*\.js$/, async (route) => {
          await released;
          await route.continue();
        });
      });
      frameQuality = await withinDeadline(held, 'first frame against the reader', firstFrameQuality(held, release, 1, large[0]!.bytes, DPR)).catch((error: unknown) => {
        console.warn('the first frame could not be compared with the reader\'s:', error);
        return null;
      });
      await closeContexts();
      if (frameQuality) console.log('first frame (the document\'s image) against the reader\'s canvas and a Lanczos resize of the page:', JSON.stringify(frameQuality));
    }

    if (PARTS.has('first')) {
      console.log('first page, median ms:', Object.fromEntries(Object.entries(firstPage).map(([key, values]) => [key, summarise(values).median.toFixed(1)])));
      console.log('first decode of the page\'s bytes, median ms:', Object.fromEntries(Object.entries(firstDecodes).map(([key, values]) => [key, summarise(values).median.toFixed(1)])));
      console.log('from the book screen (ms since the navigation):');
      console.log(waterfallTable(medianWaterfall(inAppWaterfalls), inAppWaterfalls.length).join('\n'));
      console.log('cold load (ms since navigation start):');
      console.log(waterfallTable(medianWaterfall(waterfalls), waterfalls.length).join('\n'));
    }
    // 3. Page turns. Folio with the slide animation off (a deliberate 180 ms effect, not the pipeline).
    const turnSettings = { animations: false, debugOverlay: true };
    const turnResults = PARTS.has('turns') ? await (async () => {
      console.log(`page turns: Folio reader (${TURNS} turns), naive <img> readers…`);
      const folioPage = await freshPage(turnSettings, readerPath(book.id));
      await folioPage.waitForSelector('[data-testid="reader-canvas"][data-painted-page="1"]', { timeout: 60_000 });
      const folioPreloaded = await folioTurns(folioPage, TURNS, PAUSE_MS, true);
      // A few more preloaded turns under a DevTools trace: where their main-thread time goes.
      const tracedTurns = 5;
      const traced = await traceMainThread(folioPage, async () => {
        await folioTurns(folioPage, tracedTurns, PAUSE_MS, true);
      });
      const trace = { turns: tracedTurns, top: traced.slice(0, 12) };
      const rapidPage = await freshPage(turnSettings, readerPath(book.id));
      await rapidPage.waitForSelector('[data-testid="reader-canvas"][data-painted-page="1"]', { timeout: 60_000 });
      const folioRapid = await folioTurns(rapidPage, RAPID_TURNS, 50, false);
      // Ten fast turns at 50 ms from a freshly opened book, once its page is up and a reading pause went by.
      const framesPage = await freshPage(turnSettings, readerPath(book.id));
      await framesPage.waitForSelector('[data-testid="reader-canvas"][data-painted-page="1"]', { timeout: 60_000 });
      await framesPage.waitForTimeout(PAUSE_MS);
      const rapidFrames = await rapidTurnFrames(framesPage, 10, 50);
      console.log('  fast turns, frames:', rapidFrames);
      await closeContexts();
      const naivePage = await benchPage();
      const naive = await naivePage.evaluate(({ urls, pause }) => window.folioBench.naiveReaderTurns(urls, pause), {
        urls: pageUrls(book.id, 1, NAIVE_TURNS + 1, 'naive'),
        pause: PAUSE_MS,
      });
      const floor = await naivePage.evaluate(
        ({ urls, size, css, turns, pause }) => window.folioBench.canvasTurnFloor(urls, size, css, turns, pause),
        { urls: pageUrls(book.id, 1, DISTINCT_IMAGES, 'turn-floor'), size: screenFit(LARGE), css: VIEWPORT, turns: TURNS, pause: PAUSE_MS },
      );
      const preloadingImg = await naivePage.evaluate(({ urls, pause }) => window.folioBench.preloadingImgReaderTurns(urls, pause), {
        urls: pageUrls(book.id, 1, NAIVE_TURNS + 1, 'preload'),
        pause: PAUSE_MS,
      });
      await closeContexts();
      return {
        pauseMs: PAUSE_MS,
        preloaded: {
          ...summarise(folioPreloaded.painted),
          preloadedTurns: folioPreloaded.preloaded,
          longTasks: folioPreloaded.longTasks,
          longTaskTime: folioPreloaded.longTaskTime,
        },
        cold: { ...summarise(folioRapid.painted), shown: summarise(folioRapid.shown), longTasks: folioRapid.longTasks },
        rapidFrames,
        trace,
        naive: { ...summarise(naive.latencies), longTasks: naive.longTasks, longTaskTime: naive.longTaskTime },
        floor: { ...summarise(floor.latencies), longTasks: floor.longTasks, longTaskTime: floor.longTaskTime },
        preloadingImg: { ...summarise(preloadingImg.latencies), longTasks: preloadingImg.longTasks, longTaskTime: preloadingImg.longTaskTime },
      };
    })() : null;

    // 4. Webtoon: the same scroll over Folio's webtoon view and over a column of lazy <img>s, at each speed.
    const pageHeight = (VIEWPORT.width * (1 - (2 * SIDE_PADDING) / 100) * STRIP.height) / STRIP.width;
    const webtoonRuns = [];
    for (const speed of PARTS.has('webtoon') ? SCROLL_SPEEDS : []) {
      console.log(`webtoon: scrolling a ${strip.pages}-page strip at ${speed} px/s for ${SCROLL_SECONDS} s, Folio then naive…`);
      const webtoonPage = await freshPage(
        { readingDirection: 'WEBTOON', sidePadding: SIDE_PADDING, debugOverlay: true, animations: false },
        readerPath(strip.id),
      );
      await webtoonPage.waitForSelector('[data-testid="reader-webtoon"] [data-page="1"] canvas[data-painted="true"]', { timeout: 60_000 });
      const traceFile = process.env.BENCH_TRACE_FILE?.replace(/(\.json)?$/, `-webtoon-${speed}.json`);
      const folioScroll = await scrollWithHeap(webtoonPage, folioWebtoon(pageHeight), speed, traceFile);
      await closeContexts();
      const naiveStripPage = await benchPage();
      await naiveStripPage.evaluate(
        ({ urls, width, height }) => window.folioBench.mountNaiveWebtoon(urls, width, height),
        { urls: pageUrls(strip.id, 1, strip.pages, `strip${speed}`), width: STRIP.width, height: STRIP.height },
      );
      await naiveStripPage.waitForFunction(() => document.querySelector<HTMLImageElement>('[data-testid="naive-webtoon"] img')?.complete);
      const naiveScroll = await scrollWithHeap(naiveStripPage, naiveWebtoon(pageHeight), speed);
      await closeContexts();
      webtoonRuns.push({ speed, folio: describeScroll(folioScroll), naive: describeScroll(naiveScroll) });
      console.log(`  Folio dropped ${webtoonRuns.at(-1)!.folio.droppedFrames}, naive ${webtoonRuns.at(-1)!.naive.droppedFrames}`);
    }

    const cpu = cpus();
    const results: ReaderBenchResults = {
      date: new Date().toISOString(),
      quick: QUICK,
      machine: {
        cpus: `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}`,
        node: process.version,
        chromium: browser.version(),
        loadAverageAtStart: loadAtStart.map((value) => Number(value.toFixed(2))),
        loadAverageAtEnd: loadavg().map((value) => Number(value.toFixed(2))),
      },
      viewport: { ...VIEWPORT, dpr: DPR },
      decode: { rounds: DECODE_ROUNDS, groups: decodes },
      firstPage: {
        page: `${LARGE.width}×${LARGE.height} JPEG, ${averageBytes(large).toFixed(1)} MB`,
        runs: FIRST_PAGE_RUNS,
        floor: summarise(firstPage.floor),
        floorScaled: summarise(firstPage.floorScaled),
        waterfall: medianWaterfall(waterfalls),
        inAppWaterfall: medianWaterfall(inAppWaterfalls),
        firstDecode: { fresh: summarise(firstDecodes.fresh), started: summarise(firstDecodes.started), main: summarise(firstDecodes.main) },
        naive: summarise(firstPage.naive),
        img: summarise(firstPage.img),
        inApp: summarise(firstPage.inApp),
        pointed: summarise(firstPage.pointed),
        coldLoad: summarise(firstPage.coldLoad),
        coldReaderView: summarise(firstPage.coldReaderView),
      },
      turns: turnResults,
      webtoon: { pages: strip.pages, strip: `${STRIP.width}×${STRIP.height}`, seconds: SCROLL_SECONDS, runs: webtoonRuns },
    };
    if (!['decode', 'first', 'turns', 'webtoon'].every((part) => PARTS.has(part))) {
      console.log('BENCH_PARTS: a partial run writes no report; its figures:');
      console.log(JSON.stringify({ decode: results.decode, turns: results.turns, webtoon: results.webtoon }, null, 2));
      return;
    }
    const report = readerReport(results);
    console.log(`\n${report}`);
    await mkdir(join(repoRoot, 'bench/results'), { recursive: true });
    // Before/after comparisons of past changes (measured once, by hand, each with its load) stay
    // in bench/results/before-after.md and are kept at the end of the generated report.
    const beforeAfter = await readFile(join(repoRoot, 'bench/results/before-after.md'), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    await writeFile(join(repoRoot, 'bench/RESULTS.md'), beforeAfter ? `${report}\n${beforeAfter}` : report);
    await writeFile(join(repoRoot, 'bench/results/reader.json'), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await browser?.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

/** Dropped frames: each frame gap of k display intervals (60 Hz) lost k − 1 frames. */
function describeScroll({ run, heapBefore, heapAfter }: { run: WebtoonScrollRun; heapBefore: number; heapAfter: number }) {
  const interval = 1000 / 60;
  const dropped = run.frameGaps.reduce((sum, gap) => sum + Math.max(0, Math.round(gap / interval) - 1), 0);
  const expected = Math.max(1, Math.round(run.elapsedMs / interval));
  return {
    frames: run.frames,
    expectedFrames: expected,
    droppedFrames: dropped,
    droppedPercent: (100 * dropped) / expected,
    frameGap: summarise(run.frameGaps),
    worstFrameGap: Math.max(0, ...run.frameGaps),
    pagesPassed: run.pagesPassed,
    pixelsScrolled: Math.round(run.pixelsScrolled),
    bitmapHighWaterMB: run.maxCacheMB,
    bitmapAtEndMB: run.lastCacheMB,
    bitmapBudgetMB: run.cacheBudgetMB,
    maxMountedCanvases: run.maxMountedCanvases,
    blankFrames: run.blankFrames,
    heapBeforeMB: heapBefore / 1e6,
    heapAfterMB: heapAfter / 1e6,
    heapGrowthMB: (heapAfter - heapBefore) / 1e6,
  };
}

export type ScrollSummary = ReturnType<typeof describeScroll>;

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  await runReaderBench();
  // Vite's build leaves handles open; the benchmark is done.
  process.exit(0);
}

/**
 * Runs inside headless Chromium on the Folio server's origin (so page requests carry the session
 * cookie). Exposes the measurements to bench/reader.ts as window.folioBench.
 */
import { DecodePool } from '../../src/workers/DecodePool.ts';
import type { DecodeMethod } from '../../src/workers/decode-protocol.ts';
import { PrefetchedBytes } from '../../src/workers/PrefetchedBytes.ts';
import { scaledDecode } from '../../src/workers/scaledDecode.ts';

interface Size {
  width: number;
  height: number;
}

export interface DecodeRun {
  /** Per page: from asking to having the page's pixels drawn on a canvas, ms. */
  totals: number[];
  /** Longest gap between animation frames while the run went on (what the reader feels as stutter). */
  worstFrameGap: number;
  /** Sum of long tasks (> 50 ms) on the main thread during the run. */
  longTaskTime: number;
}

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

/** Watches the main thread while `work` runs: frame gaps and long tasks. */
async function watchMainThread(work: () => Promise<number[]>): Promise<DecodeRun> {
  let longTaskTime = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTaskTime += entry.duration;
  });
  observer.observe({ type: 'longtask', buffered: false });
  let running = true;
  let worstFrameGap = 0;
  const frames = (async () => {
    let last = await nextFrame();
    while (running) {
      const now = await nextFrame();
      worstFrameGap = Math.max(worstFrameGap, now - last);
      last = now;
    }
  })();
  const totals = await work();
  running = false;
  await frames;
  observer.disconnect();
  return { totals, worstFrameGap, longTaskTime };
}

function drawingSurface(size: Size): CanvasRenderingContext2D {
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  return context;
}

/** Reading one pixel back forces the draw to really happen now, so its cost is inside the timing. */
function flush(context: CanvasRenderingContext2D): void {
  context.getImageData(0, 0, 1, 1);
}

/**
 * The reader's pool decoding each page to `size`: `method` 'auto' is the reader's path (a scaled
 * ImageDecoder decode for JPEG, given the natural size), 'bitmap' the previous one (createImageBitmap).
 */
async function decodeInWorkers(urls: string[], size: Size, natural: Size, method: DecodeMethod): Promise<DecodeRun> {
  const pool = new DecodePool();
  // Start the workers before timing, as the reader's shared pool is warm after the first page.
  await pool.decode({ url: urls[0] as string, size: { width: 8, height: 8 } }).then(({ bitmap }) => bitmap.close());
  const context = drawingSurface(size);
  try {
    return await watchMainThread(async () => {
      const totals: number[] = [];
      for (const url of urls) {
        const start = performance.now();
        const { bitmap } = await pool.decode({ url, size, natural, method });
        context.drawImage(bitmap, 0, 0);
        flush(context);
        totals.push(performance.now() - start);
        bitmap.close();
      }
      return totals;
    });
  } finally {
    pool.terminate();
  }
}

async function decodeOnMainThread(urls: string[], size: Size): Promise<DecodeRun> {
  const context = drawingSurface(size);
  return watchMainThread(async () => {
    const totals: number[] = [];
    for (const url of urls) {
      const start = performance.now();
      const image = new Image();
      image.src = url;
      await image.decode();
      // The resize to screen size happens here, on the main thread.
      context.drawImage(image, 0, 0, size.width, size.height);
      flush(context);
      totals.push(performance.now() - start);
    }
    return totals;
  });
}

export interface TurnRun {
  /** Per turn: from the turn to the new page on screen (the frame after it was decoded), ms. */
  latencies: number[];
  /** Long tasks (> 50 ms) on the main thread over the whole reading session, turns and pauses. */
  longTasks: number;
  longTaskTime: number;
}

/** Counts the main thread's long tasks while `work` runs. */
async function withLongTasks(work: () => Promise<number[]>): Promise<TurnRun> {
  let longTasks = 0;
  let longTaskTime = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      longTasks++;
      longTaskTime += entry.duration;
    }
  });
  observer.observe({ type: 'longtask', buffered: false });
  const latencies = await work();
  // Entries are delivered asynchronously; give the last ones a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  return { latencies, longTasks, longTaskTime };
}

/**
 * The least a first page can cost: fetch its bytes and decode them to screen size, nothing else
 * (no app, no API calls, no worker start-up), then one frame.
 */
async function firstPageFloor(url: string, size: Size): Promise<number> {
  const context = drawingSurface(size);
  const start = performance.now();
  const blob = await (await fetch(url, { credentials: 'include' })).blob();
  const bitmap = await createImageBitmap(blob, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' });
  context.drawImage(bitmap, 0, 0);
  flush(context);
  await nextFrame();
  bitmap.close();
  return performance.now() - start;
}

/** The same floor with the scaled decode (ImageDecoder at a reduced JPEG scale + exact resize). */
async function firstPageFloorScaled(url: string, size: Size, natural: Size): Promise<number> {
  const context = drawingSurface(size);
  const start = performance.now();
  const blob = await (await fetch(url, { credentials: 'include' })).blob();
  const decoded = await scaledDecode(blob, size, natural);
  const bitmap = decoded?.bitmap ?? (await createImageBitmap(blob, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' }));
  context.drawImage(bitmap, 0, 0);
  flush(context);
  await nextFrame();
  bitmap.close();
  return performance.now() - start;
}

/** A naive reader opening a book: an <img> showing page 1; time until it is decoded and a frame went by. */
async function naiveFirstPage(url: string): Promise<number> {
  const image = document.createElement('img');
  image.className = 'naive';
  const start = performance.now();
  image.src = url;
  document.body.append(image);
  await image.decode();
  await nextFrame();
  const elapsed = performance.now() - start;
  image.remove();
  return elapsed;
}

/**
 * The browser's own path, as a cold load's first frame takes it (src/ui/reader/openingImage.ts): an
 * `<img>` of the page drawn at `css` size, kept hidden until every byte is in, then shown; time until
 * its Element Timing render time (the frame that showed it decoded, at the drawn size).
 */
async function imgFirstPage(url: string, css: Size): Promise<number> {
  const image = document.createElement('img');
  image.hidden = true;
  image.decoding = 'sync';
  image.setAttribute('fetchpriority', 'high');
  image.setAttribute('elementtiming', 'bench-img-floor');
  image.style.cssText = `position:fixed;left:0;top:0;width:${css.width}px;height:${css.height}px`;
  const start = performance.now();
  const rendered = new Promise<number>((resolve) => {
    const observer = new PerformanceObserver((list) => {
      const entry = (list.getEntries() as (PerformanceEntry & { renderTime?: number; element?: Element | null })[]).find((candidate) => candidate.element === image);
      if (!entry) return;
      observer.disconnect();
      resolve(entry.renderTime || performance.now());
    });
    observer.observe({ type: 'element' });
  });
  image.src = url;
  document.body.append(image);
  await new Promise((resolve, reject) => {
    image.onload = resolve;
    image.onerror = reject;
  });
  image.hidden = false;
  const at = await rendered;
  image.remove();
  return at - start;
}

/**
 * Decoding one page's bytes (already downloaded) to `size`, the first thing done by: a worker started
 * that moment ('fresh': what a reader that starts its workers with the book pays), a worker started
 * `settleMs` earlier ('started': started ahead, e.g. from the book screen, with its decoder warmed up at start-up), or the main
 * thread. Times the decode and the draw, not the download.
 */
async function firstDecode(url: string, size: Size, natural: Size, where: 'fresh' | 'started' | 'main', settleMs: number): Promise<number> {
  const response = await fetch(url, { credentials: 'include' });
  const blob = await response.blob();
  const context = drawingSurface(size);
  const bytes = new PrefetchedBytes({ fetch: () => Promise.resolve(new Response(blob, { headers: { 'Content-Type': blob.type } })) });
  let pool: DecodePool | null = null;
  if (where === 'started') {
    pool = new DecodePool({ size: 1, prefetched: bytes });
    pool.warmUp();
    await new Promise((resolve) => setTimeout(resolve, settleMs));
  }
  bytes.prefetch(url);
  const start = performance.now();
  let bitmap: ImageBitmap;
  if (where === 'main') {
    bitmap = (await scaledDecode(blob, size, natural))?.bitmap ?? (await createImageBitmap(blob, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' }));
  } else {
    pool ??= new DecodePool({ size: 1, prefetched: bytes });
    bitmap = (await pool.decode({ url, size, natural })).bitmap;
  }
  context.drawImage(bitmap, 0, 0);
  flush(context);
  const elapsed = performance.now() - start;
  bitmap.close();
  pool?.terminate();
  return elapsed;
}

/**
 * A naive webtoon reader: a scrolling column of lazy-loading <img>s, with the same 25 % side padding
 * as Folio's webtoon view; bench/support/webtoon-scroll.ts then scrolls it like the real one.
 */
function mountNaiveWebtoon(urls: string[], width: number, height: number): void {
  const strip = document.createElement('div');
  strip.dataset.testid = 'naive-webtoon';
  strip.style.cssText = 'position:fixed;inset:0;overflow-y:auto;background:#000';
  for (const url of urls) {
    const image = document.createElement('img');
    image.loading = 'lazy';
    image.decoding = 'async';
    image.width = width;
    image.height = height;
    image.style.cssText = 'display:block;width:50%;height:auto;margin:0 25%';
    image.src = url;
    strip.append(image);
  }
  document.body.append(strip);
}

/** A naive reader: one <img>, its src swapped on each turn; time until the new page is on screen. */
function naiveReaderTurns(urls: string[], pauseMs: number): Promise<TurnRun> {
  return withLongTasks(() => naiveTurnLatencies(urls, pauseMs));
}

async function naiveTurnLatencies(urls: string[], pauseMs: number): Promise<number[]> {
  const image = document.createElement('img');
  image.className = 'naive';
  document.body.append(image);
  image.src = urls[0] as string;
  await image.decode();
  const latencies: number[] = [];
  for (const url of urls.slice(1)) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const start = performance.now();
    image.src = url;
    await image.decode();
    await nextFrame();
    latencies.push(performance.now() - start);
  }
  image.remove();
  return latencies;
}

/**
 * A better naive reader: the same <img>, plus a hidden <img> that loads and decodes the next page
 * while the current one is read (what a careful <img>-based reader would do).
 */
function preloadingImgReaderTurns(urls: string[], pauseMs: number): Promise<TurnRun> {
  return withLongTasks(() => preloadingImgTurnLatencies(urls, pauseMs));
}

async function preloadingImgTurnLatencies(urls: string[], pauseMs: number): Promise<number[]> {
  const image = document.createElement('img');
  image.className = 'naive';
  document.body.append(image);
  image.src = urls[0] as string;
  await image.decode();
  const latencies: number[] = [];
  let ahead: Promise<void> = Promise.resolve();
  const preload = (url: string | undefined) => {
    if (!url) return;
    const hidden = new Image();
    hidden.src = url;
    ahead = hidden.decode().catch(() => {});
  };
  preload(urls[1]);
  for (const [index, url] of urls.slice(1).entries()) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const start = performance.now();
    image.src = url;
    await image.decode();
    await nextFrame();
    latencies.push(performance.now() - start);
    await ahead;
    preload(urls[index + 2]);
  }
  image.remove();
  return latencies;
}

/**
 * The least a preloaded turn can cost: a canvas the size of the viewport (device pixels) and pages
 * already decoded to screen size; a turn is a fill plus one drawImage, then one frame. Timed the way
 * the reader's turns are (a timer fires after the pause, the turn, the next animation frame), so
 * the two figures share the same scheduling noise. `urls` are decoded once and turned through in a cycle.
 */
async function canvasTurnFloor(urls: string[], size: Size, css: Size, turns: number, pauseMs: number): Promise<TurnRun> {
  const bitmaps = await Promise.all(
    urls.map(async (url) => {
      const response = await fetch(url);
      return createImageBitmap(await response.blob(), { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'high' });
    }),
  );
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(css.width * devicePixelRatio);
  canvas.height = Math.round(css.height * devicePixelRatio);
  canvas.style.cssText = `position:fixed;inset:0;width:${css.width}px;height:${css.height}px`;
  document.body.append(canvas);
  const context = canvas.getContext('2d', { alpha: false });
  if (!context) throw new Error('no 2d context');
  const draw = (bitmap: ImageBitmap) => {
    context.fillStyle = '#000';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, Math.round((canvas.width - size.width) / 2), 0, size.width, size.height);
  };
  draw(bitmaps[0] as ImageBitmap);
  await nextFrame();
  try {
    return await withLongTasks(async () => {
      const latencies: number[] = [];
      for (let turn = 1; turn <= turns; turn++) {
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        const start = performance.now();
        draw(bitmaps[turn % bitmaps.length] as ImageBitmap);
        await nextFrame();
        latencies.push(performance.now() - start);
      }
      return latencies;
    });
  } finally {
    canvas.remove();
    for (const bitmap of bitmaps) bitmap.close();
  }
}

declare global {
  interface Window {
    folioBench: {
      decodeInWorkers: typeof decodeInWorkers;
      decodeOnMainThread: typeof decodeOnMainThread;
      naiveReaderTurns: typeof naiveReaderTurns;
      preloadingImgReaderTurns: typeof preloadingImgReaderTurns;
      firstPageFloor: typeof firstPageFloor;
      firstPageFloorScaled: typeof firstPageFloorScaled;
      firstDecode: typeof firstDecode;
      naiveFirstPage: typeof naiveFirstPage;
      imgFirstPage: typeof imgFirstPage;
      mountNaiveWebtoon: typeof mountNaiveWebtoon;
      canvasTurnFloor: typeof canvasTurnFloor;
    };
  }
}

window.folioBench = {
  decodeInWorkers,
  decodeOnMainThread,
  naiveReaderTurns,
  preloadingImgReaderTurns,
  firstPageFloor,
  firstPageFloorScaled,
  firstDecode,
  naiveFirstPage,
  imgFirstPage,
  mountNaiveWebtoon,
  canvasTurnFloor,
};

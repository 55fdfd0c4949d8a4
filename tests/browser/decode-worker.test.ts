import { afterAll, describe, expect, it, vi } from 'vitest';
import { DECODE_MEASURE, DecodePool, PageDecodeError, WORKER_READY_MARK } from '../../src/workers/DecodePool.ts';
import { PrefetchedBytes } from '../../src/workers/PrefetchedBytes.ts';
import { decodeBlob } from '../../src/workers/decodeBlob.ts';
import { scaledDecode, scaledDecodeOf, scaledDecodeSize } from '../../src/workers/scaledDecode.ts';

type Rgb = [number, number, number];

const urls: string[] = [];
// Real decoding on a busy machine: allow each test a full minute rather than the default five seconds.
vi.setConfig({ testTimeout: 60_000 });

/** An image of one solid colour in the given format. */
async function solidImage(width: number, height: number, [r, g, b]: Rgb, type: string): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.fillStyle = `rgb(${r}, ${g}, ${b})`;
  context.fillRect(0, 0, width, height);
  return canvas.convertToBlob({ type, quality: 0.95 });
}

/** A PNG of one solid colour, served from a blob: URL the workers can fetch. */
async function solidPng(width: number, height: number, colour: Rgb): Promise<string> {
  const url = URL.createObjectURL(await solidImage(width, height, colour, 'image/png'));
  urls.push(url);
  return url;
}

function bytesUrl(bytes: Uint8Array<ArrayBuffer>, type: string): string {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  urls.push(url);
  return url;
}

function colourAt(bitmap: ImageBitmap, x: number, y: number): Rgb {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.drawImage(bitmap, 0, 0);
  const [r = 0, g = 0, b = 0] = context.getImageData(x, y, 1, 1).data;
  return [r, g, b];
}

const pool = new DecodePool({ size: 2 });

afterAll(() => {
  pool.terminate();
  for (const url of urls) URL.revokeObjectURL(url);
});

describe('DecodePool with real workers', () => {
  it('warmUp starts every worker before any job, and the warmed workers decode', async () => {
    const warm = new DecodePool({ size: 3 });
    expect(warm.workers).toBe(0);
    warm.warmUp();
    expect(warm.workers).toBe(3);
    warm.warmUp();
    expect(warm.workers).toBe(3);
    const url = await solidPng(40, 60, [10, 200, 10]);
    const { bitmap } = await warm.decode({ url, size: { width: 20, height: 30 } });
    expect([bitmap.width, bitmap.height]).toEqual([20, 30]);
    expect(warm.workers).toBe(3);
    bitmap.close();
    warm.terminate();
  });

  it('decodes a page in a worker, resized to the requested device-pixel size, colours intact', async () => {
    const url = await solidPng(800, 1200, [200, 30, 90]);
    const { bitmap, naturalWidth } = await pool.decode({ url, size: { width: 200, height: 300 } });
    expect(bitmap).toBeInstanceOf(ImageBitmap);
    expect([bitmap.width, bitmap.height]).toEqual([200, 300]);
    expect(naturalWidth).toBeNull();
    for (const [x, y] of [
      [0, 0],
      [100, 150],
      [199, 299],
    ] as const) {
      const [r, g, b] = colourAt(bitmap, x, y);
      expect(Math.abs(r - 200)).toBeLessThanOrEqual(2);
      expect(Math.abs(g - 30)).toBeLessThanOrEqual(2);
      expect(Math.abs(b - 90)).toBeLessThanOrEqual(2);
    }
    bitmap.close();
  });

  it('measures a page of unknown size and shrinks it to fit a box, keeping its shape', async () => {
    const url = await solidPng(1000, 500, [0, 128, 255]);
    const fitted = await pool.decode({ url, fitWithin: { width: 400, height: 400 } });
    expect([fitted.bitmap.width, fitted.bitmap.height]).toEqual([400, 200]);
    expect([fitted.naturalWidth, fitted.naturalHeight]).toEqual([1000, 500]);
    expect(colourAt(fitted.bitmap, 10, 10)).toEqual([0, 128, 255]);
    fitted.bitmap.close();

    const small = await pool.decode({ url, fitWithin: { width: 4000, height: 4000 } });
    expect([small.bitmap.width, small.bitmap.height]).toEqual([1000, 500]);
    small.bitmap.close();
  });

  it('runs many decodes across the pool, each answer going to its own request', async () => {
    const colours: Rgb[] = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 0],
      [0, 255, 255],
      [255, 0, 255],
    ];
    const sources = await Promise.all(colours.map((colour) => solidPng(64, 64, colour)));
    const results = await Promise.all(
      sources.map((url, index) => pool.decode({ url, size: { width: 16 + index, height: 16 + index } })),
    );
    results.forEach(({ bitmap }, index) => {
      expect(bitmap.width).toBe(16 + index);
      expect(bitmap.height).toBe(16 + index);
      expect(colourAt(bitmap, 5, 5)).toEqual(colours[index]);
      bitmap.close();
    });
    expect(pool.workers).toBe(2);
    expect(pool.running + pool.queued).toBe(0);
  });

  it('keeps a page in its own shape when its listed size has another one, and reports its real size', async () => {
    // Stored 160 × 80 with EXIF orientation 6: the browser decodes it turned, 80 × 160. Listed at the
    // stored size (an analysis from before orientation counted), it is asked at 80 × 40; stretched to
    // that, it would be squashed. It comes back 20 × 40 (its shape, within the size asked) and says
    // it is the listed size turned a quarter, so the view lays it out anew.
    const stored = new Uint8Array(await (await solidImage(160, 80, [200, 0, 0], 'image/jpeg')).arrayBuffer());
    const exif = [0xff, 0xe1, 0, 34, 0x45, 0x78, 0x69, 0x66, 0, 0, 0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0];
    const turned = new Uint8Array([...stored.subarray(0, 2), ...exif, ...stored.subarray(2)]);
    const url = bytesUrl(turned, 'image/jpeg');
    const decoded = await pool.decode({ url, size: { width: 80, height: 40 }, natural: { width: 160, height: 80 } });
    expect([decoded.bitmap.width, decoded.bitmap.height, decoded.naturalWidth, decoded.naturalHeight]).toEqual([20, 40, 80, 160]);
    decoded.bitmap.close();
    // A square PNG asked wide: square.
    const square = await pool.decode({ url: await solidPng(64, 64, [0, 0, 255]), size: { width: 21, height: 16 } });
    expect([square.bitmap.width, square.bitmap.height]).toEqual([16, 16]);
    square.bitmap.close();
  });

  it('cancels: an aborted request rejects with AbortError, queued ones never run, the pool stays usable', async () => {
    const url = await solidPng(2000, 2000, [10, 20, 30]);
    const early = new AbortController();
    early.abort();
    await expect(pool.decode({ url, size: { width: 50, height: 50 } }, early.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });

    // Fill both workers (two jobs each) so the next ones wait in the queue, then cancel everything.
    const controllers = Array.from({ length: 8 }, () => new AbortController());
    const pending = controllers.map((controller) =>
      pool.decode({ url, size: { width: 1000, height: 1000 } }, controller.signal),
    );
    expect(pool.queued).toBe(4);
    for (const controller of controllers) controller.abort();
    expect(pool.queued).toBe(0);
    const outcomes = await Promise.allSettled(pending);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ name: 'AbortError' });
    }

    const after = await pool.decode({ url, size: { width: 10, height: 10 } });
    expect(colourAt(after.bitmap, 5, 5)).toEqual([10, 20, 30]);
    after.bitmap.close();
  });

  it('runs the most urgent queued request first', async () => {
    const single = new DecodePool({ size: 1, perWorker: 1 });
    try {
      const url = await solidPng(32, 32, [1, 2, 3]);
      const finished: string[] = [];
      const track = (label: string, priority: number) =>
        single.decode({ url, size: { width: 8, height: 8 }, priority }).then(({ bitmap }) => {
          bitmap.close();
          finished.push(label);
        });
      // The first job starts at once; the rest queue and must run by priority, not arrival.
      await Promise.all([track('first', 5), track('behind', 4), track('ahead', 1), track('current', 0)]);
      expect(finished).toEqual(['first', 'current', 'ahead', 'behind']);
    } finally {
      single.terminate();
    }
  });

  it('rejects bytes that are not an image with a clear decode error', async () => {
    const url = bytesUrl(new TextEncoder().encode('this is not a picture'), 'image/jpeg');
    const failure = await pool.decode({ url, size: { width: 10, height: 10 } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PageDecodeError);
    expect((failure as PageDecodeError).reason).toBe('decode');
    expect((failure as PageDecodeError).message).toMatch(/not a decodable image/);
    expect((failure as PageDecodeError).url).toBe(url);
  });

  it('reports a page that cannot be fetched as a network failure', async () => {
    // Port 1 on the loopback refuses connections at once.
    const url = 'http://127.0.0.1:1/page.png';
    const failure = await pool.decode({ url, size: { width: 4, height: 4 } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PageDecodeError);
    expect((failure as PageDecodeError).reason).toBe('network');
  });

  it('whenReady starts the pool and resolves once a worker answers: a page fetched ahead then is that worker\'s download', async () => {
    const prefetched = new PrefetchedBytes();
    const one = new DecodePool({ size: 1, prefetched });
    try {
      await one.whenReady();
      expect(one.workers).toBe(1);
      const url = await solidPng(40, 60, [30, 60, 200]);
      one.fetchAhead(url);
      // Not through the main thread, as it would be while no worker is up.
      expect(prefetched.has(url)).toBe(false);
      const { bitmap } = await one.decode({ url, size: { width: 20, height: 30 } });
      bitmap.close();
      const decodes = performance.getEntriesByName(DECODE_MEASURE).map((entry) => (entry as PerformanceMeasure).detail as { url: string; fetchedAhead: boolean });
      expect(decodes.filter((detail) => detail.url === url)).toEqual([expect.objectContaining({ fetchedAhead: true })]);
    } finally {
      one.terminate();
    }
  });

  it('whenReady rejects when no worker can start, instead of waiting for ever', async () => {
    const broken = new DecodePool({
      size: 2,
      createWorker: () => new Worker(URL.createObjectURL(new Blob(['throw new Error("script failed");'], { type: 'text/javascript' }))),
    });
    try {
      const failure = await broken.whenReady().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toBe('No decode worker started');
    } finally {
      broken.terminate();
    }
  });

  it('a worker that crashes fails its jobs instead of leaving them hanging, and is replaced', async () => {
    let created = 0;
    const crashing = new DecodePool({
      size: 1,
      createWorker: () => {
        created++;
        // Throws on the first message it gets, as a worker that hit a fatal bug would.
        const source = 'self.onmessage = () => { throw new Error("worker blew up"); };';
        return new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      },
    });
    try {
      const url = await solidPng(4, 4, [0, 0, 0]);
      const failure = await crashing.decode({ url, size: { width: 4, height: 4 } }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PageDecodeError);
      expect((failure as PageDecodeError).reason).toBe('worker');
      expect(crashing.workers).toBe(0);
      await crashing.decode({ url, size: { width: 4, height: 4 } }).catch(() => undefined);
      expect(created).toBe(2);
    } finally {
      crashing.terminate();
    }
  });

  it('an urgent request (negative priority) starts even when every slot is busy', async () => {
    const single = new DecodePool({ size: 1, perWorker: 1 });
    try {
      const url = await solidPng(64, 64, [9, 9, 9]);
      const running = single.decode({ url, size: { width: 8, height: 8 }, priority: 0 });
      const queued = single.decode({ url, size: { width: 8, height: 8 }, priority: 1 });
      expect([single.running, single.queued]).toEqual([1, 1]);
      const urgent = single.decode({ url, size: { width: 8, height: 8 }, priority: -1 });
      expect([single.running, single.queued]).toEqual([2, 1]);
      for (const { bitmap } of await Promise.all([running, queued, urgent])) bitmap.close();
    } finally {
      single.terminate();
    }
  });

  it('never runs more than maxRunning jobs across the pool, leaving connections for the API', async () => {
    const capped = new DecodePool({ size: 2, perWorker: 2, maxRunning: 3 });
    try {
      const url = await solidPng(64, 64, [5, 5, 5]);
      const jobs = Array.from({ length: 5 }, () => capped.decode({ url, size: { width: 8, height: 8 } }));
      expect([capped.running, capped.queued]).toEqual([3, 2]);
      for (const { bitmap } of await Promise.all(jobs)) bitmap.close();
      expect([capped.running, capped.queued]).toEqual([0, 0]);
    } finally {
      capped.terminate();
    }
  });
});

/** A JPEG of one solid colour, as a Blob (typed image/jpeg). */
const solidJpeg = (width: number, height: number, colour: Rgb) => solidImage(width, height, colour, 'image/jpeg');

/** Bytes fetched ahead from `source`, a JPEG, as the main thread would: each address asked is noted in `asked`, after `until`. */
function servingJpeg(source: Blob, asked: string[], until?: Promise<void>): PrefetchedBytes {
  return new PrefetchedBytes({
    fetch: async (input) => {
      asked.push(String(input));
      await until;
      return new Response(source, { headers: { 'Content-Type': 'image/jpeg' } });
    },
  });
}

function expectColour(actual: Rgb, expected: Rgb, tolerance = 6): void {
  actual.forEach((value, index) => expect(Math.abs(value - (expected[index] ?? 0))).toBeLessThanOrEqual(tolerance));
}

describe('decodeBlob at a size (createImageBitmap path)', () => {
  it("takes the browser's own rounding of the height it derives, with no second resize", async () => {
    // 1,987 × 3,001 fitted to 600 wide is 906.1 high: the size asked says 906, Chromium derives 907.
    // A second full resize (an OffscreenCanvas pass) for that pixel would double the cost of the page.
    const blob = await solidImage(1987, 3001, [0, 128, 0], 'image/png');
    const Original = globalThis.OffscreenCanvas;
    let canvases = 0;
    globalThis.OffscreenCanvas = class extends Original {
      constructor(width: number, height: number) {
        super(width, height);
        canvases += 1;
      }
    };
    try {
      const decoded = await decodeBlob(blob, { url: 'unused:', size: { width: 600, height: 906 } });
      expect(canvases).toBe(0);
      expect(decoded.bitmap.width).toBe(600);
      expect(Math.abs(decoded.bitmap.height - 906)).toBeLessThanOrEqual(1);
      decoded.bitmap.close();
      // Asked far from its shape's height (a browser ignoring the resize), it is still resized exactly.
      const wide = await decodeBlob(blob, { url: 'unused:', size: { width: 600, height: 800 } });
      expect(wide.bitmap.width).toBeLessThanOrEqual(600);
    } finally {
      globalThis.OffscreenCanvas = Original;
    }
  });
});

describe('scaled decoding (WebCodecs ImageDecoder)', () => {
  it('decodes a JPEG at a reduced scale, then to exactly the asked size, colours intact', async () => {
    expect(typeof ImageDecoder).toBe('function');
    const blob = await solidJpeg(1600, 2400, [40, 160, 220]);
    // 1600×2400 drawn at 301×451: a quarter scale (400×600) is the smallest still large enough.
    expect(scaledDecodeSize({ width: 1600, height: 2400 }, { width: 301, height: 451 })).toEqual({ width: 400, height: 600 });
    expect(scaledDecodeSize({ width: 1600, height: 2400 }, { width: 1000, height: 1500 })).toEqual({ width: 1600, height: 2400 });
    expect(scaledDecodeSize({ width: 4000, height: 6000 }, { width: 100, height: 150 })).toEqual({ width: 500, height: 750 });
    const decoded = await scaledDecode(blob, { width: 301, height: 451 }, { width: 1600, height: 2400 });
    expect(decoded).not.toBeNull();
    const bitmap = decoded!.bitmap;
    expect([bitmap.width, bitmap.height]).toEqual([301, 451]);
    expectColour(colourAt(bitmap, 150, 225), [40, 160, 220]);
    bitmap.close();
  });

  it('leaves types it cannot handle to createImageBitmap (null), and the pool still decodes them', async () => {
    const box = { width: 10, height: 10 };
    expect(await scaledDecode(new Blob([new Uint8Array([1, 2, 3])], { type: 'application/octet-stream' }), box, box)).toBeNull();
    // Drawn at more than half its size: nothing to gain, createImageBitmap does it.
    expect(await scaledDecode(await solidJpeg(400, 400, [0, 0, 0]), { width: 300, height: 300 }, { width: 400, height: 400 })).toBeNull();
    // Unknown natural size: no scale can be chosen.
    expect(await scaledDecode(await solidJpeg(40, 40, [0, 0, 0]), box, undefined)).toBeNull();
    // A natural size that was wrong (1600 px said to be 1400, so a 700 px half scale is asked): the
    // browser decodes at 3/8 (600 px), smaller than the 650 px drawing, so this path declines.
    expect(await scaledDecode(await solidJpeg(1600, 1600, [0, 0, 0]), { width: 650, height: 650 }, { width: 1400, height: 1400 })).toBeNull();
    const url = await solidPng(300, 300, [90, 90, 90]);
    const { bitmap } = await pool.decode({ url, size: { width: 30, height: 30 } });
    expect([bitmap.width, bitmap.height]).toEqual([30, 30]);
    bitmap.close();
  });

  it('leaves no unhandled rejection when the decoder closes before its stream ended (as Firefox reports one)', async () => {
    // Firefox rejects an ImageDecoder's `completed` when it is closed before the last byte was read,
    // and reports that rejection as unhandled unless the page handles it; Chromium marks it handled
    // itself. The real decoder decodes here; only `completed` behaves as in Firefox.
    const Real = globalThis.ImageDecoder;
    class FirefoxCompleted extends Real {
      constructor(init: ImageDecoderInit) {
        super(init);
        let reject!: (error: unknown) => void;
        const completed = new Promise<void>((resolve, fail) => {
          reject = fail;
          void super.completed.then(resolve, fail);
        });
        const close = this.close.bind(this);
        Object.defineProperty(this, 'completed', { value: completed });
        Object.defineProperty(this, 'close', {
          value: () => {
            reject(new DOMException('Closed decoder', 'AbortError'));
            close();
          },
        });
      }
    }
    const unhandled: unknown[] = [];
    const sentinel = new Error('sentinel: every rejection before it has been reported');
    let sentinelSeen!: () => void;
    const seenSentinel = new Promise<void>((resolve) => (sentinelSeen = resolve));
    const onUnhandled = (event: PromiseRejectionEvent) => {
      event.preventDefault();
      if (event.reason === sentinel) sentinelSeen();
      else unhandled.push(event.reason);
    };
    window.addEventListener('unhandledrejection', onUnhandled);
    globalThis.ImageDecoder = FirefoxCompleted;
    try {
      const bytes = new Uint8Array(await (await solidJpeg(1600, 2400, [30, 120, 210])).arrayBuffer());
      // Every byte is there, but the stream has not ended: the page's first frame is out before it.
      const open = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(bytes) });
      const decoded = await scaledDecodeOf(open, 'image/jpeg', { width: 301, height: 451 }, { width: 1600, height: 2400 });
      expect(decoded).not.toBeNull();
      decoded!.bitmap.close();
      // Rejections are reported in order: once this one is, the decoder's would have been too.
      void Promise.reject(sentinel);
      await seenSentinel;
      expect(unhandled).toEqual([]);
    } finally {
      globalThis.ImageDecoder = Real;
      window.removeEventListener('unhandledrejection', onUnhandled);
    }
  });

  it('the pool gives the same size and colours by the scaled path and by createImageBitmap', async () => {
    const url = URL.createObjectURL(await solidJpeg(2000, 3000, [200, 100, 50]));
    urls.push(url);
    for (const method of ['auto', 'bitmap'] as const) {
      const { bitmap } = await pool.decode({ url, size: { width: 500, height: 750 }, natural: { width: 2000, height: 3000 }, method });
      expect([bitmap.width, bitmap.height]).toEqual([500, 750]);
      expectColour(colourAt(bitmap, 250, 375), [200, 100, 50]);
      bitmap.close();
    }
  });
});

describe('bytes prefetched on the main thread', () => {
  it('a decode of a prefetched page takes those bytes and does not fetch again', async () => {
    const source = await solidJpeg(400, 600, [10, 220, 30]);
    const fetched: string[] = [];
    const prefetched = servingJpeg(source, fetched);
    // Nothing answers at this address: a worker fetching it would fail the decode.
    const url = 'http://127.0.0.1:9/never-fetched.jpg';
    prefetched.prefetch(url);
    const early = new DecodePool({ size: 1, prefetched });
    try {
      const { bitmap } = await early.decode({ url, size: { width: 100, height: 150 } });
      expect([bitmap.width, bitmap.height]).toEqual([100, 150]);
      expectColour(colourAt(bitmap, 50, 75), [10, 220, 30]);
      bitmap.close();
      expect(fetched).toEqual([url]);
      // Taken once: the entry is gone, a second decode fetches (and here fails, nothing listens).
      expect(prefetched.has(url)).toBe(false);
      await expect(early.decode({ url, size: { width: 100, height: 150 } })).rejects.toMatchObject({ reason: 'network' });
    } finally {
      early.terminate();
    }
  });

  it('a prefetch that failed (HTTP 401) makes the worker fetch the page itself', async () => {
    const url = await solidPng(80, 80, [250, 250, 0]);
    const prefetched = new PrefetchedBytes({ fetch: async () => new Response(null, { status: 401 }) });
    prefetched.prefetch(url);
    const early = new DecodePool({ size: 1, prefetched });
    try {
      const { bitmap } = await early.decode({ url, size: { width: 8, height: 8 } });
      expect(colourAt(bitmap, 4, 4)).toEqual([250, 250, 0]);
      bitmap.close();
    } finally {
      early.terminate();
    }
  });

  it('a decode cancelled while its prefetched bytes are still arriving rejects at once and never runs', async () => {
    let release: (response: Response) => void = () => {};
    const prefetched = new PrefetchedBytes({ fetch: () => new Promise<Response>((resolve) => (release = resolve)) });
    const url = 'http://127.0.0.1:9/slow.jpg';
    prefetched.prefetch(url);
    const early = new DecodePool({ size: 1, prefetched });
    try {
      const controller = new AbortController();
      const decoding = early.decode({ url, size: { width: 10, height: 10 } }, controller.signal);
      controller.abort();
      await expect(decoding).rejects.toMatchObject({ name: 'AbortError' });
      release(new Response(await solidJpeg(20, 20, [0, 0, 0])));
      await vi.waitFor(() => expect(prefetched.has(url)).toBe(false));
      expect(early.running + early.queued).toBe(0);
    } finally {
      early.terminate();
    }
  });
});

describe('a decode started ahead of the view (decodeAhead)', () => {
  /** The pool's decodes of `url` that produced a bitmap, as User Timing measures. */
  const decodesOf = (url: string) =>
    performance.getEntriesByName(DECODE_MEASURE).filter((entry) => (entry as PerformanceMeasure).detail?.url === url);

  it('the view asking for the same page at the same size gets that decode: fetched once, decoded once', async () => {
    const source = await solidJpeg(400, 600, [200, 40, 40]);
    const fetched: string[] = [];
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (release = resolve));
    const prefetched = servingJpeg(source, fetched, arrived);
    const url = 'http://127.0.0.1:9/ahead-once.jpg';
    prefetched.prefetch(url);
    const early = new DecodePool({ size: 1, prefetched });
    try {
      early.decodeAhead({ url, size: { width: 100, height: 150 }, natural: { width: 400, height: 600 } });
      release();
      // The decode runs before anybody asks: a measure appears with no decode() call made.
      await vi.waitFor(() => expect(decodesOf(url)).toHaveLength(1));
      // 101×150: a size computed another way may round a pixel apart, and is the same bitmap.
      const { bitmap } = await early.decode({ url, size: { width: 101, height: 150 }, natural: { width: 400, height: 600 } });
      expect([bitmap.width, bitmap.height]).toEqual([100, 150]);
      expectColour(colourAt(bitmap, 50, 75), [200, 40, 40]);
      bitmap.close();
      expect(fetched).toEqual([url]);
      expect(decodesOf(url)).toHaveLength(1);
    } finally {
      early.terminate();
    }
  });

  /** Workers whose script never answers: the pool has none up, however long it waits (a cold load's first 100 ms). */
  const silentWorker = () => {
    const script = URL.createObjectURL(new Blob(['/* never answers */'], { type: 'text/javascript' }));
    urls.push(script);
    return new Worker(script);
  };

  /**
   * A download whose body the test hands out: `send` enqueues bytes, `end` closes it, `fail` breaks it
   * off. Its Response has the page's media type, as the server's has.
   */
  function heldDownload(type: string) {
    let body!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (body = controller) });
    return {
      prefetched: new PrefetchedBytes({ fetch: async () => new Response(stream, { headers: { 'Content-Type': type } }) }),
      send: (bytes: Uint8Array) => body.enqueue(bytes),
      end: () => body.close(),
      fail: () => body.error(new TypeError('network error')),
    };
  }

  /**
   * Counts the bytes every ImageDecoder made on this thread has read of its data, while `body` runs:
   * the real decoder decodes, through a pass-through that counts.
   */
  async function countingDecoderReads<T>(body: (read: () => number) => Promise<T>): Promise<T> {
    const Real = globalThis.ImageDecoder;
    let read = 0;
    class Counting extends Real {
      constructor(init: ImageDecoderInit) {
        const counter = new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            read += chunk.byteLength;
            controller.enqueue(chunk);
          },
        });
        super({ ...init, data: (init.data as ReadableStream<Uint8Array>).pipeThrough(counter) });
      }
    }
    globalThis.ImageDecoder = Counting;
    try {
      return await body(() => read);
    } finally {
      globalThis.ImageDecoder = Real;
    }
  }

  it('on a cold load (no worker up), decodes the page ahead on the main thread from its first bytes, not once all are in', async () => {
    const bytes = new Uint8Array(await (await solidJpeg(1600, 2400, [20, 200, 90])).arrayBuffer());
    const download = heldDownload('image/jpeg');
    const url = 'http://127.0.0.1:9/cold-ahead.jpg';
    const cold = new DecodePool({ size: 1, prefetched: download.prefetched, decodeAheadOnMainThread: true, createWorker: silentWorker });
    try {
      await countingDecoderReads(async (read) => {
        cold.fetchAhead(url); // no worker up: fetched on the main thread
        cold.warmUp();
        cold.decodeAhead({ url, size: { width: 301, height: 451 }, natural: { width: 1600, height: 2400 } });
        const held = 512;
        const head = bytes.length - held;
        download.send(bytes.slice(0, head / 2));
        download.send(bytes.slice(head / 2, head));
        // The decoder reads what has come while the page's last bytes are still on their way.
        await vi.waitFor(() => expect(read()).toBe(head));
        expect(decodesOf(url)).toHaveLength(0);
        download.send(bytes.slice(head));
        download.end();
        // No worker ever answers, yet the decode is done, and the view's request takes it.
        await vi.waitFor(() => expect(decodesOf(url)).toHaveLength(1));
      });
      expect(decodesOf(url).map((entry) => (entry as PerformanceMeasure).detail)).toEqual([expect.objectContaining({ prefetched: true, mainThread: true })]);
      const { bitmap } = await cold.decode({ url, size: { width: 301, height: 451 }, natural: { width: 1600, height: 2400 } });
      expect([bitmap.width, bitmap.height]).toEqual([301, 451]);
      expectColour(colourAt(bitmap, 150, 225), [20, 200, 90]);
      bitmap.close();
      expect(decodesOf(url)).toHaveLength(1);
    } finally {
      cold.terminate();
    }
  });

  it('on a cold load, a page ahead that is no image fails with a decode error on the main thread', async () => {
    const download = heldDownload('image/jpeg');
    const url = 'http://127.0.0.1:9/cold-broken.jpg';
    const cold = new DecodePool({ size: 1, prefetched: download.prefetched, decodeAheadOnMainThread: true, createWorker: silentWorker });
    try {
      cold.fetchAhead(url);
      cold.decodeAhead({ url, size: { width: 100, height: 150 }, natural: { width: 400, height: 600 } });
      download.send(new TextEncoder().encode('not a jpeg'));
      download.end();
      const failure = await cold.decode({ url, size: { width: 100, height: 150 }, natural: { width: 400, height: 600 } }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PageDecodeError);
      expect((failure as PageDecodeError).reason).toBe('decode');
    } finally {
      cold.terminate();
    }
  });

  it('on a cold load, a download ahead broken off midway leaves the page to a worker, which fetches it itself', async () => {
    const source = await solidJpeg(400, 600, [220, 120, 20]);
    const url = URL.createObjectURL(source);
    urls.push(url);
    const download = heldDownload('image/jpeg');
    const cold = new DecodePool({ size: 1, prefetched: download.prefetched, decodeAheadOnMainThread: true });
    try {
      cold.fetchAhead(url);
      cold.decodeAhead({ url, size: { width: 100, height: 150 }, natural: { width: 400, height: 600 } });
      download.send(new Uint8Array(await source.slice(0, 1000).arrayBuffer()));
      download.fail();
      const { bitmap } = await cold.decode({ url, size: { width: 100, height: 150 }, natural: { width: 400, height: 600 } });
      expect([bitmap.width, bitmap.height]).toEqual([100, 150]);
      expectColour(colourAt(bitmap, 50, 75), [220, 120, 20]);
      bitmap.close();
      const [detail] = decodesOf(url).map((entry) => (entry as PerformanceMeasure).detail);
      expect(detail.mainThread).toBeUndefined();
    } finally {
      cold.terminate();
    }
  });

  it('the view asking at another size gets its own decode of the same bytes, not a second download', async () => {
    const source = await solidJpeg(400, 600, [30, 30, 220]);
    const fetched: string[] = [];
    const prefetched = servingJpeg(source, fetched);
    // Nothing answers at this address: a worker fetching it would fail the decode.
    const url = 'http://127.0.0.1:9/ahead-other-size.jpg';
    prefetched.prefetch(url);
    const early = new DecodePool({ size: 1, prefetched });
    try {
      early.decodeAhead({ url, size: { width: 100, height: 150 } });
      const { bitmap } = await early.decode({ url, size: { width: 200, height: 300 } });
      expect([bitmap.width, bitmap.height]).toEqual([200, 300]);
      expectColour(colourAt(bitmap, 100, 150), [30, 30, 220]);
      bitmap.close();
      expect(fetched).toEqual([url]);
    } finally {
      early.terminate();
    }
  });

  it('a decode ahead dropped (its book is no longer about to be read) frees its bitmap at once; a claimed one is kept', async () => {
    const source = await solidJpeg(400, 600, [40, 160, 40]);
    const fetched: string[] = [];
    const prefetched = servingJpeg(source, fetched);
    const dropped = 'http://127.0.0.1:9/ahead-dropped.jpg';
    prefetched.prefetch(dropped);
    const early = new DecodePool({ size: 1, prefetched });
    try {
      early.decodeAhead({ url: dropped, size: { width: 100, height: 150 }, natural: { width: 400, height: 600 } });
      const { bitmap } = await early.peekAhead(dropped)!;
      expect(bitmap.width).toBe(100);
      early.dropAhead(dropped);
      // Not kept for the half minute an unclaimed decode would be: closed bitmaps measure 0 × 0.
      await vi.waitFor(() => expect(bitmap.width).toBe(0));
      expect(early.peekAhead(dropped)).toBeUndefined();

      // Taken by its view first: dropping it later leaves the view's bitmap alone.
      const claimed = 'http://127.0.0.1:9/ahead-claimed.jpg';
      prefetched.prefetch(claimed);
      early.decodeAhead({ url: claimed, size: { width: 100, height: 150 }, natural: { width: 400, height: 600 } });
      const taken = await early.decode({ url: claimed, size: { width: 100, height: 150 }, natural: { width: 400, height: 600 } });
      early.dropAhead(claimed);
      // A wrongful close would come in a reaction to the decode's (already settled) result: one turn.
      await Promise.resolve();
      await Promise.resolve();
      expect(taken.bitmap.width).toBe(100);
      taken.bitmap.close();
    } finally {
      early.terminate();
    }
  });

  it('runs before jobs queued earlier, and the view cancelling it cancels it', async () => {
    const one = new DecodePool({ size: 1, perWorker: 1, maxRunning: 1 });
    try {
      const blocker = await solidPng(600, 600, [0, 0, 0]);
      const queued = await solidPng(60, 60, [0, 0, 0]);
      const first = await solidPng(60, 60, [255, 255, 255]);
      const order: string[] = [];
      const running = one.decode({ url: blocker, size: { width: 10, height: 10 } }).then((d) => d.bitmap.close());
      const later = one.decode({ url: queued, size: { width: 10, height: 10 } }).then((d) => {
        order.push('queued');
        d.bitmap.close();
      });
      one.decodeAhead({ url: first, size: { width: 10, height: 10 } });
      const controller = new AbortController();
      const claimed = one.decode({ url: first, size: { width: 10, height: 10 } }, controller.signal).then((d) => {
        order.push('ahead');
        d.bitmap.close();
      });
      await Promise.all([running, later, claimed]);
      expect(order).toEqual(['ahead', 'queued']);

      // Claimed, then cancelled by the view while still waiting for a worker: it never runs.
      const hold = one.decode({ url: blocker, size: { width: 10, height: 10 } }).then((d) => d.bitmap.close());
      one.decodeAhead({ url: first, size: { width: 12, height: 12 } });
      const cancelling = new AbortController();
      const cancelled = one.decode({ url: first, size: { width: 12, height: 12 } }, cancelling.signal);
      cancelling.abort();
      await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
      await hold;
      expect(one.running + one.queued).toBe(0);
    } finally {
      one.terminate();
    }
  });
});

describe('a page downloaded ahead by a worker (fetchAhead)', () => {
  const decodesOf = (url: string) =>
    performance
      .getEntriesByName(DECODE_MEASURE)
      .map((entry) => (entry as PerformanceMeasure).detail as { url: string; fetchedAhead: boolean; size: { width: number } | null })
      .filter((detail) => detail.url === url);

  it('its decode runs in the worker that downloaded it, on those bytes', async () => {
    const url = bytesUrl(new Uint8Array(await (await solidJpeg(400, 600, [20, 180, 60])).arrayBuffer()), 'image/jpeg');
    const two = new DecodePool({ size: 2 });
    try {
      two.fetchAhead(url);
      two.fetchAhead(url); // asked twice (from the address, then from the book): one download
      const { bitmap } = await two.decode({ url, size: { width: 100, height: 150 }, natural: { width: 400, height: 600 } });
      expectColour(colourAt(bitmap, 50, 75), [20, 180, 60]);
      bitmap.close();
      expect(decodesOf(url)).toEqual([expect.objectContaining({ fetchedAhead: true })]);
      // Taken once: a later decode of the page is an ordinary one.
      const again = await two.decode({ url, size: { width: 10, height: 15 } });
      again.bitmap.close();
      expect(decodesOf(url).map((detail) => detail.fetchedAhead)).toEqual([true, false]);
    } finally {
      two.terminate();
    }
  });

  it('a decode ahead and the view\'s decode at another size both use the one download', async () => {
    const url = bytesUrl(new Uint8Array(await (await solidJpeg(400, 600, [200, 200, 20])).arrayBuffer()), 'image/jpeg');
    const two = new DecodePool({ size: 2 });
    try {
      two.fetchAhead(url);
      two.decodeAhead({ url, size: { width: 100, height: 150 } });
      const { bitmap } = await two.decode({ url, size: { width: 200, height: 300 } });
      expect([bitmap.width, bitmap.height]).toEqual([200, 300]);
      expectColour(colourAt(bitmap, 100, 150), [200, 200, 20]);
      bitmap.close();
      await vi.waitFor(() => expect(decodesOf(url).filter((detail) => detail.size?.width === 200)).toHaveLength(1));
      expect(decodesOf(url).every((detail) => detail.fetchedAhead)).toBe(true);
    } finally {
      two.terminate();
    }
  });

  it('is fetched on the main thread while no worker is up yet (a cold load), by a worker once one is', async () => {
    const source = await solidJpeg(40, 60, [240, 20, 240]);
    const mainThread: string[] = [];
    const prefetched = servingJpeg(source, mainThread);
    const cold = bytesUrl(new Uint8Array(await source.arrayBuffer()), 'image/jpeg');
    const warm = bytesUrl(new Uint8Array(await source.arrayBuffer()), 'image/jpeg');
    const one = new DecodePool({ size: 1, prefetched });
    try {
      one.fetchAhead(cold);
      expect(mainThread).toEqual([cold]);
      const first = await one.decode({ url: cold, size: { width: 20, height: 30 } });
      first.bitmap.close();
      expect(decodesOf(cold)).toEqual([expect.objectContaining({ fetchedAhead: false })]);
      // The worker that decoded it is up now.
      await vi.waitFor(() => expect(performance.getEntriesByName(WORKER_READY_MARK).length).toBeGreaterThan(0));
      one.fetchAhead(warm);
      const second = await one.decode({ url: warm, size: { width: 20, height: 30 } });
      expectColour(colourAt(second.bitmap, 10, 15), [240, 20, 240]);
      second.bitmap.close();
      expect(mainThread).toEqual([cold]);
      expect(decodesOf(warm)).toEqual([expect.objectContaining({ fetchedAhead: true })]);
    } finally {
      one.terminate();
    }
  });

  it('a download ahead that failed is tried once more by the decode, and that failure reaches the caller', async () => {
    // Nothing answers at this address.
    const url = 'http://127.0.0.1:9/ahead-unreachable.jpg';
    const one = new DecodePool({ size: 1 });
    try {
      one.fetchAhead(url);
      await expect(one.decode({ url, size: { width: 10, height: 10 } })).rejects.toMatchObject({ name: 'PageDecodeError', reason: 'network', url });
    } finally {
      one.terminate();
    }
  });

  it('a decode cancelled while its download ahead is still arriving rejects at once', async () => {
    // Cancelled in the same task as asked: whatever the download does, the caller is freed at once.
    const url = 'http://127.0.0.1:9/ahead-cancelled.jpg';
    const one = new DecodePool({ size: 1 });
    try {
      one.fetchAhead(url);
      const controller = new AbortController();
      const decoding = one.decode({ url, size: { width: 10, height: 10 } }, controller.signal);
      controller.abort();
      await expect(decoding).rejects.toMatchObject({ name: 'AbortError' });
      await vi.waitFor(() => expect(one.running + one.queued).toBe(0));
    } finally {
      one.terminate();
    }
  });
});

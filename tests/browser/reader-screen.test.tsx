import { createRoot, type Root } from 'react-dom/client';
import { Route } from 'wouter';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { pageUrl } from '../../src/api/books.ts';
import type { BookDto, Page } from '../../src/api/types.ts';
import { userEvent } from 'vitest/browser';
import { failRequests, logInAsAdmin, rest, seedLibrary } from './support/folio.ts';
import en from '../../locales/en.json';

type Rgb = [number, number, number];

/**
 * Generous waits: decoding in real workers on a loaded CI machine can take seconds, and a test
 * should fail on wrong behaviour, not on a slow machine.
 */
const WAIT = { timeout: 15_000, interval: 20 };
// Real decoding on a busy machine: allow each test a full minute rather than the default five seconds.
vi.setConfig({ testTimeout: 60_000 });
const poll = <T,>(fn: () => T) => expect.poll(fn, WAIT);
const waitFor = <T,>(fn: () => T) => vi.waitUntil(fn, WAIT);

/**
 * The books on the run's real server (tests/browser/support): page n of "Reader Saga 01" is a solid
 * colour; "Reader Saga 02" comes after it; "Reader Tall 01" starts with a tall page, red above and
 * blue below. The decode workers fetch the pages from the server as in the app.
 */
const COLOURS: Rgb[] = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [255, 255, 0],
];
const ids = { first: '', second: '', tall: '', series: '', readList: '' };

const { ReaderScreen } = await import('../../src/ui/reader/ReaderScreen.tsx');
const { readerPreferences } = await import('../../src/ui/reader/settingsStore.ts');
const { DEFAULT_READER_SETTINGS } = await import('../../src/engine/readerSettings.ts');
const { session } = await import('../../src/ui/store/session.ts');

beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = await seedLibrary('reader-screen', [
    {
      folder: 'Reader Saga',
      books: [
        { name: 'Reader Saga 01', pages: COLOURS },
        { name: 'Reader Saga 02', pages: COLOURS.slice(0, 2) },
      ],
    },
    { folder: 'Reader Tall', books: [{ name: 'Reader Tall 01', pages: [{ width: 1000, height: 3000, bands: [[255, 0, 0], [0, 0, 255]] }, ...COLOURS.slice(1)] }] },
  ]);
  const books = (await rest<Page<BookDto>>('GET', `/api/v1/books?library_id=${libraryId}&unpaged=true`)).content;
  const idOf = (name: string) => books.find((b) => b.name === name)?.id ?? '';
  ids.first = idOf('Reader Saga 01');
  ids.second = idOf('Reader Saga 02');
  ids.tall = idOf('Reader Tall 01');
  ids.series = books.find((b) => b.name === 'Reader Saga 01')?.seriesId ?? '';
  const readList = await rest<{ id: string }>('POST', '/api/v1/readlists', { name: 'Reader List', summary: '', ordered: true, bookIds: [ids.first, ids.tall] });
  ids.readList = readList.id;
  recordRequests();
});

/**
 * What the page asked the server, recorded as it leaves (the page's fetch is wrapped, not replaced):
 * read-progress saves with their body and whether they were keepalive, and book fetches.
 */
interface Sent {
  method: string;
  path: string;
  keepalive: boolean;
  body: Promise<{ page?: number; completed?: boolean }>;
  /** Settles once the server has answered (or the request failed). */
  done: Promise<unknown>;
}
const sent: Sent[] = [];
let realFetch: typeof fetch | undefined;
function recordRequests(): void {
  realFetch = window.fetch;
  const through = realFetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request?.url ?? String(input), location.href);
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const saving = url.pathname.endsWith('/read-progress') && method === 'PATCH';
    const text = !saving ? Promise.resolve('') : request ? request.clone().text() : Promise.resolve(typeof init?.body === 'string' ? init.body : '');
    const answer = through(input, init);
    sent.push({
      method,
      path: url.pathname,
      keepalive: init?.keepalive ?? request?.keepalive ?? false,
      body: text.then((body) => (body ? (JSON.parse(body) as { page?: number }) : {})),
      done: answer.then(
        (response) => response.status,
        (error: unknown) => error,
      ),
    });
    return answer;
  };
}
afterAll(() => {
  if (realFetch) window.fetch = realFetch;
});

/** The read-progress saves sent for a book since the reader was opened, in order. */
async function saves(bookId = ids.first): Promise<{ page?: number; completed?: boolean; keepalive?: true }[]> {
  const own = sent.filter((r) => r.method === 'PATCH' && r.path === `/api/v1/books/${bookId}/read-progress`);
  return Promise.all(own.map(async (r) => ({ ...(await r.body), ...(r.keepalive ? { keepalive: true as const } : {}) })));
}
const bookFetches = (bookId: string) => sent.filter((r) => r.method === 'GET' && r.path === `/api/v1/books/${bookId}`).length;

/** Sets the series' reading direction on the server ('' leaves it to the reader). */
let directionSet = false;
async function seriesDirection(direction: string): Promise<void> {
  directionSet = direction !== '';
  await rest('PATCH', `/api/v1/series/${ids.series}/metadata`, direction ? { readingDirection: direction } : { readingDirection: null, readingDirectionLock: false });
}

/** Logs in, for the reader's role-dependent menu, a user with these roles. */
function logInAs(roles: string[]): void {
  session.me = { id: 'user-1', email: 'reader@example.org', roles } as unknown as NonNullable<typeof session.me>;
}

let root: Root | null = null;
let host: HTMLElement | null = null;

/**
 * Leaves the reader. Leaving saves the position: this resolves once that save has reached the
 * server, so whatever the test does next to the book's progress comes after it.
 */
async function closeReader(): Promise<void> {
  root?.unmount();
  host?.remove();
  root = null;
  await afterPendingWork();
  await Promise.all(sent.map((request) => request.done));
}

afterEach(async () => {
  vi.useRealTimers();
  await closeReader();
  history.replaceState(null, '', '/');
});

beforeEach(async () => {
  Object.assign(readerPreferences, DEFAULT_READER_SETTINGS);
  if (directionSet) await seriesDirection('');
  for (const id of [ids.first, ids.second, ids.tall]) {
    await fetch(`/api/v1/books/${id}/read-progress`, { method: 'DELETE', headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  }
  logInAs(['USER', 'PAGE_STREAMING', 'FILE_DOWNLOAD']);
});

type Progress = { page: number } | { completed: true } | null;

/** Opens the reader on a book (Reader Saga 01 unless told), after giving it this read progress. */
async function openReader(search = '', progress: Progress = null, bookId = ids.first): Promise<HTMLCanvasElement> {
  if (progress) await rest('PATCH', `/api/v1/books/${bookId}/read-progress`, progress);
  sent.length = 0;
  history.replaceState(null, '', `/book/${bookId}/read${search}`);
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  // Routed as in the app, so moving to another book mounts that book's reader.
  root.render(<Route path="/book/:bookId/read">{(params) => <ReaderScreen bookId={params.bookId} />}</Route>);
  await poll(() => document.querySelector('[data-testid="reader-canvas"], [data-testid="reader-webtoon"]')).not.toBeNull();
  return document.querySelector<HTMLCanvasElement>('[data-testid="reader-canvas"]') as HTMLCanvasElement;
}

/**
 * The colour at a point of the canvas's backing store (fractions of its size): what was really drawn.
 * Read through a copy, as the webtoon's canvases hold a bitmap (a 'bitmaprenderer' context) and
 * have no 2D context to ask.
 */
/**
 * The page's own buttons in the "more" menu: on a narrow screen (these tests run at 414 px) the menu
 * starts with stand-ins for the top bar's full screen and shortcut buttons.
 */
function pageEntries(menu: HTMLElement): HTMLButtonElement[] {
  const standIns: string[] = [en.reader.fullscreen, en.reader.exit_fullscreen, en.reader.shortcuts];
  return [...menu.querySelectorAll('button')].filter((button) => !standIns.includes(button.textContent ?? ''));
}

function colourAt(canvas: HTMLCanvasElement, x: number, y: number): Rgb {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const context = copy.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.drawImage(canvas, 0, 0);
  const [r = 0, g = 0, b = 0] = context.getImageData(
    Math.floor(canvas.width * x),
    Math.floor(canvas.height * y),
    1,
    1,
  ).data;
  return [r, g, b];
}

/** Within a few levels of each other on every channel. */
function isNear(actual: Rgb, expected: Rgb): boolean {
  return actual.every((value, i) => Math.abs(value - (expected[i] ?? 0)) <= 8);
}

function centreColour(canvas: HTMLCanvasElement): Rgb {
  return colourAt(canvas, 0.5, 0.5);
}

/**
 * A second, deliberate press comes a moment after the first (a held key's repeats, under 400 ms
 * apart, are ignored). The reader reads the time from Date; the test moves that clock on instead
 * of waiting for it.
 */
function aMomentLater(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 450);
}

/** Resolves in a later task: every promise callback already queued (a request on its way to fetch) has run. */
function afterPendingWork(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * From here on the reader's timers run when the test moves their clock (vi.advanceTimersByTime):
 * moving it past the debounce of a progress save (300 ms) makes that save happen there and then, so
 * the test can say what was sent without waiting for it.
 */
function holdTimers(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}

function press(key: string) {
  window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
}

describe('ReaderScreen', () => {
  it('paints page 1 on the canvas, sized to the viewport in device pixels', async () => {
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    expect(canvas.dataset.currentPage).toBe('1');
    expect(canvas.width).toBe(Math.round(canvas.clientWidth * devicePixelRatio));
    expect(canvas.height).toBe(Math.round(canvas.clientHeight * devicePixelRatio));
    expect(centreColour(canvas)).toEqual(COLOURS[0]);
    expect(document.body.textContent).toContain('1 / 4');
  });

  it('the page slider says the page in words, as the page counter does', async () => {
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    const slider = document.querySelector<HTMLInputElement>('input[type="range"]')!;
    expect(slider.getAttribute('aria-valuetext')).toBe(en.reader.page_label.replace('{{page}}', '1').replace('{{total}}', '4'));
    press('ArrowRight');
    await poll(() => slider.getAttribute('aria-valuetext')).toBe(en.reader.page_label.replace('{{page}}', '2').replace('{{total}}', '4'));
  });

  it('turns pages with the arrow keys and saves progress', async () => {
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    press('ArrowRight');
    await poll(() => canvas.dataset.currentPage).toBe('2');
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    expect(centreColour(canvas)).toEqual(COLOURS[1]);
    press('ArrowRight');
    await poll(() => canvas.dataset.paintedPage).toBe('3');
    expect(centreColour(canvas)).toEqual(COLOURS[2]);
    press('ArrowLeft');
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    await poll(async () => (await saves()).at(-1)).toEqual({ page: 2 });
    // Debounced: the quick 2 → 3 → 2 flip did not send every page.
    expect((await saves()).length).toBeLessThan(4);
    await poll(async () => (await rest<BookDto>('GET', `/api/v1/books/${ids.first}`)).readProgress?.page).toBe(2);
  });

  it('click zones: right quarter next, left quarter previous, middle toggles the toolbar', async () => {
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    const box = canvas.getBoundingClientRect();
    const click = (fraction: number) =>
      canvas.dispatchEvent(
        new MouseEvent('click', { bubbles: true, clientX: box.left + box.width * fraction, clientY: box.top + 50 }),
      );
    click(0.9);
    await poll(() => canvas.dataset.currentPage).toBe('2');
    click(0.1);
    await poll(() => canvas.dataset.currentPage).toBe('1');
    expect(document.querySelector('[data-testid="reader-page-counter"]')).not.toBeNull();
    click(0.5);
    await poll(() => document.querySelector('[data-testid="reader-page-counter"]')).toBeNull();
  });

  it('opens at ?page=, or at the saved page of a book in progress', async () => {
    let canvas = await openReader('?page=2');
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    expect(centreColour(canvas)).toEqual(COLOURS[1]);
    await closeReader();

    // (On the last page a book counts as read: page 3 of 4 is in progress.)
    canvas = await openReader('', { page: 3 });
    await poll(() => canvas.dataset.paintedPage).toBe('3');
    await closeReader();

    canvas = await openReader('', { completed: true });
    await poll(() => canvas.dataset.paintedPage).toBe('1');
  });

  it('incognito reading saves nothing', async () => {
    // The same turn with the debounce run out saves the page when not incognito…
    let canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    holdTimers();
    press('ArrowRight');
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    vi.advanceTimersByTime(1_000);
    vi.useRealTimers();
    await afterPendingWork();
    expect(await saves()).toEqual([{ page: 2 }]);
    await closeReader();

    // …and sends nothing incognito, neither when the debounce runs out nor on leaving the reader
    // (from a book with no progress again, so that page 2 would be news to the server).
    await fetch(`/api/v1/books/${ids.first}/read-progress`, { method: 'DELETE', headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    canvas = await openReader('?incognito=true');
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    holdTimers();
    press('ArrowRight');
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    vi.advanceTimersByTime(1_000);
    window.dispatchEvent(new PageTransitionEvent('pagehide'));
    await closeReader();
    vi.useRealTimers();
    expect(await saves()).toEqual([]);
  });

  it('right to left from series metadata: ← is next, and click zones are mirrored', async () => {
    await seriesDirection('RIGHT_TO_LEFT');
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    await poll(() => document.body.textContent).toContain('from series metadata');
    press('ArrowLeft');
    await poll(() => canvas.dataset.currentPage).toBe('2');
    press('ArrowRight');
    await poll(() => canvas.dataset.currentPage).toBe('1');
    const box = canvas.getBoundingClientRect();
    canvas.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: box.left + 5, clientY: box.top + 100 }));
    await poll(() => canvas.dataset.currentPage).toBe('2');
    // Not saved as the preference: the series only decides for this book.
    expect(readerPreferences.readingDirection).toBe('LEFT_TO_RIGHT');
  });

  it('double layout paints two pages side by side, in reading order', async () => {
    readerPreferences.pageLayout = 'double_no_cover';
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    // Pages 1 (red) and 2 (green) meet in the middle.
    expect(colourAt(canvas, 0.45, 0.5)).toEqual(COLOURS[0]);
    expect(colourAt(canvas, 0.55, 0.5)).toEqual(COLOURS[1]);
    press('ArrowRight');
    await poll(() => canvas.dataset.paintedPage).toBe('4');
    expect(colourAt(canvas, 0.45, 0.5)).toEqual(COLOURS[2]);
    expect(colourAt(canvas, 0.55, 0.5)).toEqual(COLOURS[3]);
    // The d shortcut cycles the layout and is remembered.
    press('d');
    await poll(() => readerPreferences.pageLayout).toBe('single');
    await poll(() => JSON.parse(localStorage.getItem('folio.reader') ?? '{}').pageLayout).toBe('single');
    await poll(() => canvas.dataset.paintedPage).toBe('4');
    expect(centreColour(canvas)).toEqual(COLOURS[3]);
  });

  it('end of book: a first press warns, a second one opens the next book', async () => {
    const canvas = await openReader('?page=4&incognito=true');
    await poll(() => canvas.dataset.paintedPage).toBe('4');
    await poll(() => document.querySelector('button[aria-label="Next book"]')?.hasAttribute('disabled')).toBe(false);
    press('ArrowRight');
    await poll(() => document.querySelector('[data-testid="reader-edge-message"]')?.textContent).toContain(
      'again to open the next book',
    );
    expect(location.pathname).toBe(`/book/${ids.first}/read`);
    // The warning already started loading the next book.
    await poll(() => bookFetches(ids.second)).toBe(1);
    aMomentLater();
    press('ArrowRight');
    await poll(() => location.pathname).toBe(`/book/${ids.second}/read`);
    // Incognito carries over; no page, so the next book opens at its own position.
    expect(location.search).toBe('?incognito=true');
    // It opens from what was fetched ahead: no second request for it.
    await poll(() => document.querySelector<HTMLElement>('[data-testid="reader-canvas"]')?.dataset.paintedPage).toBe('1');
    expect(bookFetches(ids.second)).toBe(1);
  });

  it('end of the last book: the second press leaves the reader', async () => {
    const canvas = await openReader('?page=2', null, ids.second);
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    press('ArrowRight');
    await poll(() => document.querySelector('[data-testid="reader-edge-message"]')?.textContent).toContain(
      'leave the reader',
    );
    aMomentLater();
    press('ArrowRight');
    await poll(() => location.pathname).toBe(`/book/${ids.second}`);
  });

  it('thumbnails: t opens the grid, a click goes to that page', async () => {
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    press('t');
    const pick = await waitFor(() =>
      [...document.querySelectorAll('dialog[open] button')].find((button) => button.textContent === 'Page 3'),
    );
    (pick as HTMLButtonElement).click();
    await poll(() => canvas.dataset.paintedPage).toBe('3');
    expect(document.querySelector('dialog[open]')).toBeNull();
  });

  it('help overlay lists the shortcuts; keys do nothing to the page while it is open', async () => {
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    press('h');
    const help = await waitFor(() => document.querySelector<HTMLDialogElement>('dialog[open]'));
    expect(help.textContent).toContain('Cycle the scale');
    press('ArrowRight');
    // A turn is decided within the key press: had this one been taken, the next press would land on 3.
    expect(canvas.dataset.currentPage).toBe('1');
    help.close();
    press('ArrowRight');
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    expect(canvas.dataset.currentPage).toBe('2');
  });

  it('the debug overlay shows the cache against its budget', async () => {
    readerPreferences.debugOverlay = true;
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    // The overlay's figures follow the page (a transition, after the frame that shows it).
    await poll(() => document.querySelector('[data-testid="reader-debug"]')?.textContent).toMatch(/decoded 1/);
    expect(document.querySelector('[data-testid="reader-debug"]')?.textContent).toMatch(/cache [\d.]+ \/ \d+ MB/);
  });

  it('webtoon: a strip of page canvases, current page from the scroll position', async () => {
    await seriesDirection('WEBTOON');
    await openReader('?incognito=true');
    const strip = await waitFor(() => document.querySelector<HTMLElement>('[data-testid="reader-webtoon"]'));
    await poll(() => strip.querySelector('[data-page="1"] canvas')?.getAttribute('data-painted')).toBe('true');
    const first = strip.querySelector<HTMLCanvasElement>('[data-page="1"] canvas') as HTMLCanvasElement;
    expect(colourAt(first, 0.5, 0.5)).toEqual(COLOURS[0]);
    // Heights come from the page sizes (600 × 900) before any pixel: the strip is 4 × 1.5 × width tall.
    const height = strip.scrollHeight;
    expect(height).toBeCloseTo(4 * 1.5 * strip.clientWidth, -1);
    strip.scrollTop = height;
    await poll(() => strip.dataset.currentPage).toBe('4');
    await poll(() => strip.querySelector('[data-page="4"] canvas')?.getAttribute('data-painted')).toBe('true');
    // Page 1 scrolled far out of the window: its slot is gone.
    expect(strip.querySelector('[data-page="1"]')).toBeNull();
    // Its bitmap went to the canvas that is gone (handed over, not copied): back at the top it is
    // decoded and painted again.
    strip.scrollTop = 0;
    await poll(() => strip.querySelector('[data-page="1"] canvas')?.getAttribute('data-painted')).toBe('true');
    expect(colourAt(strip.querySelector<HTMLCanvasElement>('[data-page="1"] canvas') as HTMLCanvasElement, 0.5, 0.5)).toEqual(COLOURS[0]);
  });

  it('fit width on a tall page scrolls: the canvas repaints the part scrolled into view', async () => {
    readerPreferences.pagedScale = 'width';
    {
      const canvas = await openReader('', null, ids.tall);
      await poll(() => canvas.dataset.paintedPage).toBe('1');
      const scroller = canvas.parentElement?.parentElement as HTMLElement;
      // Page width = viewport width, so the page is three viewport-widths tall: it overflows.
      expect(scroller.scrollHeight).toBeGreaterThan(scroller.clientHeight);
      // The viewport's middle shows the red upper half at first, the blue lower half once scrolled to
      // the bottom (true for any viewport wider than a third of its height).
      expect(centreColour(canvas)).toEqual([255, 0, 0]);
      scroller.scrollTop = scroller.scrollHeight;
      await poll(() => centreColour(canvas)).toEqual([0, 0, 255]);
      // A page turn starts the next page at its top.
      press('ArrowRight');
      await poll(() => canvas.dataset.paintedPage).toBe('2');
      expect(scroller.scrollTop).toBe(0);
    }
  });

  it('a turn to a preloaded page paints in the same task without animations, and after a slide with them', async () => {
    readerPreferences.debugOverlay = true;
    readerPreferences.animations = false;
    const canvas = await openReader();
    await poll(() => document.querySelector('[data-testid="reader-debug"]')?.textContent).toContain('decoded 1-4');
    press('ArrowRight');
    // No waiting: the bitmap was already decoded, so the key press itself drew it.
    expect(canvas.dataset.paintedPage).toBe('2');
    expect(centreColour(canvas)).toEqual(COLOURS[1]);

    readerPreferences.animations = true;
    await poll(() => readerPreferences.animations).toBe(true);
    press('ArrowRight');
    // The slide started within the key press: no page is painted in place until it ends.
    expect(canvas.dataset.paintedPage).toBeUndefined();
    await poll(() => canvas.dataset.currentPage).toBe('3');
    await poll(() => canvas.dataset.paintedPage).toBe('3');
    expect(centreColour(canvas)).toEqual(COLOURS[2]);
  });

  it('right to left double pages put the first page of a pair on the right', async () => {
    await seriesDirection('RIGHT_TO_LEFT');
    readerPreferences.pageLayout = 'double_no_cover';
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    expect(colourAt(canvas, 0.45, 0.5)).toEqual(COLOURS[1]);
    expect(colourAt(canvas, 0.55, 0.5)).toEqual(COLOURS[0]);
  });

  it('opened from a read list, the next book is the read list\'s, and the context is kept', async () => {
    const canvas = await openReader(`?page=4&context=READLIST&contextId=${ids.readList}`);
    await poll(() => canvas.dataset.paintedPage).toBe('4');
    await poll(() => document.querySelector('button[aria-label="Next book"]')?.hasAttribute('disabled')).toBe(false);
    // Auto-repeat of a held key does not fall through into the next book (the clock stands still
    // between these presses; going on would navigate within the press)…
    vi.useFakeTimers({ toFake: ['Date'] });
    press('ArrowRight');
    press('ArrowRight');
    press('ArrowRight');
    expect(location.pathname).toBe(`/book/${ids.first}/read`);
    // …a deliberate second press does.
    aMomentLater();
    press('ArrowRight');
    await poll(() => location.pathname).toBe(`/book/${ids.tall}/read`);
    expect(location.search).toBe(`?context=READLIST&contextId=${ids.readList}`);
  });

  /**
   * The reader open at page 1 with gestures on, and a touch pointer over its page area: `move`
   * dispatches one pointer event at a fraction of the area's width, mid-height.
   */
  async function readerWithTouch() {
    readerPreferences.swipe = true;
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    const target = canvas.parentElement?.parentElement as HTMLElement;
    const box = target.getBoundingClientRect();
    const move = (type: 'pointerdown' | 'pointermove' | 'pointerup', fraction: number) =>
      target.dispatchEvent(
        new PointerEvent(type, {
          bubbles: true,
          clientX: box.left + box.width * fraction,
          clientY: box.top + box.height / 2,
          pointerId: 1,
          pointerType: 'touch',
          isPrimary: true,
          buttons: type === 'pointerup' ? 0 : 1,
        }),
      );
    const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
    return { canvas, move, frame };
  }

  it('with gestures on, a swipe to the left turns to the next page', async () => {
    const { canvas, move, frame } = await readerWithTouch();
    move('pointerdown', 0.8);
    for (const fraction of [0.7, 0.55, 0.4, 0.25]) {
      await frame();
      move('pointermove', fraction);
    }
    move('pointerup', 0.25);
    await poll(() => canvas.dataset.currentPage).toBe('2');
  });

  it('with gestures on, a slow drag most of the way across turns as a swipe does', async () => {
    const { canvas, move, frame } = await readerWithTouch();
    // The gesture itself is slow (longer than a flick may last, 250 ms): the finger moves once per
    // frame until then, so the gesture library reports no swipe and only the distance can turn.
    const start = await frame();
    move('pointerdown', 0.8);
    let x = 0.8;
    for (let now = await frame(); now - start < 400; now = await frame()) {
      x = Math.max(0.3, x - 0.02);
      move('pointermove', x);
    }
    move('pointerup', x);
    await poll(() => canvas.dataset.currentPage).toBe('2');
  });

  it('webtoon opens at the requested page and does not save page 1 on the way', async () => {
    await seriesDirection('WEBTOON');
    await openReader('?page=3');
    const strip = await waitFor(() => document.querySelector<HTMLElement>('[data-testid="reader-webtoon"]'));
    await poll(() => strip.querySelector('[data-page="3"] canvas')?.getAttribute('data-painted')).toBe('true');
    expect(strip.dataset.currentPage).toBe('3');
    expect(strip.scrollTop).toBeGreaterThan(0);
    await poll(async () => (await saves()).length).toBeGreaterThan(0);
    expect((await saves()).map((save) => save.page)).not.toContain(1);
  });

  it('w switches to the webtoon view at the page being read, and l back to pages', async () => {
    const canvas = await openReader('?page=3');
    await poll(() => canvas.dataset.paintedPage).toBe('3');
    press('w');
    const strip = await waitFor(() => document.querySelector<HTMLElement>('[data-testid="reader-webtoon"]'));
    await poll(() => strip.dataset.currentPage).toBe('3');
    expect(readerPreferences.readingDirection).toBe('WEBTOON');
    await poll(() => document.body.textContent).toContain('Reading direction: Webtoon');
    press('l');
    const back = await waitFor(() => document.querySelector<HTMLCanvasElement>('[data-testid="reader-canvas"]'));
    await poll(() => back.dataset.paintedPage).toBe('3');
  });

  it('has no detectable accessibility violations, with the settings panel open too', async () => {
    const { default: axe } = await import('axe-core');
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    const check = async () => {
      const result = await axe.run(host as HTMLElement, { resultTypes: ['violations'] });
      return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    };
    expect(await check()).toEqual([]);
    press('s');
    await waitFor(() => document.querySelector('dialog[open]'));
    expect(await check()).toEqual([]);
  });

  it('a page that fails to load shows its preview and the error, with a retry', async () => {
    // Page 2's image fails once (a network or server hiccup the real server cannot be asked for): the
    // browser answers that request; its thumbnail still loads.
    const broken = await failRequests(new RegExp(`/api/v1/books/${ids.first}/pages/2(\\?|$)`), 500, { message: 'Disk hiccup' });
    onTestFinished(() => broken.restore());
    readerPreferences.animations = false;
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    press('ArrowRight');
    await poll(() => document.querySelector('[role="alert"]')?.textContent).toContain('Page 2 could not be shown');
    await poll(() => canvas.dataset.shownPage).toBe('2');
    // Only the enlarged thumbnail is on screen: not marked as painted, but the right colours.
    expect(canvas.dataset.paintedPage).toBeUndefined();
    // The server's thumbnail is lossy: the colour is near, not exact.
    expect(isNear(centreColour(canvas), COLOURS[1] as Rgb)).toBe(true);
    await broken.restore();
    const retry = [...document.querySelectorAll('button')].find((button) => button.textContent === 'Try again');
    retry?.click();
    await poll(() => canvas.dataset.paintedPage).toBe('2');
  });

  it('fr: a reading position the server refuses is said in French, not only logged', async () => {
    // The server's refusal of a page the book (changed since it was opened) no longer has.
    const { applyLocale } = await import('../../src/ui/store/localeChoice.ts');
    const { t } = await import('../../src/ui/i18n.ts');
    await applyLocale('fr');
    onTestFinished(() => applyLocale('en'));
    const refused = await failRequests(new RegExp(`/api/v1/books/${ids.first}/read-progress$`), 400, { status: 400, error: 'Bad Request', message: 'Page number must be between 1 and 1' }, 'PATCH');
    onTestFinished(() => refused.restore());
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    onTestFinished(() => warned.mockRestore());
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    press('ArrowRight');
    await poll(() => refused.answered()).toBeGreaterThan(0);
    await poll(() => document.body.textContent).toContain(t('server_messages.progress_invalid'));
    expect(t('server_messages.progress_invalid')).toContain("n'a pas été enregistrée");
    expect(document.body.textContent).toContain(t('api_actions.update_read_progress'));
  });

  it('webtoon: a page that fails to load says why in its place, and a retry (pointer or keyboard) draws it', async () => {
    // Page 2's image fails (a server hiccup the real server cannot be asked for) until restored.
    const pattern = new RegExp(`/api/v1/books/${ids.first}/pages/2(\\?|$)`);
    const broken = await failRequests(pattern, 500, { message: 'Disk hiccup' });
    onTestFinished(() => broken.restore());
    await seriesDirection('WEBTOON');
    await openReader('?incognito=true');
    const strip = await waitFor(() => document.querySelector<HTMLElement>('[data-testid="reader-webtoon"]'));
    const slot = () => strip.querySelector<HTMLElement>('[data-page="2"]') as HTMLElement;
    const failure = () => slot().querySelector('[role="alert"]');
    await poll(() => failure()?.textContent).toContain(en.reader.page_error.replace('{{page}}', '2'));
    expect(failure()?.textContent).toContain(en.reader.page_error_reasons.http.replace('{{status}}', '500'));
    // The failed page keeps its height in the strip (pages are 600 × 900: 1.5 × the width).
    expect(slot().offsetHeight).toBeCloseTo(1.5 * strip.clientWidth, -1);
    const retry = () => [...slot().querySelectorAll('button')].find((button) => button.textContent === en.reader.retry) as HTMLButtonElement;
    // A click asks again; the server still fails, and the page says so again.
    const asked = await broken.answered();
    retry().click();
    await poll(() => broken.answered()).toBeGreaterThan(asked);
    await poll(() => failure()?.textContent).toContain(en.reader.page_error.replace('{{page}}', '2'));
    // The server is back; Space on the focused retry (not the strip's scroll key) draws the page.
    await broken.restore();
    retry().focus();
    await userEvent.keyboard(' ');
    await poll(() => slot().querySelector('canvas')?.getAttribute('data-painted')).toBe('true');
    expect(colourAt(slot().querySelector('canvas') as HTMLCanvasElement, 0.5, 0.5)).toEqual(COLOURS[1]);
    expect(failure()).toBeNull();
  });

  it('webtoon: a page whose bytes are not an image says so in its place', async () => {
    // A 200 whose body is no image at all (a proxy's error page, a damaged entry): the decode fails.
    const garbled = await failRequests(new RegExp(`/api/v1/books/${ids.first}/pages/3(\\?|$)`), 200, { not: 'an image' });
    onTestFinished(() => garbled.restore());
    await seriesDirection('WEBTOON');
    await openReader('?incognito=true');
    const strip = await waitFor(() => document.querySelector<HTMLElement>('[data-testid="reader-webtoon"]'));
    const slot = () => strip.querySelector<HTMLElement>('[data-page="3"]') as HTMLElement;
    strip.scrollTop = slot().offsetTop;
    await poll(() => slot().querySelector('[role="alert"]')?.textContent).toContain(en.reader.page_error.replace('{{page}}', '3'));
    expect(slot().querySelector('[role="alert"]')?.textContent).toContain(en.reader.page_error_reasons.decode);
    // Its neighbours are drawn as usual.
    await poll(() => strip.querySelector('[data-page="2"] canvas')?.getAttribute('data-painted')).toBe('true');
  });

  it('a page refused to a user without PAGE_STREAMING (403) says so, with no retry that could never help', async () => {
    logInAs(['USER']);
    const refused = await failRequests(new RegExp(`/api/v1/books/${ids.first}/pages/2(\\?|$)`), 403, { message: 'Forbidden' });
    onTestFinished(() => refused.restore());
    readerPreferences.animations = false;
    const canvas = await openReader('?incognito=true');
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    press('ArrowRight');
    const explanation = en.reader.forbidden.no_page_streaming.replace('{{role}}', en.users_admin.role.PAGE_STREAMING);
    await poll(() => document.querySelector('[role="alert"]')?.textContent).toContain(explanation);
    // Rendered with the message itself: a retry would be in the same alert.
    const alert = document.querySelector('[role="alert"]') as HTMLElement;
    expect([...alert.querySelectorAll('button')].map((button) => button.textContent)).toEqual([]);
  });

  it('webtoon: a page refused to this user (403) says why in its place, with no retry', async () => {
    logInAs(['USER']);
    const refused = await failRequests(new RegExp(`/api/v1/books/${ids.first}/pages/2(\\?|$)`), 403, { message: 'Forbidden' });
    onTestFinished(() => refused.restore());
    await seriesDirection('WEBTOON');
    await openReader('?incognito=true');
    const strip = await waitFor(() => document.querySelector<HTMLElement>('[data-testid="reader-webtoon"]'));
    const slot = () => strip.querySelector<HTMLElement>('[data-page="2"]') as HTMLElement;
    const failure = () => slot().querySelector('[role="alert"]');
    const explanation = en.reader.forbidden.no_page_streaming.replace('{{role}}', en.users_admin.role.PAGE_STREAMING);
    await poll(() => failure()?.textContent).toContain(explanation);
    expect(failure()?.querySelectorAll('button').length).toBe(0);
  });

  it('a book the server refuses to this user (403) is explained, not reported as a failed call', async () => {
    // Komga answers 403 for a book outside the user's shared libraries or restrictions (REFERENCE
    // §1.9); Folio answers 404 there so as not to reveal the book, so the 403 is given in the browser.
    const refused = await failRequests(new RegExp(`/api/v1/books/${ids.first}(\\?|$)`), 403, { message: 'Forbidden' }, 'GET');
    onTestFinished(() => refused.restore());
    history.replaceState(null, '', `/book/${ids.first}/read`);
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    root.render(<ReaderScreen bookId={ids.first} />);
    await poll(() => refused.answered()).toBeGreaterThan(0);
    await poll(() => document.querySelector('[role="alert"]')?.textContent).toBe(en.reader.forbidden.book_not_shared);
  });

  it('closing the tab right after a turn still sends that page, with keepalive', async () => {
    const canvas = await openReader('?page=2');
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    await poll(async () => (await saves()).at(-1)).toEqual({ page: 2 });
    holdTimers();
    press('ArrowRight');
    await poll(() => canvas.dataset.currentPage).toBe('3');
    window.dispatchEvent(new PageTransitionEvent('pagehide'));
    expect((await saves()).at(-1)).toEqual({ page: 3, keepalive: true });
    // The debounce that was waiting to save page 3 has run out: it does not send it a second time.
    vi.advanceTimersByTime(1_000);
    vi.useRealTimers();
    await afterPendingWork();
    expect((await saves()).filter((save) => save.page === 3)).toHaveLength(1);
  });

  it('the settings panel changes the background and the scale, saved for next time', async () => {
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    // A page fitted to the screen leaves two bands to the background (black by default): at the sides
    // when the screen is wider than the page's shape, else above and below.
    const wide = canvas.width / canvas.height > 600 / 900;
    const band = () => (wide ? colourAt(canvas, 0.01, 0.5) : colourAt(canvas, 0.5, 0.01));
    expect(band()).toEqual([0, 0, 0]);
    press('s');
    const dialog = await waitFor(() => document.querySelector<HTMLDialogElement>('dialog[open]'));
    const select = (label: string) => {
      const id = [...dialog.querySelectorAll('label')].find((element) => element.textContent === label)?.htmlFor;
      return dialog.querySelector<HTMLSelectElement>(`#${CSS.escape(id ?? '')}`) as HTMLSelectElement;
    };
    const background = select('Background');
    background.value = 'white';
    background.dispatchEvent(new Event('change', { bubbles: true }));
    await poll(band).toEqual([255, 255, 255]);
    const scales = dialog.querySelectorAll<HTMLSelectElement>('select');
    const pagedScale = [...scales].find((element) => [...element.options].some((option) => option.value === 'width_shrink_only'));
    (pagedScale as HTMLSelectElement).value = 'original';
    pagedScale?.dispatchEvent(new Event('change', { bubbles: true }));
    await poll(() => JSON.parse(localStorage.getItem('folio.reader') ?? '{}')).toMatchObject({
      background: 'white',
      pagedScale: 'original',
    });
    // Original size: the 600 × 900 page is drawn at its own size, so it overflows a shorter viewport.
    const scroller = canvas.parentElement?.parentElement as HTMLElement;
    await poll(() => scroller.scrollHeight).toBe(Math.max(900, scroller.clientHeight));
  });

  it('a key right after Escape closed a dialog already works', async () => {
    const canvas = await openReader();
    await poll(() => canvas.dataset.paintedPage).toBe('1');
    press('t');
    const dialog = await waitFor(() => document.querySelector<HTMLDialogElement>('dialog[open]'));
    dialog.close();
    press('ArrowRight');
    await poll(() => canvas.dataset.currentPage).toBe('2');
  });

  it('webtoon: PageDown scrolls by most of a screen, and at the bottom warns of the end of the book', async () => {
    await seriesDirection('WEBTOON');
    await openReader('?incognito=true');
    const strip = await waitFor(() => document.querySelector<HTMLElement>('[data-testid="reader-webtoon"]'));
    await poll(() => strip.querySelector('[data-page="1"] canvas')?.getAttribute('data-painted')).toBe('true');
    press('PageDown');
    await poll(() => strip.scrollTop).toBe(Math.round(strip.clientHeight * 0.95));
    press('End');
    await poll(() => strip.scrollTop + strip.clientHeight).toBeGreaterThanOrEqual(strip.scrollHeight - 2);
    press('PageDown');
    await poll(() => document.querySelector('[data-testid="reader-edge-message"]')?.textContent).toContain(
      'End of the book',
    );
  });

  it('a plain user\'s page menu offers the download but no poster action', async () => {
    const canvas = await openReader('?page=2');
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    (document.querySelector<HTMLButtonElement>('button[aria-label="More"]') as HTMLButtonElement).click();
    const menu = await waitFor(() => document.querySelector<HTMLElement>('[popover]:popover-open'));
    expect(menu.querySelector('a[download]')).not.toBeNull();
    expect(pageEntries(menu).map((button) => button.textContent)).toEqual([]);
  });

  it('the page menu downloads the page and makes it the book\'s or the series\' poster (administrators)', async () => {
    logInAs(['ADMIN', 'USER', 'PAGE_STREAMING', 'FILE_DOWNLOAD']);
    const canvas = await openReader('?page=2');
    await poll(() => canvas.dataset.paintedPage).toBe('2');
    const more = document.querySelector<HTMLButtonElement>('button[aria-label="More"]') as HTMLButtonElement;
    more.click();
    const menu = await waitFor(() => document.querySelector<HTMLElement>('[popover]:popover-open'));
    const download = menu.querySelector<HTMLAnchorElement>('a[download]');
    expect(download?.getAttribute('href')).toBe(`${pageUrl(ids.first, 2)}?contentNegotiation=false`);
    const items = pageEntries(menu).map((button) => button.textContent);
    expect(items).toEqual(["Use this page as the book's poster", "Use this page as the series' poster"]);
    pageEntries(menu)[1]?.click();
    const posters = () => rest<{ type: string; selected: boolean; mediaType: string; fileSize: number }[]>('GET', `/api/v1/series/${ids.series}/thumbnails`);
    await poll(async () => (await posters()).filter((p) => p.type === 'USER_UPLOADED')).toEqual([
      expect.objectContaining({ selected: true, mediaType: 'image/jpeg' }),
    ]);
    await poll(() => document.body.textContent).toContain('Poster updated');
  });
});

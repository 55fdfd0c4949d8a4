import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import en from '../../locales/en.json' with { type: 'json' };
import { BLUE, GREEN, RED, createCbz, type PageSpec, type Rgb } from '../fixtures/comics.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, findBook, logIn } from './support/api.ts';
import { startFolio, type RunningFolio } from './support/folio-server.ts';

/**
 * Every role against every menu: each screen's menus are opened one by one, and what they offer is
 * compared with what the role may do. Also the history screen, which every user may open.
 */
const READER = { email: 'reader@example.org', password: 'reader password 42' };
const PLAIN = { email: 'plain@example.org', password: 'plain password 42' };
/** May stream pages, but no library is shared with this user: every book is hidden from them. */
const OUTSIDER = { email: 'outsider@example.org', password: 'outsider password 42' };
/** Shares the library, but only series rated for under 12: the unrated series is hidden from them. */
const SHELTERED = { email: 'sheltered@example.org', password: 'sheltered password 42' };
/** What the reader tells a user without PAGE_STREAMING, with the role named as the admin's dialog names it. */
const NO_STREAMING_EXPLANATION = en.reader.forbidden.no_page_streaming.replace('{{role}}', en.users_admin.role.PAGE_STREAMING);

/** Actions only an administrator may run: none of them may be offered to anybody else. */
const ADMIN_ONLY = [
  en.content_actions.book_label,
  en.content_actions.series_label,
  en.reader.set_book_poster,
  en.reader.set_series_poster,
  en.reader.set_readlist_poster,
  en.libraries.scan,
  en.libraries.actions.label,
  en.groups.edit.collection_actions,
  en.groups.edit.readlist_actions,
  en.nav.new_library,
  en.nav.users,
  en.nav.server,
  en.nav.metrics,
  en.nav.media_management,
  en.nav.import,
  en.selection.edit,
  en.selection.delete,
  en.libraries.actions.analyze,
  en.libraries.actions.refresh_metadata,
];

let folio: RunningFolio;
let libraryRoot: string;
const ids = { library: '', series: '', book: '', deletedBook: '', collection: '', readList: '' };
const page = (color: Rgb): PageSpec => ({ width: 300, height: 450, color, format: 'png' });

async function post(api: APIRequestContext, url: string, data: unknown): Promise<{ id: string }> {
  const response = await api.post(`${folio.url}${url}`, { data, headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  if (!response.ok()) throw new Error(`POST ${url}: ${response.status()} ${await response.text()}`);
  return (await response.json().catch(() => ({}))) as { id: string };
}

test.beforeAll(async () => {
  libraryRoot = await mkdtemp(path.join(tmpdir(), 'folio-e2e-roles-'));
  await createCbz(path.join(libraryRoot, 'Saga', 'Saga 01.cbz'), [RED, GREEN, BLUE].map(page));
  await createCbz(path.join(libraryRoot, 'Saga', 'Saga 02.cbz'), [GREEN, BLUE].map(page));
  folio = await startFolio();
  const api = await playwrightRequest.newContext();
  await claimAndLogIn(api, folio.url);
  ids.library = (await addLibraryAndWait(api, folio.url, libraryRoot)).id;
  const book = await findBook(api, folio.url, 'Saga 01');
  const second = await findBook(api, folio.url, 'Saga 02');
  ids.book = book.id;
  ids.series = book.seriesId;
  ids.deletedBook = second.id;
  ids.collection = (await post(api, '/api/v1/collections', { name: 'Picks', ordered: false, seriesIds: [book.seriesId] })).id;
  ids.readList = (await post(api, '/api/v1/readlists', { name: 'Arc', ordered: true, bookIds: [book.id] })).id;
  await post(api, '/api/v2/users', { ...READER, roles: ['PAGE_STREAMING', 'FILE_DOWNLOAD'] });
  await post(api, '/api/v2/users', { ...PLAIN, roles: [] });
  await post(api, '/api/v2/users', { ...OUTSIDER, roles: ['PAGE_STREAMING'], sharedLibraries: { all: false, libraryIds: [] } });
  await post(api, '/api/v2/users', { ...SHELTERED, roles: ['PAGE_STREAMING'], ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' } });
  // Something for the history: the second book's file is deleted.
  const deleted = await api.delete(`${folio.url}/api/v1/books/${second.id}/file`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  expect(deleted.status()).toBe(202);
  await api.dispose();
});

test.afterAll(async () => {
  await folio?.stop();
  await rm(libraryRoot, { recursive: true, force: true });
});

/** Names of the visible buttons, links and menu items. */
async function offered(p: Page): Promise<string[]> {
  return p.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a[href], [role="menuitem"]')]
      .filter((element) => element.checkVisibility())
      .map((element) => (element.getAttribute('aria-label') ?? element.textContent ?? '').trim())
      .filter(Boolean),
  );
}

/** Opens every menu of the screen in turn (disclosures and popovers) and gathers what each offers. */
async function everythingOffered(p: Page): Promise<Set<string>> {
  const names = new Set(await offered(p));
  const openers = p.locator('button[aria-expanded="false"], button[popovertarget]');
  const count = await openers.count();
  for (let i = 0; i < count; i++) {
    const opener = openers.nth(i);
    if (!(await opener.isVisible())) continue;
    await opener.click();
    for (const name of await offered(p)) names.add(name);
    await p.keyboard.press('Escape');
  }
  return names;
}

const SCREENS = [
  { name: 'dashboard', url: () => '/dashboard' },
  { name: 'library', url: () => `/libraries/${ids.library}/series`, select: true },
  { name: 'series', url: () => `/series/${ids.series}`, select: true },
  { name: 'book', url: () => `/book/${ids.book}` },
  { name: 'collection', url: () => `/collections/${ids.collection}` },
  { name: 'read list', url: () => `/readlists/${ids.readList}` },
  { name: 'reader', url: () => `/book/${ids.book}/read?context=READLIST&contextId=${ids.readList}` },
];

const ROLES = [
  { name: 'administrator', user: ADMIN, admin: true, download: true, stream: true },
  { name: 'reader (page streaming, file download)', user: READER, admin: false, download: true, stream: true },
  { name: 'plain user', user: PLAIN, admin: false, download: false, stream: false },
];

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  for (const role of ROLES) {
    test(`${role.name} is offered exactly the actions of the role on every menu (${viewport.width}×${viewport.height})`, async ({ page: p }) => {
      await p.setViewportSize(viewport);
      await logIn(p.context().request, folio.url, role.user);
      const all = new Set<string>();
      for (const screen of SCREENS) {
        await p.goto(`${folio.url}${screen.url()}`);
        await expect(p.locator('main:visible, [data-testid="reader-canvas"]:visible').first()).toBeVisible();
        await p.waitForLoadState('networkidle');
        if (screen.select) {
          const box = p.getByRole('checkbox', { name: /^Select / }).first();
          await box.check();
          await expect(p.getByRole('toolbar', { name: en.selection.label })).toBeVisible();
        }
        const names = await everythingOffered(p);
        const forbidden = role.admin ? [] : ADMIN_ONLY.filter((name) => names.has(name));
        expect(forbidden, `${screen.name}: offered to a ${role.name}`).toEqual([]);
        if (!role.download) expect(names.has(en.book.download), `${screen.name}: download offered`).toBe(false);
        // Reading is offered only to a role that may stream pages (REFERENCE §5).
        if (screen.name === 'book') expect(names.has(en.book.read), `book: Read offered to a ${role.name}`).toBe(role.stream);
        for (const name of names) all.add(name);
      }
      // The administrator saw every one of them: the menus were really opened.
      if (role.admin) expect(ADMIN_ONLY.filter((name) => !all.has(name))).toEqual([]);
      if (role.download) expect(all.has(en.book.download)).toBe(true);
    });
  }

  test(`a user without PAGE_STREAMING who opens the reader's address is told why and who can change it (${viewport.width}×${viewport.height})`, async ({ page: p }) => {
    await p.setViewportSize(viewport);
    await logIn(p.context().request, folio.url, PLAIN);
    // The book screen offers no "Read" to this user; the address is typed or bookmarked instead.
    await p.goto(`${folio.url}/book/${ids.book}/read`);
    const alert = p.getByRole('alert');
    await expect(alert).toContainText(NO_STREAMING_EXPLANATION);
    // The refusal is explained instead of reported as a failure code.
    await expect(alert).not.toContainText('HTTP 403');
    await expect(alert.getByRole('button', { name: en.reader.retry })).toHaveCount(0);
  });

  test(`in the webtoon view, a user without PAGE_STREAMING is told why on the strip, in place of the pages (${viewport.width}×${viewport.height})`, async ({ page: p }) => {
    await p.setViewportSize(viewport);
    await logIn(p.context().request, folio.url, PLAIN);
    await p.goto(`${folio.url}/book/${ids.book}/read`);
    await expect(p.getByTestId('reader-canvas')).toBeVisible();
    // The reader's key for the vertical strip; the pages' bytes are refused (403) there too.
    await p.keyboard.press('w');
    const first = p.getByTestId('reader-webtoon').locator('[data-page="1"]');
    const failure = first.getByRole('alert');
    await expect(failure).toContainText(en.reader.page_error.replace('{{page}}', '1'));
    await expect(failure).toContainText(NO_STREAMING_EXPLANATION);
    // Asking again could never help: only an administrator can give the role.
    await expect(failure.getByRole('button', { name: en.reader.retry })).toHaveCount(0);
    // The failed page keeps its place in the strip: the message sits inside the page's slot.
    const slot = await first.boundingBox();
    const message = await failure.boundingBox();
    expect(slot && message && message.y >= slot.y && message.y + message.height <= slot.y + slot.height).toBe(true);
  });

  test(`the app bar holds on one line, its log-out button still named (${viewport.width}×${viewport.height})`, async ({ page: p }) => {
    await p.setViewportSize(viewport);
    await logIn(p.context().request, folio.url, ADMIN);
    await p.goto(`${folio.url}/dashboard`);
    const logOut = p.getByRole('button', { name: en.app.log_out });
    await expect(logOut).toBeVisible();
    const layout = await p.locator('header').first().evaluate((bar, label) => {
      const button = [...bar.querySelectorAll('button')].find((b) => b.textContent?.trim() === label)!;
      // One box per line the label's text takes: a wrapped label has two.
      const walker = bar.ownerDocument.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      const lines = new Set<number>();
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const range = bar.ownerDocument.createRange();
        range.selectNodeContents(text);
        for (const box of range.getClientRects()) if (box.width > 0) lines.add(Math.round(box.top));
      }
      return { lines: lines.size, overflows: bar.scrollWidth > bar.clientWidth, barHeight: bar.clientHeight, buttonHeight: button.getBoundingClientRect().height };
    }, en.app.log_out);
    expect(layout.lines).toBe(1);
    expect(layout.overflows).toBe(false);
    expect(layout.buttonHeight).toBeLessThan(layout.barHeight);
  });

  test(`every user sees the history of the content they may see (${viewport.width}×${viewport.height})`, async ({ page: p }) => {
    await p.setViewportSize(viewport);
    await logIn(p.context().request, folio.url, PLAIN);
    await p.goto(`${folio.url}/dashboard`);
    // On a phone the navigation sits behind its toggle.
    if (viewport.width < 600) await p.getByRole('button', { name: en.nav.toggle }).click();
    await p.getByRole('link', { name: en.nav.history }).click();
    await expect(p).toHaveURL(/\/history$/);
    const row = p.getByRole('row', { name: new RegExp(en.history.types.BookFileDeleted) });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Saga 02.cbz');
    await expect(row).not.toContainText(libraryRoot);
    await expect(row.getByRole('link', { name: en.history.open_book })).toHaveAttribute('href', `/book/${ids.deletedBook}`);
  });
}

test('a book whose file was deleted, opened in the reader from an old link, says so and offers a way on', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, READER);
  await p.goto(`${folio.url}/book/${ids.deletedBook}/read`);
  // Not a page that failed with "Try again", which could never succeed.
  await expect(p.getByRole('alert')).toHaveText(en.content.book_unavailable);
  // The reader's toolbar (and its back button) is not there: the message carries the way on.
  await p.getByRole('link', { name: en.reader.back }).click();
  await expect(p).toHaveURL(new RegExp(`/book/${ids.deletedBook}$`));
});

test('a book that does not exist (any more), opened in the reader, says it cannot be found and offers a way home', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, READER);
  await p.goto(`${folio.url}/book/NO-SUCH-BOOK/read`);
  await expect(p.getByRole('alert')).toHaveText(en.reader.book_not_found);
  // No "back to the book": there is no book page to go back to.
  await expect(p.getByRole('link', { name: en.reader.back })).toHaveCount(0);
  await p.getByRole('link', { name: en.not_found.back_home }).click();
  await expect(p).toHaveURL(/\/dashboard$/);
});

test('a book hidden from the user (a library not shared with them) opened by its address says it cannot be found', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, OUTSIDER);
  // Folio answers 404 for a book the user may not see, so as not to reveal that it exists.
  const answer = p.waitForResponse((response) => new URL(response.url()).pathname === `/api/v1/books/${ids.book}`);
  await p.goto(`${folio.url}/book/${ids.book}/read`);
  expect((await answer).status()).toBe(404);
  const alert = p.getByRole('alert');
  await expect(alert).toHaveText(en.reader.book_not_found);
});

test('a user with no library shared is welcomed with that, not told that no library exists', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, OUTSIDER);
  await p.goto(`${folio.url}/dashboard`);
  await expect(p).toHaveURL(/\/welcome$/);
  // The server has a library; it is only not shared with this user (before: "No library has been added yet.").
  await expect(p.getByText(en.welcome.none_shared)).toBeVisible();
  await expect(p.getByText(en.welcome.ask_admin_share)).toBeVisible();
  await expect(p.getByText(en.welcome.no_library)).toHaveCount(0);
  await expect(p.getByRole('button', { name: en.welcome.add_library })).toHaveCount(0);
});

test('a reader who is shared a library but sees none of its books is told to ask an administrator, not to scan', async ({ page: p }) => {
  await logIn(p.context().request, folio.url, SHELTERED);
  await p.goto(`${folio.url}/dashboard`);
  // Only an administrator can scan (before: "Scan a library to fill it.", with nothing to scan with).
  await expect(p.getByText(en.dashboard.empty_reader)).toBeVisible();
  await expect(p.getByText(en.dashboard.empty)).toHaveCount(0);
});

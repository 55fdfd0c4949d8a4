import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import type { UserDto } from '../../../src/api/types.ts';
import { renderAt } from './render.tsx';

/**
 * The notes that used to go into the page together with their text, which screen readers often do
 * not speak: the app bar's pending-task count, loading notes and the login screen's "session ended"
 * note. Each is now said inside a polite live region (LiveStatus) that was in the page, empty,
 * before its message. Real Chromium; the login screen asks the run's real server whether it is claimed.
 */
const { AppShell } = await import('../../../src/ui/shell/AppShell.tsx');
const { Loading } = await import('../../../src/ui/components/Feedback.tsx');
const { LoginScreen } = await import('../../../src/ui/screens/LoginScreen.tsx');
const { live } = await import('../../../src/ui/events/liveStore.ts');
const { session } = await import('../../../src/ui/store/session.ts');
const { TASK_COUNT_SPOKEN_EVERY_MS } = await import('../../../src/ui/shell/useTaskCountAnnouncement.ts');

const ADMIN: UserDto = {
  id: 'u-live-regions',
  email: 'admin@example.org',
  roles: ['ADMIN'],
  sharedAllLibraries: true,
  sharedLibrariesIds: [],
  labelsAllow: [],
  labelsExclude: [],
  ageRestriction: null,
};

/**
 * Records, from now on, each live region added to the page with the text it had when it was
 * added (the observer runs right after the insertion, before any later change).
 */
function watchAddedRegions(): { text: string; region: Element }[] {
  const added: { text: string; region: Element }[] = [];
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        const regions = [node, ...node.querySelectorAll('*')].filter((e) => e.matches('[role="status"]'));
        for (const region of regions) added.push({ text: region.textContent ?? '', region });
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  cleanups.push(() => observer.disconnect());
  return added;
}

/** The region that says `text` now, checked to be polite and to have been added empty. */
async function expectSaidInRegionAddedEmpty(added: { text: string; region: Element }[], text: string): Promise<void> {
  await vi.waitFor(() => expect(added.some((a) => a.region.textContent?.includes(text))).toBe(true));
  const entry = added.find((a) => a.region.textContent?.includes(text))!;
  expect(entry.text, 'the region was in the page before its message').toBe('');
  expect(entry.region.getAttribute('role')).toBe('status');
  expect(entry.region.getAttribute('aria-live')).toBe('polite');
}

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
  live.pendingTasks = 0;
  session.me = null;
  session.endedReason = null;
  vi.useRealTimers();
});

describe('notes that appear with their screen are spoken', () => {
  it('a loading note', async () => {
    const added = watchAddedRegions();
    const view = renderAt('/', <Loading label="Fetching the shelf…" />);
    cleanups.push(view.unmount);
    await expectSaidInRegionAddedEmpty(added, 'Fetching the shelf…');
  });

  it('the login screen\'s "session ended" note', async () => {
    session.endedReason = 'Your session has ended. Please log in again.';
    const added = watchAddedRegions();
    const view = renderAt('/login', <LoginScreen />);
    cleanups.push(view.unmount);
    await expect.element(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expectSaidInRegionAddedEmpty(added, 'Your session has ended. Please log in again.');
  });
});

describe('the app bar\'s pending-task count', () => {
  it('is said in a polite region that was there before: when work starts, calmly while it goes on, and when it ends', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    session.me = ADMIN;
    const view = renderAt('/dashboard', <AppShell>{null}</AppShell>);
    cleanups.push(view.unmount);
    const region = page.getByRole('status').filter({ has: page.getByText(/pending task|All tasks done/) });
    await expect.element(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    // The region is there, empty, while the queue is idle.
    const regions = [...document.querySelectorAll('header [role="status"]')];
    expect(regions).toHaveLength(1);
    expect(regions[0]!.textContent).toBe('');
    expect(regions[0]!.getAttribute('aria-live')).toBe('polite');

    live.pendingTasks = 3;
    await expect.element(region).toHaveTextContent('3 pending tasks');
    expect(region.element()).toBe(regions[0]);

    // A scan changes the count several times a second: the region keeps the last count said…
    live.pendingTasks = 40;
    live.pendingTasks = 41;
    await expect.element(page.getByText('41', { exact: true })).toBeVisible();
    expect(region.element().textContent).toBe('3 pending tasks');
    // …and says the latest one once the pause is over.
    vi.advanceTimersByTime(TASK_COUNT_SPOKEN_EVERY_MS);
    await expect.element(region).toHaveTextContent('41 pending tasks');

    live.pendingTasks = 0;
    await expect.element(region).toHaveTextContent('All tasks done');
  });
});

import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { UserDto } from '../../../src/api/types.ts';
import { live } from '../../../src/ui/events/liveStore.ts';
import { tPlural } from '../../../src/ui/i18n.ts';
import { AppShell } from '../../../src/ui/shell/AppShell.tsx';
import { session } from '../../../src/ui/store/session.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { renderAt } from './render.tsx';

/**
 * The app bar on a phone while an administrator's library is being scanned: the pending-task count,
 * the search field and the log-out button share 360 px. Its longest wording ("1.234 ausstehende
 * Aufgaben") used to push the log-out button past the screen's edge.
 */
const ADMIN: UserDto = {
  id: 'u1',
  email: 'admin@example.org',
  roles: ['ADMIN'],
  sharedAllLibraries: true,
  sharedLibrariesIds: [],
  labelsAllow: [],
  labelsExclude: [],
  ageRestriction: null,
};

let view: ReturnType<typeof renderAt> | undefined;
beforeEach(() => {
  session.me = ADMIN;
  session.libraries = [];
  live.pendingTasks = 1234;
});
afterEach(() => {
  view?.unmount();
  live.pendingTasks = 0;
});
afterAll(async () => {
  session.me = null;
  await page.viewport(1280, 800);
  await applyLocale('en');
});

describe('the app bar on a phone, tasks pending', () => {
  for (const locale of ['en', 'de', 'ru']) {
    it(`keeps the log-out button on screen and says how many tasks wait (${locale})`, async () => {
      await applyLocale(locale);
      await page.viewport(360, 740);
      view = renderAt('/dashboard', <AppShell>content</AppShell>);
      const status = () => view!.container.querySelector('[role="status"]')?.textContent ?? '';
      // Read out in full (the count alone is what a phone shows, hidden from screen readers).
      await expect.poll(status).toContain(tPlural('app.pending_tasks', 1234));
      const bar = view.container.querySelector('header')!;
      expect(bar.scrollWidth).toBeLessThanOrEqual(bar.clientWidth);
      const logOut = [...bar.querySelectorAll('button')].at(-1)!.getBoundingClientRect();
      expect(logOut.right).toBeLessThanOrEqual(window.innerWidth);
      expect(logOut.width).toBeGreaterThan(0);
    });
  }
});

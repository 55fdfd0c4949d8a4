import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { LibraryDto, UserDto } from '../../../src/api/types.ts';
import { NavDrawer } from '../../../src/ui/shell/NavDrawer.tsx';
import { session } from '../../../src/ui/store/session.ts';
import { renderAt } from './render.tsx';

/**
 * The navigation's Libraries section. A reader with no library shared with them saw a "Libraries"
 * heading over nothing (the administrator has the add button under it, and nobody else has
 * anything there): the heading now shows when the section has something in it.
 */
const user = (roles: UserDto['roles']): UserDto => ({
  id: 'u1',
  email: 'someone@example.org',
  roles,
  sharedAllLibraries: false,
  sharedLibrariesIds: [],
  labelsAllow: [],
  labelsExclude: [],
  ageRestriction: null,
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());
afterAll(() => {
  session.me = null;
  session.libraries = [];
});

describe('the navigation\'s Libraries section', () => {
  it('is left out for a reader with no library', async () => {
    session.me = user(['PAGE_STREAMING']);
    session.libraries = [];
    view = renderAt('/dashboard', <NavDrawer id="nav" open modal={false} onNavigate={() => {}} onClose={() => {}} />);
    await expect.element(page.getByRole('link', { name: 'History' })).toBeVisible();
    expect(view.container.textContent).not.toContain('Libraries');
  });

  it('shows for a reader with a library, and for an administrator with none (to add one)', async () => {
    session.me = user(['PAGE_STREAMING']);
    session.libraries = [{ id: 'l1', name: 'Comics' } as LibraryDto];
    view = renderAt('/dashboard', <NavDrawer id="nav" open modal={false} onNavigate={() => {}} onClose={() => {}} />);
    await expect.element(page.getByRole('heading', { name: 'Libraries' })).toBeVisible();
    await expect.element(page.getByRole('link', { name: 'Comics' })).toBeVisible();
    view.unmount();

    session.me = user(['ADMIN']);
    session.libraries = [];
    view = renderAt('/dashboard', <NavDrawer id="nav" open modal={false} onNavigate={() => {}} onClose={() => {}} />);
    await expect.element(page.getByRole('heading', { name: /^Libraries/ })).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'New library' })).toBeVisible();
  });
});

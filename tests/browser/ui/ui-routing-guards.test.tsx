import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { Route, Switch } from 'wouter';
import type { LibraryDto, UserDto } from '../../../src/api/types.ts';
import { RequireAdmin, RequireAuth, RequireLibrary } from '../../../src/ui/routing/guards.tsx';
import { safeRedirectTarget } from '../../../src/ui/routing/redirectTarget.ts';
import { session } from '../../../src/ui/store/session.ts';
import { renderAt } from './render.tsx';

const USER: UserDto = {
  id: 'u2',
  email: 'reader@example.org',
  roles: ['USER'],
  sharedAllLibraries: true,
  sharedLibrariesIds: [],
  labelsAllow: [],
  labelsExclude: [],
  ageRestriction: null,
};

function Guarded() {
  return (
    <Switch>
      <Route path="/startup">startup screen</Route>
      <Route path="/welcome">welcome screen</Route>
      <Route path="/">home screen</Route>
      <Route path="/settings/users">
        <RequireAuth>
          <RequireAdmin>users screen</RequireAdmin>
        </RequireAuth>
      </Route>
      <Route path="/libraries/:id/series">
        <RequireAuth>
          <RequireLibrary>series screen</RequireLibrary>
        </RequireAuth>
      </Route>
    </Switch>
  );
}

let view: ReturnType<typeof renderAt> | undefined;
beforeEach(() => {
  session.me = null;
  session.libraries = [];
});
afterEach(() => view?.unmount());

describe('route guards', () => {
  it('sends an anonymous visitor to /startup carrying the full original path and query', async () => {
    view = renderAt('/libraries/all/series?page=2', <Guarded />);
    await expect.element(page.getByText('startup screen')).toBeVisible();
    expect(view.currentPath()).toBe('/startup?redirect=%2Flibraries%2Fall%2Fseries%3Fpage%3D2');
  });

  it('sends a non-admin away from admin routes to home', async () => {
    session.me = USER;
    view = renderAt('/settings/users', <Guarded />);
    await expect.element(page.getByText('home screen')).toBeVisible();
  });

  it('lets an admin in', async () => {
    session.me = { ...USER, roles: ['ADMIN'] };
    view = renderAt('/settings/users', <Guarded />);
    await expect.element(page.getByText('users screen')).toBeVisible();
  });

  it('sends a user without libraries to /welcome, and one with a library through', async () => {
    session.me = USER;
    view = renderAt('/libraries/all/series', <Guarded />);
    await expect.element(page.getByText('welcome screen')).toBeVisible();
    view.unmount();
    session.libraries = [{ id: 'L1', name: 'Comics' } as LibraryDto];
    view = renderAt('/libraries/all/series', <Guarded />);
    await expect.element(page.getByText('series screen')).toBeVisible();
  });

  it('accepts only in-app redirect targets', () => {
    expect(safeRedirectTarget('/series/1?page=2')).toBe('/series/1?page=2');
    expect(safeRedirectTarget('//evil.example')).toBe('/dashboard');
    expect(safeRedirectTarget('https://evil.example')).toBe('/dashboard');
    expect(safeRedirectTarget('/login?redirect=/x')).toBe('/dashboard');
    expect(safeRedirectTarget(null)).toBe('/dashboard');
  });
});

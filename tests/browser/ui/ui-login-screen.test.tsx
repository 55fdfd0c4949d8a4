import { afterEach, beforeEach, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { UserDto } from '../../../src/api/types.ts';
import { failRequests, rest } from '../support/folio.ts';
import { renderAt } from './render.tsx';

/**
 * The run's real server, already claimed by its administrator, whom every browser test file shares:
 * logging in here only adds a session of the same user. An unclaimed server and a failing login
 * are answered by the browser (see each test); the server cannot be un-claimed or made to fail.
 */
const ADMIN = inject('folioAdmin');

const { LoginScreen } = await import('../../../src/ui/screens/LoginScreen.tsx');
const { session } = await import('../../../src/ui/store/session.ts');
const { preferences } = await import('../../../src/ui/store/preferences.ts');

let view: ReturnType<typeof renderAt> | undefined;

beforeEach(() => {
  session.me = null;
  preferences.rememberMe = false;
});

afterEach(() => view?.unmount());

describe('LoginScreen', () => {
  it('offers to create the first account on an unclaimed server, then logs in with it', async () => {
    const unclaimed = await failRequests(/\/api\/v1\/claim$/, 200, { isClaimed: false }, 'GET');
    const claim = await failRequests(/\/api\/v1\/claim$/, 200, { id: 'x', email: ADMIN.email, roles: ['ADMIN'] }, 'POST');
    onTestFinished(async () => {
      await unclaimed.restore();
      await claim.restore();
    });
    view = renderAt('/login?redirect=%2Flibraries%2Fall%2Fseries', <LoginScreen />);
    await expect.element(page.getByRole('heading', { name: 'Create the first account' })).toBeVisible();
    await expect.element(page.getByLabelText('Remember me')).not.toBeInTheDocument();
    await userEvent.fill(page.getByLabelText('Email'), ADMIN.email);
    await userEvent.fill(page.getByLabelText('Password'), ADMIN.password);
    await userEvent.click(page.getByRole('button', { name: 'Create account' }));
    await vi.waitFor(() => expect(view?.currentPath()).toBe('/libraries/all/series'));
    expect(await claim.answered()).toBe(1);
    // Then logged in for real, with the account just created.
    expect(session.me?.id).toBe((await rest<UserDto>('GET', '/api/v2/users/me')).id);
    expect(session.me?.email).toBe(ADMIN.email);
  });

  it('says "Invalid authentication" on a 401 and stays on the login screen', async () => {
    view = renderAt('/login', <LoginScreen />);
    // Nobody has this account: the real server answers 401.
    await userEvent.fill(page.getByLabelText('Email'), 'login-nobody@example.org');
    await userEvent.fill(page.getByLabelText('Password'), 'wrong');
    await userEvent.click(page.getByRole('button', { name: 'Log in' }));
    await expect.element(page.getByRole('alert')).toHaveTextContent('Invalid authentication');
    expect(session.me).toBeNull();
    expect(view.currentPath()).toBe('/login');
  });

  it('shows the failed-call message for other failures', async () => {
    const failing = await failRequests(/\/api\/v2\/users\/me\?remember-me=/, 500, { message: 'Database is locked' });
    onTestFinished(() => failing.restore());
    view = renderAt('/login', <LoginScreen />);
    await userEvent.fill(page.getByLabelText('Email'), 'a@b.c');
    await userEvent.fill(page.getByLabelText('Password'), 'x');
    await userEvent.click(page.getByRole('button', { name: 'Log in' }));
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('An error occurred while trying to log in: Database is locked');
  });

  it('remembers the "Remember me" choice in localStorage and sends it with the login', async () => {
    view = renderAt('/login', <LoginScreen />);
    await userEvent.click(page.getByLabelText('Remember me'));
    await vi.waitFor(() => expect(JSON.parse(localStorage.getItem('folio.preferences') ?? '{}').rememberMe).toBe(true));
    const sent: string[] = [];
    const realFetch = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(input instanceof Request ? input.url : String(input));
      return realFetch(input, init);
    };
    onTestFinished(() => {
      window.fetch = realFetch;
    });
    await userEvent.fill(page.getByLabelText('Email'), ADMIN.email);
    await userEvent.fill(page.getByLabelText('Password'), ADMIN.password);
    await userEvent.click(page.getByRole('button', { name: 'Log in' }));
    await vi.waitFor(() => expect(view?.currentPath()).toBe('/dashboard'));
    expect(sent.filter((url) => url.includes('/api/v2/users/me?'))).toEqual([expect.stringContaining('remember-me=true')]);
  });

  it('refuses to redirect outside the app after login', async () => {
    view = renderAt('/login?redirect=%2F%2Fevil.example%2F', <LoginScreen />);
    await userEvent.fill(page.getByLabelText('Email'), ADMIN.email);
    await userEvent.fill(page.getByLabelText('Password'), ADMIN.password);
    await userEvent.click(page.getByRole('button', { name: 'Log in' }));
    await vi.waitFor(() => expect(view?.currentPath()).toBe('/dashboard'));
  });
});

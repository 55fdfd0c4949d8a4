import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { UserDto } from '../../../src/api/types.ts';
import { failRequests, logInAsAdmin, rest } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { UsersScreen } = await import('../../../src/ui/settings/UsersScreen.tsx');
const { AccountScreen } = await import('../../../src/ui/account/AccountScreen.tsx');
const { session } = await import('../../../src/ui/store/session.ts');
const { OAuth2Login } = await import('../../../src/ui/account/OAuth2Login.tsx');
const { returnFromOAuth2Popup } = await import('../../../src/ui/account/oauth2Popup.ts');

/**
 * The users live on the run's server; this file's own are named accounts-…. The page stays logged in
 * as the run's administrator throughout: its session is shared by every browser test file.
 */
let ADMIN: UserDto;
let READER: UserDto;
let DOOMED: UserDto;

const createUser = (email: string, roles: string[]) =>
  rest<UserDto>('POST', '/api/v2/users', { email, password: 'reader password', roles, sharedLibraries: { all: true, libraryIds: [] } });
const users = () => rest<UserDto[]>('GET', '/api/v2/users');
const userNamed = async (email: string) => (await users()).find((u) => u.email === email);

beforeAll(async () => {
  ADMIN = await logInAsAdmin();
  READER = await createUser('accounts-reader@example.org', ['PAGE_STREAMING']);
  DOOMED = await createUser('accounts-doomed@example.org', []);
  // A login of the reader: its latest activity ('omit': the page's own session cookie stays).
  const login = await fetch('/api/v2/users/me', {
    headers: { Authorization: `Basic ${btoa('accounts-reader@example.org:reader password')}`, 'X-Requested-With': 'XMLHttpRequest' },
    credentials: 'omit',
  });
  expect(login.status).toBe(200);
});

let view: ReturnType<typeof renderAt> | undefined;
beforeEach(() => {
  session.me = ADMIN;
  session.libraries = [];
});
afterEach(() => view?.unmount());

/** Waits until the element's text contains `text`. */
const hasText = (locator: { element: () => Element }, text: string) =>
  vi.waitFor(() => expect(locator.element().textContent).toContain(text));


describe('users administration', () => {
  it('lists users with roles and latest activity; the admin cannot edit or delete themselves', async () => {
    view = renderAt('/settings/users', <UsersScreen adding={false} />);
    const readerRow = page.getByRole('row', { name: /accounts-reader@example\.org/ }).first();
    await hasText(readerRow, 'Page streaming');
    await hasText(readerRow, 'Success');
    const adminRow = page.getByRole('row', { name: new RegExp(`^${ADMIN.email.replace('.', '\\.')}`) }).first();
    await hasText(adminRow, 'Administrator');
    await hasText(page.getByRole('row', { name: /accounts-doomed@example\.org/ }).first(), 'Never logged in');
    await expect.element(adminRow.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await expect.element(readerRow.getByRole('button', { name: 'Delete' })).toBeEnabled();
  });

  it('add-user child route: validates email and password, then creates the user with the chosen roles', async () => {
    view = renderAt('/settings/users/add', <UsersScreen adding />);
    const dialog = page.getByRole('dialog');
    await userEvent.fill(dialog.getByLabelText('Email'), 'not-an-email');
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await expect.element(dialog.getByText('Must be a valid email address')).toBeVisible();
    await expect.element(dialog.getByText('Password is required')).toBeVisible();
    // Refused by the dialog itself: the path stays, no user was created.
    expect(view.currentPath()).toBe('/settings/users/add');

    await userEvent.fill(dialog.getByLabelText('Email'), 'accounts-new@example.org');
    await userEvent.fill(dialog.getByLabelText('Password'), 'secret');
    await userEvent.click(dialog.getByLabelText('Administrator'));
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await vi.waitFor(() => expect(view?.currentPath()).toBe('/settings/users'));
    const created = await userNamed('accounts-new@example.org');
    expect([...(created?.roles ?? [])].sort()).toEqual(['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING', 'USER']);
    // Created with that password: it logs in (without touching this page's session).
    const login = await fetch('/api/v2/users/me', {
      headers: { Authorization: `Basic ${btoa('accounts-new@example.org:secret')}`, 'X-Requested-With': 'XMLHttpRequest' },
      credentials: 'omit',
    });
    expect(login.status).toBe(200);
  });

  it('edits restrictions: age restriction and labels become a UserUpdateDto', async () => {
    view = renderAt('/settings/users', <UsersScreen adding={false} />);
    await userEvent.click(page.getByRole('row', { name: /accounts-reader@example\.org/ }).first().getByRole('button', { name: 'Edit restrictions' }));
    const dialog = page.getByRole('dialog');
    await userEvent.selectOptions(dialog.getByLabelText('Age restriction'), 'ALLOW_ONLY');
    await userEvent.fill(dialog.getByLabelText('Age', { exact: true }), '12');
    await userEvent.fill(dialog.getByLabelText('Exclude labels'), 'Adult, gore, adult');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(dialog).not.toBeInTheDocument();
    expect(await userNamed(READER.email)).toMatchObject({
      sharedAllLibraries: true,
      ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' },
      labelsAllow: [],
      labelsExclude: ['adult', 'gore'],
    });
  });

  it('an age restriction picked without an age is refused, not saved as "only under 0" (which hides every book)', async () => {
    const unaged = await createUser('accounts-unaged@example.org', ['PAGE_STREAMING']);
    view = renderAt('/settings/users', <UsersScreen adding={false} />);
    await userEvent.click(page.getByRole('row', { name: /accounts-unaged@example\.org/ }).first().getByRole('button', { name: 'Edit restrictions' }));
    const dialog = page.getByRole('dialog');
    await userEvent.selectOptions(dialog.getByLabelText('Age restriction'), 'ALLOW_ONLY');
    const age = dialog.getByLabelText('Age', { exact: true });
    // Nothing typed: the field starts empty rather than at an age that reads as a choice.
    await expect.element(age).toHaveValue(null);
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(age).toHaveAttribute('aria-invalid', 'true');
    await expect.element(dialog.getByText('Age must be 0 or more')).toBeVisible();
    expect((await userNamed(unaged.email))?.ageRestriction ?? null).toBeNull();
    await userEvent.fill(age, '13');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(dialog).not.toBeInTheDocument();
    expect((await userNamed(unaged.email))?.ageRestriction).toEqual({ age: 13, restriction: 'ALLOW_ONLY' });
  });

  it('on a phone, each row action stays one line (the row is a card whose buttons wrap, never breaking words)', async () => {
    await page.viewport(360, 740);
    try {
      view = renderAt('/settings/users', <UsersScreen adding={false} />);
      const row = page.getByRole('row', { name: /accounts-reader@example\.org/ }).first();
      await expect.element(row.getByRole('button', { name: 'Edit restrictions' })).toBeVisible();
      for (const button of row.element().querySelectorAll('button')) {
        // One line box per text: "Edit restrictions" once broke into "Edi / t / res / tric / tio / ns".
        const range = document.createRange();
        range.selectNodeContents(button);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        expect(lines.size, button.textContent ?? '').toBe(1);
      }
    } finally {
      await page.viewport(1280, 800);
    }
  });

  it('deletes only after the irreversible warning is acknowledged', async () => {
    view = renderAt('/settings/users', <UsersScreen adding={false} />);
    await userEvent.click(page.getByRole('row', { name: /accounts-doomed@example\.org/ }).first().getByRole('button', { name: 'Delete' }));
    const dialog = page.getByRole('dialog');
    await hasText(dialog, 'This action is irreversible.');
    await expect.element(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await userEvent.click(dialog.getByLabelText('I understand this cannot be undone'));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    await vi.waitFor(async () => expect(await userNamed(DOOMED.email)).toBeUndefined());
    expect(await userNamed(READER.email)).toBeDefined();
  });
});

describe('account', () => {
  it('changes the password only when the repetition matches', async () => {
    // A real change would end every other session of the run's administrator, whom all browser test
    // files share at once: the browser answers this one request as the server does.
    const change = await failRequests(/\/api\/v2\/users\/me\/password$/, 204, '');
    view = renderAt('/account', <AccountScreen />);
    await userEvent.fill(page.getByLabelText('Current password'), 'zero');
    await userEvent.fill(page.getByLabelText('New password', { exact: true }), 'one');
    await userEvent.fill(page.getByLabelText('Repeat new password'), 'two');
    await userEvent.click(page.getByRole('button', { name: 'Change password' }));
    await expect.element(page.getByText('The passwords must be identical')).toBeVisible();
    expect(await change.answered()).toBe(0);
    await userEvent.fill(page.getByLabelText('Repeat new password'), 'one');
    await userEvent.click(page.getByRole('button', { name: 'Change password' }));
    await expect.element(page.getByText('Your password has been changed.')).toBeVisible();
    expect(await change.answered()).toBe(1);
    await change.restore();
  });

  it('shows a new API key once, then only its comment; deletes it', async () => {
    view = renderAt('/account', <AccountScreen />);
    await expect.element(page.getByText('No API keys.')).toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Create API key' }));
    const dialog = page.getByRole('dialog');
    await userEvent.fill(dialog.getByLabelText('Comment'), 'Tablet');
    await userEvent.click(dialog.getByRole('button', { name: 'Generate' }));
    // The key is in a read-only field (selected whole on focus, with a Copy button beside it).
    const [key] = await vi.waitUntil(() => ((dialog.getByLabelText('New API key').query() as HTMLInputElement | null)?.value ?? '').match(/[0-9a-f]{32,}/));
    await userEvent.click(dialog.getByRole('button', { name: 'Done' }));
    await expect.element(page.getByRole('cell', { name: 'Tablet' })).toBeVisible();
    await expect.element(page.getByText(key)).not.toBeInTheDocument();
    // The key the dialog showed works: it authenticates as this user.
    const withKey = await fetch('/api/v2/users/me', { headers: { 'X-API-Key': key }, credentials: 'omit' });
    expect((await withKey.json()).email).toBe(ADMIN.email);
    await userEvent.click(page.getByRole('row', { name: /Tablet/ }).getByRole('button', { name: 'Delete' }));
    await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Delete' }));
    await expect.element(page.getByText('No API keys.')).toBeVisible();
    expect(await rest('GET', '/api/v2/users/me/api-keys')).toEqual([]);
  });

  it('lists the own authentication activity', async () => {
    view = renderAt('/account', <AccountScreen />);
    const table = page.getByRole('table', { name: 'Authentication activity' });
    // This run's logins of the administrator, from this browser.
    await hasText(table, '127.0.0.1');
    await hasText(table, navigator.userAgent.slice(0, 40));
  });
});

describe('OAuth2 login', () => {
  it('offers the providers and explains an error code brought back by the server', async () => {
    view = renderAt('/login?server_redirect=Y&error=ERR_1025', <OAuth2Login />);
    await expect.element(page.getByRole('button', { name: 'Log in with Fake ID' })).toBeVisible();
    await hasText(page.getByRole('alert'), 'Login failed: OAuth2 login: no local user has that email');
  });

  it('fr: the server\'s own codes are said in words, a provider\'s own code after "the provider refused"', async () => {
    const { applyLocale } = await import('../../../src/ui/store/localeChoice.ts');
    const { t } = await import('../../../src/ui/i18n.ts');
    await applyLocale('fr');
    onTestFinished(() => applyLocale('en'));
    for (const [code, expected] of [
      ['invalid_state', t('users_admin.activity.errors.login_state')],
      ['invalid_id_token', t('users_admin.activity.errors.token_failed')],
      ['server_error', t('error_codes.temporarily_unavailable')],
      ['access_denied', t('users_admin.activity.errors.provider_refused', { reason: 'access_denied' })],
    ] as const) {
      view?.unmount();
      view = renderAt(`/login?server_redirect=Y&error=${code}`, <OAuth2Login />);
      await hasText(page.getByRole('alert'), t('oauth2_login.failed', { reason: expected }));
      if (code !== 'access_denied') expect(page.getByRole('alert').element().textContent).not.toContain(code);
    }
  });

  it('a provider list the server failed to give is said (SPEC §8: retrieve oauth2 providers), not only logged', async () => {
    const providers = await failRequests(/\/api\/v1\/oauth2\/providers$/, 503, { message: 'Service Unavailable' });
    onTestFinished(() => providers.restore());
    view = renderAt('/login', <OAuth2Login />);
    await hasText(page.getByRole('alert'), 'An error occurred while trying to retrieve oauth2 providers');
    expect(await providers.answered()).toBeGreaterThan(0);
  });

  it('a returning popup sends its opener to the app (or to the error) and closes', () => {
    const fakeWindow = (search: string, name = 'oauth2Login') => {
      const opener = { location: { href: '' } };
      const win = {
        name,
        opener,
        closed: false,
        location: { search, origin: 'https://folio.example', href: `https://folio.example/login${search}` },
        close() {
          win.closed = true;
        },
      };
      return win;
    };
    const ok = fakeWindow('?server_redirect=Y');
    expect(returnFromOAuth2Popup(ok as unknown as Window)).toBe(true);
    expect(ok.opener.location.href).toBe('https://folio.example/');
    expect(ok.closed).toBe(true);

    const failed = fakeWindow('?server_redirect=Y&error=ERR_1026');
    expect(returnFromOAuth2Popup(failed as unknown as Window)).toBe(true);
    expect(failed.opener.location.href).toBe('https://folio.example/login?server_redirect=Y&error=ERR_1026');

    // Not a popup of ours (or no flag): nothing happens.
    const other = fakeWindow('?server_redirect=Y', 'main');
    expect(returnFromOAuth2Popup(other as unknown as Window)).toBe(false);
    expect(other.closed).toBe(false);
    expect(returnFromOAuth2Popup(fakeWindow('') as unknown as Window)).toBe(false);
  });
});

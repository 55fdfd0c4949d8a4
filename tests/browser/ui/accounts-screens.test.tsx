import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { ApiKeyDto, AuthenticationActivityDto, Page, UserCreationDto, UserDto, UserUpdateDto } from '../../../src/api/types.ts';
import { renderAt } from './render.tsx';

/** The users API is replaced by an in-memory fake recording every call the screens make. */
const api = vi.hoisted(() => ({
  users: [] as UserDto[],
  calls: [] as { name: string; args: unknown[] }[],
  keys: [] as ApiKeyDto[],
}));

const page0 = <T,>(content: T[]): Page<T> => ({
  content,
  pageable: { pageNumber: 0, pageSize: 20, offset: 0, paged: true, unpaged: false, sort: { sorted: true, unsorted: false, empty: false } },
  totalElements: content.length,
  totalPages: 1,
  number: 0,
  size: 20,
  numberOfElements: content.length,
  first: true,
  last: true,
  empty: content.length === 0,
  sort: { sorted: true, unsorted: false, empty: false },
});

const ACTIVITY: AuthenticationActivityDto = {
  userId: 'u2', email: 'reader@example.org', apiKeyId: null, apiKeyComment: null, ip: '10.0.0.7',
  userAgent: 'Reader/1.0', success: false, error: 'Bad credentials', dateTime: '2026-01-02T03:04:05Z', source: 'Password',
};

vi.mock('../../../src/api/users.ts', () => {
  const record = (name: string) => async (...args: unknown[]) => {
    api.calls.push({ name, args });
  };
  return {
    getUsers: async () => api.users,
    createUser: async (user: UserCreationDto) => {
      api.calls.push({ name: 'createUser', args: [user] });
      return { ...user, id: 'new' };
    },
    updateUser: record('updateUser'),
    deleteUser: record('deleteUser'),
    updateUserPassword: record('updateUserPassword'),
    updateMyPassword: record('updateMyPassword'),
    getLatestActivity: async (id: string) => (id === 'u2' ? ACTIVITY : null),
    getAuthenticationActivity: async () => page0([ACTIVITY]),
    getMyAuthenticationActivity: async () => page0([ACTIVITY]),
    getOAuth2Providers: async () => [{ name: 'Fake ID', registrationId: 'fake' }],
    getApiKeys: async () => api.keys,
    createApiKey: async (comment: string) => {
      const key: ApiKeyDto = { id: 'k1', userId: 'u2', key: 'f'.repeat(64), comment, createdDate: '2026-01-01T00:00:00Z', lastModifiedDate: '2026-01-01T00:00:00Z' };
      api.keys = [{ ...key, key: '******' }];
      api.calls.push({ name: 'createApiKey', args: [comment] });
      return key;
    },
    deleteApiKey: async (id: string) => {
      api.keys = [];
      api.calls.push({ name: 'deleteApiKey', args: [id] });
    },
  };
});

const { UsersScreen } = await import('../../../src/ui/settings/UsersScreen.tsx');
const { AccountScreen } = await import('../../../src/ui/account/AccountScreen.tsx');
const { session } = await import('../../../src/ui/store/session.ts');
const { OAuth2Login } = await import('../../../src/ui/account/OAuth2Login.tsx');
const { returnFromOAuth2Popup } = await import('../../../src/ui/account/oauth2Popup.ts');

const ADMIN: UserDto = { id: 'u1', email: 'admin@example.org', roles: ['ADMIN', 'USER'], sharedAllLibraries: true, sharedLibrariesIds: [], labelsAllow: [], labelsExclude: [] };
const READER: UserDto = { id: 'u2', email: 'reader@example.org', roles: ['PAGE_STREAMING', 'USER'], sharedAllLibraries: true, sharedLibrariesIds: [], labelsAllow: [], labelsExclude: [] };

let view: ReturnType<typeof renderAt> | undefined;
beforeEach(() => {
  api.users = [ADMIN, READER];
  api.calls = [];
  api.keys = [];
  session.me = ADMIN;
  session.libraries = [];
});
afterEach(() => view?.unmount());

/** Waits until the element's text contains `text`. */
const hasText = (locator: { element: () => Element }, text: string) =>
  vi.waitFor(() => expect(locator.element().textContent).toContain(text));

const callsNamed = (name: string) => api.calls.filter((c) => c.name === name).map((c) => c.args);

describe('users administration', () => {
  it('lists users with roles and latest activity; the admin cannot edit or delete themselves', async () => {
    view = renderAt('/settings/users', <UsersScreen adding={false} />);
    const readerRow = page.getByRole('row', { name: /reader@example\.org/ }).first();
    await hasText(readerRow, 'Page streaming');
    await hasText(readerRow, 'Failed: Bad credentials');
    const adminRow = page.getByRole('row', { name: /admin@example\.org/ }).first();
    await hasText(adminRow, 'Never logged in');
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
    expect(callsNamed('createUser')).toEqual([]);

    await userEvent.fill(dialog.getByLabelText('Email'), 'new@example.org');
    await userEvent.fill(dialog.getByLabelText('Password'), 'secret');
    await userEvent.click(dialog.getByLabelText('Administrator'));
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await vi.waitFor(() => expect(callsNamed('createUser')).toHaveLength(1));
    const created = callsNamed('createUser')[0]![0] as UserCreationDto;
    expect(created.email).toBe('new@example.org');
    expect(created.password).toBe('secret');
    expect([...created.roles].sort()).toEqual(['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING']);
    await vi.waitFor(() => expect(view?.currentPath()).toBe('/settings/users'));
  });

  it('edits restrictions: age restriction and labels become a UserUpdateDto', async () => {
    view = renderAt('/settings/users', <UsersScreen adding={false} />);
    await userEvent.click(page.getByRole('row', { name: /reader@example\.org/ }).first().getByRole('button', { name: 'Edit restrictions' }));
    const dialog = page.getByRole('dialog');
    await userEvent.selectOptions(dialog.getByLabelText('Age restriction'), 'ALLOW_ONLY');
    await userEvent.fill(dialog.getByLabelText('Age', { exact: true }), '12');
    await userEvent.fill(dialog.getByLabelText('Exclude labels'), 'Adult, gore, adult');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(callsNamed('updateUser')).toHaveLength(1));
    const [id, update] = callsNamed('updateUser')[0] as [string, UserUpdateDto];
    expect(id).toBe('u2');
    expect(update).toEqual({
      sharedLibraries: { all: true, libraryIds: [] },
      ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' },
      labelsAllow: [],
      labelsExclude: ['adult', 'gore'],
    });
  });

  it('deletes only after the irreversible warning is acknowledged', async () => {
    view = renderAt('/settings/users', <UsersScreen adding={false} />);
    await userEvent.click(page.getByRole('row', { name: /reader@example\.org/ }).first().getByRole('button', { name: 'Delete' }));
    const dialog = page.getByRole('dialog');
    await hasText(dialog, 'This action is irreversible.');
    await expect.element(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await userEvent.click(dialog.getByLabelText('I understand this cannot be undone'));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(callsNamed('deleteUser')).toEqual([['u2']]));
  });
});

describe('account', () => {
  it('changes the password only when the repetition matches', async () => {
    session.me = READER;
    view = renderAt('/account', <AccountScreen />);
    await userEvent.fill(page.getByLabelText('Current password'), 'zero');
    await userEvent.fill(page.getByLabelText('New password', { exact: true }), 'one');
    await userEvent.fill(page.getByLabelText('Repeat new password'), 'two');
    await userEvent.click(page.getByRole('button', { name: 'Change password' }));
    await expect.element(page.getByText('The passwords must be identical')).toBeVisible();
    expect(callsNamed('updateMyPassword')).toEqual([]);
    await userEvent.fill(page.getByLabelText('Repeat new password'), 'one');
    await userEvent.click(page.getByRole('button', { name: 'Change password' }));
    await expect.element(page.getByText('Your password has been changed.')).toBeVisible();
    expect(callsNamed('updateMyPassword')).toEqual([['one', 'zero']]);
  });

  it('shows a new API key once, then only its comment; deletes it', async () => {
    session.me = READER;
    view = renderAt('/account', <AccountScreen />);
    await expect.element(page.getByText('No API keys.')).toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Create API key' }));
    const dialog = page.getByRole('dialog');
    await userEvent.fill(dialog.getByLabelText('Comment'), 'Tablet');
    await userEvent.click(dialog.getByRole('button', { name: 'Generate' }));
    await expect.element(dialog.getByText('f'.repeat(64))).toBeVisible();
    await userEvent.click(dialog.getByRole('button', { name: 'Done' }));
    await expect.element(page.getByRole('cell', { name: 'Tablet' })).toBeVisible();
    await expect.element(page.getByText('f'.repeat(64))).not.toBeInTheDocument();
    await userEvent.click(page.getByRole('row', { name: /Tablet/ }).getByRole('button', { name: 'Delete' }));
    await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Delete' }));
    await expect.element(page.getByText('No API keys.')).toBeVisible();
    expect(callsNamed('deleteApiKey')).toEqual([['k1']]);
  });

  it('lists the own authentication activity', async () => {
    session.me = READER;
    view = renderAt('/account', <AccountScreen />);
    const table = page.getByRole('table', { name: 'Authentication activity' });
    await hasText(table, '10.0.0.7');
    await hasText(table, 'Reader/1.0');
  });
});

describe('OAuth2 login', () => {
  it('offers the providers and explains an error code brought back by the server', async () => {
    view = renderAt('/login?server_redirect=Y&error=ERR_1025', <OAuth2Login />);
    await expect.element(page.getByRole('button', { name: 'Log in with Fake ID' })).toBeVisible();
    await hasText(page.getByRole('alert'), 'Login failed: OAuth2 login: no local user has that email');
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

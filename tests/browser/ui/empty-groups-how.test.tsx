import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import en from '../../../locales/en.json';
import type { UserDto } from '../../../src/api/types.ts';
import { logInAsAdmin, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

/**
 * An empty Collections or Read Lists tab said only "No collections here yet.": it now says how one
 * is made. An administrator is pointed to the menu item that makes one, named as the menu names it;
 * a reader, who has no such item, is told who makes them.
 */
const { GroupsView } = await import('../../../src/ui/screens/library/GroupsView.tsx');
const { session } = await import('../../../src/ui/store/session.ts');

let admin: UserDto;
let libraryId = '';

beforeAll(async () => {
  admin = await logInAsAdmin();
  libraryId = await seedLibrary('empty-groups', [{ folder: 'Lonely Saga', books: [{ name: 'Lonely Saga 01', pages: [[10, 90, 200]] }] }]);
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => {
  view?.unmount();
  view = undefined;
  session.me = admin;
});

const fill = (text: string, action: string) => text.replace('{{action}}', action);

describe('an empty collections or read lists tab', () => {
  it('tells an administrator which action makes a collection', async () => {
    session.me = admin;
    view = renderAt(`/libraries/${libraryId}/collections`, <GroupsView kind="collections" libraryId={libraryId} />);
    await expect.element(page.getByText(en.groups.collections_empty)).toBeVisible();
    await expect.element(page.getByText(fill(en.groups.collections_how_admin, en.groups.add_dialog.collection_title))).toBeVisible();
  });

  it('tells an administrator which action makes a read list', async () => {
    session.me = admin;
    view = renderAt(`/libraries/${libraryId}/readlists`, <GroupsView kind="readlists" libraryId={libraryId} />);
    await expect.element(page.getByText(en.groups.readlists_empty)).toBeVisible();
    await expect.element(page.getByText(fill(en.groups.readlists_how_admin, en.groups.add_dialog.readlist_title))).toBeVisible();
  });

  it('tells a reader, who cannot make one, that an administrator does', async () => {
    session.me = { ...admin, roles: ['PAGE_STREAMING'] };
    view = renderAt(`/libraries/${libraryId}/readlists`, <GroupsView kind="readlists" libraryId={libraryId} />);
    await expect.element(page.getByText(en.groups.readlists_empty)).toBeVisible();
    await expect.element(page.getByText(en.groups.readlists_how_reader)).toBeVisible();
    expect(view.container.textContent).not.toContain(en.groups.add_dialog.readlist_title);
  });
});

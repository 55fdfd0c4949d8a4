import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { LibraryDto } from '../../../src/api/types.ts';
import { renderAt } from './render.tsx';

const api = vi.hoisted(() => ({
  created: [] as unknown[],
  updates: [] as { id: string; update: unknown }[],
  deleted: [] as string[],
  createFailure: null as unknown,
}));

vi.mock('../../../src/api/libraries.ts', () => ({
  getLibraries: async () => [],
  createLibrary: async (library: { name: string; root: string }) => {
    if (api.createFailure) throw api.createFailure;
    api.created.push(library);
    return { ...LIBRARY, id: 'new', ...library };
  },
}));
vi.mock('../../../src/api/filesystem.ts', () => ({
  listDirectory: async (path: string) => ({
    parent: path === '/data' ? '/' : '/data',
    directories: path === '/data' ? [{ type: 'directory', name: 'comics', path: '/data/comics' }] : [],
    files: [],
  }),
}));
vi.mock('../../../src/api/libraryAdmin.ts', () => ({
  updateLibrary: async (id: string, update: unknown) => {
    api.updates.push({ id, update });
  },
  deleteLibrary: async (id: string) => {
    api.deleted.push(id);
  },
}));

const LIBRARY = {
  id: 'L1',
  name: 'Comics',
  root: '/data/comics',
  convertToCbz: false,
  repairExtensions: false,
  seriesCover: 'FIRST',
  scanInterval: 'EVERY_6H',
  scanDirectoryExclusions: [],
} as unknown as LibraryDto;

const { ApiError } = await import('../../../src/api/http.ts');
const { AddLibraryDialog } = await import('../../../src/ui/dialogs/AddLibraryDialog.tsx');
const { EditLibraryDialog } = await import('../../../src/ui/dialogs/EditLibraryDialog.tsx');
const { NEW_LIBRARY_OPTIONS } = await import('../../../src/ui/dialogs/LibraryOptionsTabs.tsx');
const { DeleteLibraryDialog } = await import('../../../src/ui/dialogs/DeleteLibraryDialog.tsx');
const { session } = await import('../../../src/ui/store/session.ts');

let view: ReturnType<typeof renderAt> | undefined;
beforeEach(() => {
  Object.assign(api, { created: [], updates: [], deleted: [], createFailure: null });
  session.libraries = [LIBRARY];
});
afterEach(() => view?.unmount());

describe('library dialogs', () => {
  it('adds a library from the labelled fields and puts it in the drawer list', async () => {
    const onAdded = vi.fn();
    view = renderAt('/welcome', <AddLibraryDialog open onClose={() => undefined} onAdded={onAdded} />);
    const dialog = page.getByRole('dialog', { name: 'Add library' });
    await userEvent.fill(dialog.getByLabelText('Name'), '  Manga ');
    await userEvent.fill(dialog.getByLabelText('Root folder'), '/data/manga');
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await vi.waitFor(() => expect(onAdded).toHaveBeenCalled());
    // Every option is sent, with the defaults Komga's web client proposes.
    expect(api.created).toEqual([{ ...NEW_LIBRARY_OPTIONS, name: 'Manga', root: '/data/manga' }]);
    expect(session.libraries.map((l) => l.name)).toEqual(['Comics', 'Manga']);
  });

  it('shows the failed-call message, its error code in words, when the server refuses the library', async () => {
    api.createFailure = new ApiError('add_library', 400, 'ERR_1016');
    view = renderAt('/welcome', <AddLibraryDialog open onClose={() => undefined} onAdded={() => undefined} />);
    const dialog = page.getByRole('dialog', { name: 'Add library' });
    await userEvent.fill(dialog.getByLabelText('Name'), 'X');
    await userEvent.fill(dialog.getByLabelText('Root folder'), '/nope');
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await expect.element(dialog.getByRole('alert')).toHaveTextContent(
      'An error occurred while trying to add the library: The directory is not accessible or is not a directory',
    );
  });

  it('edit sends only what changed', async () => {
    const onClose = vi.fn();
    view = renderAt('/libraries/L1/series', <EditLibraryDialog library={LIBRARY} open onClose={onClose} />);
    const dialog = page.getByRole('dialog');
    await userEvent.fill(dialog.getByLabelText('Name'), 'Comics 2');
    await userEvent.click(dialog.getByRole('tab', { name: 'File management' }));
    await userEvent.click(dialog.getByLabelText('Convert to CBZ automatically'));
    await userEvent.click(dialog.getByRole('tab', { name: 'Series cover' }));
    await userEvent.selectOptions(dialog.getByRole('combobox', { name: 'Series cover' }), 'LAST');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.updates).toEqual([{ id: 'L1', update: { name: 'Comics 2', convertToCbz: true, seriesCover: 'LAST' } }]);
  });

  it('delete needs the irreversibility acknowledged, then removes the library from the list', async () => {
    const onDeleted = vi.fn();
    view = renderAt('/libraries/L1/series', <DeleteLibraryDialog library={LIBRARY} open onClose={() => undefined} onDeleted={onDeleted} />);
    const dialog = page.getByRole('dialog', { name: 'Delete library' });
    await expect.element(dialog.getByText('This action is irreversible.')).toBeVisible();
    await expect.element(dialog.getByText(/Its files stay on disk\./)).toBeVisible();
    const remove = dialog.getByRole('button', { name: 'Delete' });
    await expect.element(remove).toBeDisabled();
    await userEvent.click(dialog.getByLabelText('I understand this cannot be undone'));
    await userEvent.click(remove);
    await vi.waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(api.deleted).toEqual(['L1']);
    expect(session.libraries).toEqual([]);
  });
});

describe('folder browser inside the add-library dialog', () => {
  it('fills the root folder from the chosen folder and leaves the add-library dialog open', async () => {
    view = renderAt('/welcome', <AddLibraryDialog open onClose={() => undefined} onAdded={() => undefined} />);
    const add = page.getByRole('dialog', { name: 'Add library' });
    await userEvent.fill(add.getByLabelText('Root folder'), '/data');
    await userEvent.click(add.getByRole('button', { name: 'Browse…' }));
    const folders = page.getByRole('dialog', { name: 'Choose a folder' });
    await userEvent.click(folders.getByRole('button', { name: 'comics', exact: true }));
    await expect.element(folders.getByText('/data/comics')).toBeVisible();
    await userEvent.click(folders.getByRole('button', { name: 'Choose this folder' }));
    await expect.element(add.getByLabelText('Root folder')).toHaveValue('/data/comics');
    await expect.element(folders).not.toBeInTheDocument();
    await expect.element(add).toBeVisible();
  });
});

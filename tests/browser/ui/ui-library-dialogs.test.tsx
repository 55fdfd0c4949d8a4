import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { LibraryDto } from '../../../src/api/types.ts';
import { logInAsAdmin, makeFolder, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

let LIBRARY: LibraryDto;
let doomed: LibraryDto;
/** The folder the run's libraries are made in. */
let folders = '';

beforeAll(async () => {
  await logInAsAdmin();
  LIBRARY = await rest<LibraryDto>('GET', `/api/v1/libraries/${await seedLibrary('dialog-comics', [])}`);
  doomed = await rest<LibraryDto>('GET', `/api/v1/libraries/${await seedLibrary('dialog-doomed', [])}`);
  folders = LIBRARY.root.replace(/\/dialog-comics$/, '');
});

const libraryNow = (id: string) => rest<LibraryDto>('GET', `/api/v1/libraries/${id}`);

const { AddLibraryDialog } = await import('../../../src/ui/dialogs/AddLibraryDialog.tsx');
const { EditLibraryDialog } = await import('../../../src/ui/dialogs/EditLibraryDialog.tsx');
const { NEW_LIBRARY_OPTIONS } = await import('../../../src/ui/dialogs/LibraryOptionsTabs.tsx');
const { DeleteLibraryDialog } = await import('../../../src/ui/dialogs/DeleteLibraryDialog.tsx');
const { session } = await import('../../../src/ui/store/session.ts');

let view: ReturnType<typeof renderAt> | undefined;
beforeEach(() => {
  session.libraries = [LIBRARY];
});
afterEach(() => view?.unmount());

describe('library dialogs', () => {
  it('adds a library from the labelled fields and puts it in the drawer list', async () => {
    const root = await makeFolder('dialog-manga');
    const onAdded = vi.fn();
    view = renderAt('/welcome', <AddLibraryDialog open onClose={() => undefined} onAdded={onAdded} />);
    const dialog = page.getByRole('dialog', { name: 'Add library' });
    await userEvent.fill(dialog.getByLabelText('Name'), '  Dialog Manga ');
    await userEvent.fill(dialog.getByLabelText('Root folder'), root);
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await vi.waitFor(() => expect(onAdded).toHaveBeenCalled());
    // Every option is stored, with the defaults Komga's web client proposes.
    const created = (await rest<LibraryDto[]>('GET', '/api/v1/libraries')).find((l) => l.root === root);
    expect(created).toMatchObject({ ...NEW_LIBRARY_OPTIONS, name: 'Dialog Manga', root });
    expect(session.libraries.map((l) => l.name)).toEqual(['Dialog Manga', 'dialog-comics']);
  });

  it('shows the failed-call message, its error code in words, when the server refuses the library', async () => {
    view = renderAt('/welcome', <AddLibraryDialog open onClose={() => undefined} onAdded={() => undefined} />);
    const dialog = page.getByRole('dialog', { name: 'Add library' });
    await userEvent.fill(dialog.getByLabelText('Name'), 'X');
    await userEvent.fill(dialog.getByLabelText('Root folder'), `${folders}/no-such-folder`);
    await userEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await expect.element(dialog.getByRole('alert')).toHaveTextContent(
      'An error occurred while trying to add the library: The directory is not accessible or is not a directory',
    );
  });

  it('edit sends only what changed', async () => {
    const onClose = vi.fn();
    view = renderAt(`/libraries/${LIBRARY.id}/series`, <EditLibraryDialog library={LIBRARY} open onClose={onClose} />);
    const dialog = page.getByRole('dialog');
    await userEvent.fill(dialog.getByLabelText('Name'), 'dialog-comics 2');
    await userEvent.click(dialog.getByRole('tab', { name: 'File management' }));
    await userEvent.click(dialog.getByLabelText('Convert to CBZ automatically'));
    await userEvent.click(dialog.getByRole('tab', { name: 'Series cover' }));
    await userEvent.selectOptions(dialog.getByRole('combobox', { name: 'Series cover' }), 'LAST');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await libraryNow(LIBRARY.id)).toEqual({ ...LIBRARY, name: 'dialog-comics 2', convertToCbz: true, seriesCover: 'LAST' });
  });

  it('delete needs the irreversibility acknowledged, then removes the library from the list', async () => {
    const onDeleted = vi.fn();
    session.libraries = [LIBRARY, doomed];
    view = renderAt(`/libraries/${doomed.id}/series`, <DeleteLibraryDialog library={doomed} open onClose={() => undefined} onDeleted={onDeleted} />);
    const dialog = page.getByRole('dialog', { name: 'Delete library' });
    await expect.element(dialog.getByText('This action is irreversible.')).toBeVisible();
    await expect.element(dialog.getByText(/Its files stay on disk\./)).toBeVisible();
    const remove = dialog.getByRole('button', { name: 'Delete' });
    await expect.element(remove).toBeDisabled();
    await userEvent.click(dialog.getByLabelText('I understand this cannot be undone'));
    await userEvent.click(remove);
    await vi.waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect((await fetch(`/api/v1/libraries/${doomed.id}`)).status).toBe(404);
    expect(session.libraries).toEqual([LIBRARY]);
  });
});

describe('folder browser inside the add-library dialog', () => {
  it('fills the root folder from the chosen folder and leaves the add-library dialog open', async () => {
    view = renderAt('/welcome', <AddLibraryDialog open onClose={() => undefined} onAdded={() => undefined} />);
    const add = page.getByRole('dialog', { name: 'Add library' });
    await userEvent.fill(add.getByLabelText('Root folder'), folders);
    await userEvent.click(add.getByRole('button', { name: 'Browse…' }));
    const chooser = page.getByRole('dialog', { name: 'Choose a folder' });
    await userEvent.click(chooser.getByRole('button', { name: 'dialog-comics', exact: true }));
    await expect.element(chooser.getByText(`${folders}/dialog-comics`)).toBeVisible();
    await userEvent.click(chooser.getByRole('button', { name: 'Choose this folder' }));
    await expect.element(add.getByLabelText('Root folder')).toHaveValue(`${folders}/dialog-comics`);
    await expect.element(chooser).not.toBeInTheDocument();
    await expect.element(add).toBeVisible();
  });
});

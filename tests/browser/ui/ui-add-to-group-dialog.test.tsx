import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { CollectionDto } from '../../../src/api/collections.ts';
import type { Page, SeriesDto } from '../../../src/api/types.ts';
import { logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { AddToGroupDialog } = await import('../../../src/ui/dialogs/AddToGroupDialog.tsx');

/** Collections are server-wide: this file's names are its own. */
let added = '';
let member = '';
let favourites: CollectionDto;

beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = await seedLibrary('add-to-group', [
    { folder: 'Grouped Added', books: [{ name: 'Grouped Added 01', pages: [[255, 0, 0]] }] },
    { folder: 'Grouped Member', books: [{ name: 'Grouped Member 01', pages: [[0, 255, 0]] }] },
  ]);
  const series = await rest<Page<SeriesDto>>('GET', `/api/v1/series?library_id=${libraryId}`);
  const id = (name: string) => series.content.find((s) => s.name === name)?.id ?? '';
  added = id('Grouped Added');
  member = id('Grouped Member');
  favourites = await rest<CollectionDto>('POST', '/api/v1/collections', { name: 'Grouped Favourites', ordered: false, seriesIds: [member] });
});

const collectionsNamed = async (search: string) =>
  (await rest<Page<CollectionDto>>('GET', `/api/v1/collections?search=${encodeURIComponent(search)}`)).content;

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe('AddToGroupDialog', () => {
  it('adds the series to an existing collection, keeping its members', async () => {
    const onAdded = vi.fn();
    view = renderAt(`/series/${added}`, <AddToGroupDialog kind="collection" memberIds={[added]} open onClose={() => undefined} onAdded={onAdded} />);
    const dialog = page.getByRole('dialog', { name: 'Add to collection' });
    await userEvent.click(dialog.getByRole('button', { name: 'Grouped Favourites' }));
    await vi.waitFor(() => expect(onAdded).toHaveBeenCalledWith('Grouped Favourites'));
    expect((await rest<CollectionDto>('GET', `/api/v1/collections/${favourites.id}`)).seriesIds).toEqual([member, added]);
  });

  it('refuses a new collection whose name already exists, whatever the case', async () => {
    const onAdded = vi.fn();
    view = renderAt(`/series/${member}`, <AddToGroupDialog kind="collection" memberIds={[member]} open onClose={() => undefined} onAdded={onAdded} />);
    const dialog = page.getByRole('dialog', { name: 'Add to collection' });
    // Listed, and marked as holding the series already.
    await expect.element(dialog.getByRole('button', { name: /^Grouped Favourites/ })).toBeDisabled();
    await userEvent.fill(dialog.getByLabelText('New collection name'), 'grouped favourites');
    await userEvent.click(dialog.getByRole('button', { name: 'Create' }));
    // The dialog's own refusal, before asking the server (whose answer would read differently).
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('A collection with this name already exists.');
    expect(onAdded).not.toHaveBeenCalled();
    await userEvent.fill(dialog.getByLabelText('New collection name'), 'Grouped Classics');
    await userEvent.click(dialog.getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(onAdded).toHaveBeenCalledWith('Grouped Classics'));
    expect((await collectionsNamed('grouped')).map((c) => c.name).sort()).toEqual(['Grouped Classics', 'Grouped Favourites']);
    expect((await collectionsNamed('grouped classics'))[0]?.seriesIds).toEqual([member]);
  });
});

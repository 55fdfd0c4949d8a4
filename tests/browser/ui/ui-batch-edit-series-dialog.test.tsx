import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { Page, SeriesDto } from '../../../src/api/types.ts';
import { failRequests, logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { BatchEditSeriesDialog } = await import('../../../src/ui/dialogs/BatchEditSeriesDialog.tsx');

/** Three series on the run's server, by their short names. */
const ids: Record<'Alpha' | 'Beta' | 'Gamma', string> = { Alpha: '', Beta: '', Gamma: '' };
const TITLES: Record<string, string> = {};
beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = await seedLibrary('batch-edit', (['Alpha', 'Beta', 'Gamma'] as const).map((name) => ({
    folder: `Batch ${name}`,
    books: [{ name: `Batch ${name} 01`, pages: [[0, 0, 255]] }],
  })));
  const series = await rest<Page<SeriesDto>>('GET', `/api/v1/series?library_id=${libraryId}&unpaged=true`);
  for (const name of ['Alpha', 'Beta', 'Gamma'] as const) {
    const id = series.content.find((s) => s.name === `Batch ${name}`)?.id ?? '';
    ids[name] = id;
    TITLES[id] = name;
  }
});
const metadataOf = async (id: string) => (await rest<SeriesDto>('GET', `/api/v1/series/${id}`)).metadata;
const allMetadata = () => Promise.all([ids.Alpha, ids.Beta, ids.Gamma].map(metadataOf));

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

function open(ids: string[]) {
  const onSaved = vi.fn();
  const onChanged = vi.fn();
  view = renderAt(
    '/libraries/all/series',
    <BatchEditSeriesDialog
      seriesIds={ids}
      open
      onClose={() => undefined}
      onSaved={onSaved}
      onChanged={onChanged}
      titleOf={(id) => TITLES[id] ?? id}
    />,
  );
  const dialog = page.getByRole('dialog', { name: `Edit ${ids.length} series` });
  return { dialog, onSaved, onChanged };
}

describe('BatchEditSeriesDialog', () => {
  it('sends only the ticked fields, each with its lock, to every selected series; lists replace the old ones', async () => {
    const { dialog, onSaved } = open([ids.Alpha, ids.Beta, ids.Gamma]);
    await expect
      .element(dialog.getByText('The genres, tags or sharing labels set here replace those each selected series had.', { exact: false }))
      .toBeVisible();
    await expect.element(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();

    await userEvent.click(dialog.getByLabelText('Change the publisher'));
    await userEvent.fill(dialog.getByRole('textbox', { name: 'Publisher', exact: true }), 'Quay Books');
    await userEvent.click(dialog.getByLabelText('Replace the genres'));
    await userEvent.fill(dialog.getByRole('textbox', { name: 'Genres', exact: true }), 'Drama, SF, Drama');
    // An empty list is a choice too: it clears the labels.
    await userEvent.click(dialog.getByLabelText('Replace the sharing labels'));
    await userEvent.click(dialog.getByLabelText('Change the reading direction'));
    await userEvent.selectOptions(dialog.getByRole('combobox', { name: 'Reading direction' }), 'WEBTOON');
    // Ticked then unticked: left alone, even with a value typed.
    await userEvent.click(dialog.getByLabelText('Change the age rating'));
    await userEvent.fill(dialog.getByRole('textbox', { name: 'Age rating', exact: true }), '16');
    await userEvent.click(dialog.getByLabelText('Change the age rating'));
    await expect.element(dialog.getByRole('textbox', { name: 'Age rating', exact: true })).not.toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));

    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    const changed = {
      readingDirection: 'WEBTOON',
      readingDirectionLock: true,
      publisher: 'Quay Books',
      publisherLock: true,
      genres: ['Drama', 'SF'],
      genresLock: true,
      sharingLabels: [],
      sharingLabelsLock: true,
      // Not ticked: untouched.
      ageRatingLock: false,
      statusLock: false,
    };
    expect(await allMetadata()).toEqual([changed, changed, changed].map((m) => expect.objectContaining(m)));
  });

  it('needs age rating 0 or more and total book count 1 or more, with the single series edit messages', async () => {
    const { dialog, onSaved } = open([ids.Alpha, ids.Beta]);
    await userEvent.click(dialog.getByLabelText('Change the age rating'));
    await userEvent.fill(dialog.getByRole('textbox', { name: 'Age rating', exact: true }), '-1');
    await userEvent.click(dialog.getByLabelText('Change the total book count'));
    await userEvent.fill(dialog.getByRole('textbox', { name: 'Total book count', exact: true }), '0');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect.element(dialog.getByText('Must be 0 or more.')).toBeVisible();
    await expect.element(dialog.getByText('Must be greater than 0.')).toBeVisible();
    await expect.element(dialog.getByText('Some fields need fixing before saving.')).toBeVisible();
    await expect.element(dialog.getByRole('textbox', { name: 'Age rating', exact: true })).toHaveAttribute('aria-invalid', 'true');
    // Refused by the dialog itself: nothing was sent.
    expect(onSaved).not.toHaveBeenCalled();
    expect((await allMetadata()).map((m) => [m.ageRating, m.totalBookCount])).toEqual([[null, null], [null, null], [null, null]]);

    await userEvent.fill(dialog.getByRole('textbox', { name: 'Age rating', exact: true }), 'twelve');
    await expect.element(dialog.getByText('Must be a whole number.')).toBeVisible();
    await userEvent.fill(dialog.getByRole('textbox', { name: 'Age rating', exact: true }), '0');
    // An unticked field is not validated: its value is not sent.
    await userEvent.click(dialog.getByLabelText('Change the total book count'));
    await expect.element(dialog.getByText('Some fields need fixing before saving.')).not.toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect((await allMetadata()).map((m) => [m.ageRating, m.ageRatingLock, m.totalBookCount, m.totalBookCountLock])).toEqual([
      [0, true, null, false],
      [0, true, null, false],
      [null, false, null, false],
    ]);
  });

  it('names each series that failed with its error, keeps the dialog open, and lets the saved ones refresh', async () => {
    // Beta's update fails once (the series is briefly gone): the browser answers that one request.
    const betaFails = await failRequests(new RegExp(`/api/v1/series/${ids.Beta}/metadata$`), 404, { message: 'Series not found' });
    const { dialog, onSaved, onChanged } = open([ids.Alpha, ids.Beta, ids.Gamma]);
    await userEvent.click(dialog.getByLabelText('Change the status'));
    await userEvent.selectOptions(dialog.getByRole('combobox', { name: 'Status' }), 'ENDED');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));

    const alert = dialog.getByRole('alert');
    await expect.element(alert.getByText('Not saved (1 of 3):')).toBeVisible();
    await expect
      .element(alert.getByRole('listitem'))
      .toHaveTextContent("Beta: An error occurred while trying to update the series' metadata: Series not found");
    expect(await betaFails.answered()).toBe(1);
    expect((await allMetadata()).map((m) => m.status)).toEqual(['ENDED', 'ONGOING', 'ENDED']);
    expect(onChanged).toHaveBeenCalledOnce();
    expect(onSaved).not.toHaveBeenCalled();
    await expect.element(dialog).toBeVisible();

    // Saving again (the series is back) finishes the job.
    await betaFails.restore();
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect((await allMetadata()).map((m) => [m.status, m.statusLock])).toEqual([['ENDED', true], ['ENDED', true], ['ENDED', true]]);
  });
});

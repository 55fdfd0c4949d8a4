import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { logInAsAdmin } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { SeriesScreen } = await import('../../../src/ui/screens/SeriesScreen.tsx');

beforeAll(async () => {
  await logInAsAdmin();
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe('SeriesScreen', () => {
  it('a series that cannot be found shows only the error, not an empty book list with its sort control', async () => {
    view = renderAt('/series/NO-SUCH-SERIES', <SeriesScreen seriesId="NO-SUCH-SERIES" />);
    await expect.element(page.getByText(/An error occurred while trying to retrieve series/)).toBeVisible();
    expect(view.container.querySelector('h2')).toBeNull();
    expect(view.container.querySelector('select')).toBeNull();
  });
});

describe('CollectionScreen', () => {
  it('a collection that cannot be found shows only its error, not a second one for its series', async () => {
    const { CollectionScreen } = await import('../../../src/ui/screens/GroupDetailScreen.tsx');
    view = renderAt('/collections/NO-SUCH-COLLECTION', <CollectionScreen collectionId="NO-SUCH-COLLECTION" />);
    await expect.element(page.getByText(/An error occurred while trying to retrieve the collection/)).toBeVisible();
    expect(page.getByText(/An error occurred while trying to retrieve series/).elements()).toHaveLength(0);
    expect(page.getByRole('button', { name: 'Filters' }).elements()).toHaveLength(0);
  });
});

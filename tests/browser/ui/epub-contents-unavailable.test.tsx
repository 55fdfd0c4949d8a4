import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import '../../../src/ui/theme/theme.css.ts';
import { renderAt } from './render.tsx';

const { TocDialog } = await import('../../../src/ui/reader/epub/TocDialog.tsx');

/*
 * A manifest the server sent without the book's navigation (Folio-Navigation-Unavailable: it could
 * not be read just now) must not make the contents say the book has none.
 */
let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());

describe('the EPUB contents without the book\'s navigation', () => {
  it('say it could not be read just now, as an alert, when the server said so', async () => {
    view = renderAt('/book/b/read', <TocDialog entries={[]} current={null} unavailable onPick={() => undefined} onClose={() => undefined} />);
    const dialog = page.getByRole('dialog', { name: 'Contents' });
    const note = dialog.getByText(/^The table of contents could not be read just now\./);
    await expect.element(note).toBeVisible();
    // Announced: the reader opened the contents to find them.
    await expect.element(note).toHaveAttribute('role', 'alert');
    await expect.element(dialog.getByText('This book has no table of contents.')).not.toBeInTheDocument();
  });

  it('say the book has none otherwise', async () => {
    view = renderAt('/book/b/read', <TocDialog entries={[]} current={null} onPick={() => undefined} onClose={() => undefined} />);
    const dialog = page.getByRole('dialog', { name: 'Contents' });
    await expect.element(dialog.getByText('This book has no table of contents.')).toBeVisible();
    await expect.element(dialog.getByText('This book has no table of contents.')).not.toHaveAttribute('role');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { t } from '../../../src/ui/i18n.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

const { PostersDialog } = await import('../../../src/ui/dialogs/PostersDialog.tsx');

/**
 * What an administrator reads in the posters dialog in another language, against the real server:
 * each poster's size written in the language's digits (Persian ۲۰۰×۳۰۰, not 200×300), and the server's refusal of a file that is
 * not an image said in the language (it was the server's English after a translated lead-in).
 */
let BOOK: BookDto;

beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = await seedLibrary('posters-language', [{ folder: 'Poster Saga', books: [{ name: 'Poster Saga 01', pages: [[0, 0, 255]] }] }]);
  BOOK = (await rest<Page<BookDto>>('GET', `/api/v1/books?library_id=${libraryId}`)).content[0]!;
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());
afterAll(() => applyLocale('en'));

describe('PostersDialog in another language', () => {
  // Persian writes its own digits (۲۰۰); CLDR now gives Arabic Latin digits by default.
  it("fa: a poster's size is written in Persian digits", async () => {
    await applyLocale('fa');
    const [poster] = await rest<{ width: number; height: number }[]>('GET', `/api/v1/books/${BOOK.id}/thumbnails`);
    view = renderAt(`/book/${BOOK.id}`, <PostersDialog owner="books" id={BOOK.id} open onClose={() => undefined} onChanged={() => undefined} />);
    const persian = new Intl.NumberFormat('fa');
    const size = `${persian.format(poster!.width)}×${persian.format(poster!.height)}`;
    await expect.element(page.getByRole('dialog').getByText(size, { exact: false })).toBeVisible();
    expect(document.body.textContent).not.toContain(`${poster!.width}×${poster!.height}`);
  });

  it('fr: a file that is not an image is refused in French', async () => {
    await applyLocale('fr');
    view = renderAt(`/book/${BOOK.id}`, <PostersDialog owner="books" id={BOOK.id} open onClose={() => undefined} onChanged={() => undefined} />);
    const dialog = page.getByRole('dialog', { name: t('posters.title') });
    await userEvent.upload(dialog.getByLabelText(t('posters.file')), new File(['not an image at all'], 'poster.png', { type: 'image/png' }));
    await userEvent.click(dialog.getByRole('button', { name: t('posters.upload') }));
    await expect.element(dialog.getByText(t('server_messages.not_an_image'), { exact: false })).toBeVisible();
    expect(dialog.element().textContent).not.toContain('The file is not an image');
  });
});

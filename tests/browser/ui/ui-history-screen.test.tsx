import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { formatBytes } from '../../../src/ui/format.ts';
import { historyDetails } from '../../../src/ui/screens/historyDetails.ts';
import { HistoryScreen } from '../../../src/ui/screens/HistoryScreen.tsx';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import de from '../../../locales/de.json' with { type: 'json' };
import { logInAsAdmin, rest, seedLibrary } from '../support/folio.ts';
import { renderAt } from './render.tsx';

let deleted: BookDto;

beforeAll(async () => {
  await logInAsAdmin();
  const libraryId = await seedLibrary('history-details', [
    { folder: 'Kept Saga', books: [{ name: 'Kept Saga 01', pages: [[0, 0, 255]] }, { name: 'Kept Saga 02', pages: [[0, 255, 0]] }] },
  ]);
  const books = await rest<Page<BookDto>>('GET', `/api/v1/books?library_id=${libraryId}&sort=name`);
  deleted = books.content[0]!;
  // A real event, as the server records it: BookFileDeleted with Komga's English properties.
  await rest('DELETE', `/api/v1/books/${deleted.id}/file`);
});

let view: ReturnType<typeof renderAt> | undefined;
afterEach(() => view?.unmount());
afterAll(() => applyLocale('en'));

describe('history details', () => {
  it('are shown in the interface language, while the API keeps Komga\'s English properties', async () => {
    const history = await rest<Page<{ bookId: string | null; properties: Record<string, string> }>>('GET', '/api/v1/history?size=100');
    const event = history.content.find((e) => e.bookId === deleted.id);
    expect(event?.properties).toMatchObject({ reason: 'File was deleted by user' });
    expect(Object.keys(event?.properties ?? {}).sort()).toEqual(['name', 'reason']);

    await applyLocale('de');
    view = renderAt('/history', <HistoryScreen />);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: de.history.open_book }) }).filter({ hasText: 'Kept Saga 01' });
    await expect.element(row).toBeVisible();
    const text = row.element().textContent ?? '';
    expect(text).toContain(`${de.history.details.reason}: ${de.history.values.file_deleted_by_user}`);
    expect(text).toContain(`${de.history.details.name}: `);
    expect(text).not.toContain('File was deleted');
    expect(text).not.toMatch(/\breason\b|\bname\b/);
  });

  it('translate Komga\'s own wording and the values with a meaning, and show anything unknown as sent', async () => {
    await applyLocale('fr');
    const details = historyDetails({
      properties: {
        name: '/comics/Yes.cbz',
        reason: 'File was deleted by user request',
        upgrade: 'Yes',
        'page number': '12',
        'page file size': '2500000',
        'page file hash': 'abc123',
        'added by a newer server': 'Folder was deleted because it was empty',
        note: 'A sentence this client does not know',
      },
    });
    expect(details).toEqual([
      { label: 'Nom', value: '/comics/Yes.cbz' },
      { label: 'Motif', value: 'Le fichier a été supprimé à la demande d\'un utilisateur' },
      { label: 'Remplace un livre existant', value: 'Oui' },
      { label: 'Numéro de page', value: '12' },
      { label: 'Taille de la page', value: formatBytes(2_500_000) },
      { label: 'Empreinte de la page', value: 'abc123' },
      { label: 'added by a newer server', value: 'Folder was deleted because it was empty' },
      { label: 'Remarque', value: 'A sentence this client does not know' },
    ]);
  });
});

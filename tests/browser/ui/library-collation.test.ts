import { afterAll, describe, expect, it } from 'vitest';
import type { LibraryDto } from '../../../src/api/types.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { addLibraryToSession, session } from '../../../src/ui/store/session.ts';

/**
 * The navigation lists libraries in the alphabetical order of the interface's language, not the
 * browser's (this test's Chromium runs in English): Swedish puts Ä after Z, German puts it with A, and
 * switching language re-sorts the list.
 */
afterAll(() => applyLocale('en'));

const library = (id: string, name: string) => ({ id, name }) as LibraryDto;
const names = () => session.libraries.map((l) => l.name);

describe('library order', () => {
  it('follows the chosen language and changes with it', async () => {
    await applyLocale('sv');
    for (const [id, name] of [['1', 'Ärkebiskop'], ['2', 'Zebra'], ['3', 'Apa'], ['4', 'Band 10'], ['5', 'Band 9']]) {
      addLibraryToSession(library(id!, name!));
    }
    expect(names()).toEqual(['Apa', 'Band 9', 'Band 10', 'Zebra', 'Ärkebiskop']);
    await applyLocale('de');
    expect(names()).toEqual(['Apa', 'Ärkebiskop', 'Band 9', 'Band 10', 'Zebra']);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getJsonNow } from '../../../src/api/http.ts';
import { createCollection } from '../../../src/api/collections.ts';
import { ApiError } from '../../../src/api/http.ts';
import { getLibraries } from '../../../src/api/libraries.ts';
import { describeError, LocalizedError, t, tPlural } from '../../../src/ui/i18n.ts';
import { applyLocale } from '../../../src/ui/store/localeChoice.ts';
import { failRequests, logInAsAdmin } from '../support/folio.ts';

/**
 * A call that gets no answer is described in the reader's language. The browser's own words for it
 * ("Failed to fetch", "signal timed out", "NetworkError when attempting to fetch resource.") are
 * English whatever the page's language, and were shown after "An error occurred while trying to …:".
 * The real server cannot be made unreachable for one test file only, so the refused connection is the
 * browser's (a route that aborts); the time-out is a real one.
 */
const BROWSER_WORDS = /fetch|timed out|network/i;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('the call succeeded');
    },
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  await logInAsAdmin();
});

afterAll(() => applyLocale('en'));

describe('errors of calls that get no answer', () => {
  for (const code of ['de', 'ja', 'ar']) {
    it(`${code}: a refused connection is said in the language, without the browser's English`, async () => {
      await applyLocale(code);
      const refused = await failRequests(/\/api\/v1\/libraries$/, 0, '', 'GET');
      try {
        const shown = describeError(await rejection(getLibraries()));
        expect(await refused.answered()).toBeGreaterThan(0);
        expect(shown).not.toMatch(BROWSER_WORDS);
        expect(shown).toBe(t('errors.call_unreachable', { action: t('api_actions.retrieve_libraries') }));
      } finally {
        await refused.restore();
      }
    });

    it(`${code}: a call past its time limit is said in the language`, async () => {
      await applyLocale(code);
      const shown = describeError(await rejection(getJsonNow('/api/v1/libraries', 'retrieve_libraries', { timeoutMs: 0 })));
      expect(shown).not.toMatch(BROWSER_WORDS);
      expect(shown).toBe(t('errors.call_timed_out', { action: t('api_actions.retrieve_libraries') }));
    });
  }
});

describe('errors of the client itself', () => {
  it("de: a LocalizedError is said in the language; any other error's English message is not shown", async () => {
    await applyLocale('de');
    expect(describeError(new LocalizedError('reader.epub.no_positions'))).toBe(t('reader.epub.no_positions'));
    expect(t('reader.epub.no_positions')).not.toBe('reader.epub.no_positions');
    // A library's exception or our own console text is English: a general sentence instead, the details logged.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const shown = describeError(new Error('Trying to use frame when it does not exist'));
      expect(shown).toBe(t('errors.unexpected'));
      expect(shown).not.toMatch(/frame/);
      expect(logged).toHaveBeenCalledTimes(1);
    } finally {
      logged.mockRestore();
    }
  });
});

/**
 * The server's refusals are English sentences (Komga's clients read them); the ones the client knows
 * (src/ui/serverMessages.ts) are said in the reader's language after the translated lead-in, each
 * field's violation in turn; one it does not know is shown as sent.
 */
describe('refusals of the server', () => {
  it('de: a known refusal is said in German, its field and limit kept', async () => {
    await applyLocale('de');
    const blank = describeError(await rejection(createCollection(' ', ['any'])));
    expect(blank).toBe(
      t('errors.call_failed_with_message', { action: t('api_actions.add_collection'), message: t('server_messages.rules.blank', { field: 'name' }) }),
    );
    expect(blank).not.toMatch(/must|blank/);
    const tooLong = describeError(await rejection(createCollection('x'.repeat(5000), ['any'])));
    expect(tooLong).toContain(tPlural('server_messages.rules.max_chars', 1024, { field: 'name' }));
    expect(tooLong).toContain('1.024');
  });

  it('ru: the violations of several fields are each translated and listed', async () => {
    await applyLocale('ru');
    const shown = describeError(new ApiError('add_user', 400, 'Validation failed: email must be a well-formed email address; password must not be blank'));
    expect(shown).toContain(t('server_messages.rules.email', { field: 'email' }));
    expect(shown).toContain(t('server_messages.rules.blank', { field: 'password' }));
    expect(shown).not.toMatch(/must|blank/);
  });

  it('de: a message the client does not know is shown as the server sent it', async () => {
    await applyLocale('de');
    const shown = describeError(new ApiError('add_collection', 400, 'Some wording of a newer server'));
    expect(shown).toBe(t('errors.call_failed_with_message', { action: t('api_actions.add_collection'), message: 'Some wording of a newer server' }));
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getJsonNow } from '../../../src/api/http.ts';
import { getLibraries } from '../../../src/api/libraries.ts';
import { describeError, LocalizedError, t } from '../../../src/ui/i18n.ts';
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

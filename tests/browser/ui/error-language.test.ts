import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getJsonNow } from '../../../src/api/http.ts';
import { createCollection } from '../../../src/api/collections.ts';
import { ApiError } from '../../../src/api/http.ts';
import { searchSeries } from '../../../src/api/browse.ts';
import { getLibraries } from '../../../src/api/libraries.ts';
import { describeError, LocalizedError, t, tPlural } from '../../../src/ui/i18n.ts';
import { formatBytes } from '../../../src/ui/format.ts';
import { explainMediaComment } from '../../../src/ui/mediaComment.ts';
import { pageFailureText } from '../../../src/ui/reader/readerErrors.ts';
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
      t('errors.call_failed_with_message', {
        action: t('api_actions.add_collection'),
        message: t('server_messages.rules.blank', { field: t('libraries.add_dialog.name') }),
      }),
    );
    expect(blank).not.toMatch(/must|blank|\bname\b/);
    const tooLong = describeError(await rejection(createCollection('x'.repeat(5000), ['any'])));
    expect(tooLong).toContain(tPlural('server_messages.rules.max_chars', 1024, { field: t('libraries.add_dialog.name') }));
    expect(tooLong).toContain('1.024');
  });

  it('ru: the violations of several fields are each translated and listed', async () => {
    await applyLocale('ru');
    const shown = describeError(new ApiError('add_user', 400, 'Validation failed: email must be a well-formed email address; password must not be blank'));
    expect(shown).toContain(t('server_messages.rules.email', { field: t('users_admin.email') }));
    expect(shown).toContain(t('server_messages.rules.blank', { field: t('users_admin.password') }));
    expect(shown).not.toMatch(/must|blank|email|password/);
  });

  it('fr: a field is named by the label of its form, a field no form sends keeps its API name', async () => {
    await applyLocale('fr');
    const shown = describeError(
      new ApiError('update_book_metadata', 400, 'Validation failed: summary must NOT have more than 65536 characters; links.url must be a valid URL: x; seriesIds must be a non-empty list of distinct ids'),
    );
    expect(shown).toContain(tPlural('server_messages.rules.max_chars', 65536, { field: 'Résumé' }));
    expect(shown).toContain(t('server_messages.rules.url', { field: t('edit_book.fields.links'), value: 'x' }));
    expect(shown).toContain(t('server_messages.rules.distinct_ids', { field: 'seriesIds' }));
    expect(shown).not.toMatch(/summary|links\.url/);
  });

  it("ja: a book that cannot be read is said in Japanese, its error code explained and the English detail left out", async () => {
    await applyLocale('ja');
    const damaged = describeError(new ApiError('retrieve_book_pages', 422, 'Book content cannot be read (ERR_1007): entry 003.jpg: invalid stored block lengths'));
    expect(damaged).toContain(t('server_messages.book_unreadable', { reason: t('error_codes.ERR_1007') }));
    expect(damaged).not.toMatch(/entry|invalid|ERR_/);
    for (const [message, key] of [
      ['Book analysis failed', 'server_messages.book_analysis_failed'],
      ['Server busy, try again shortly', 'server_messages.server_busy'],
      ['Internal Server Error', 'server_messages.internal_error'],
      ['The file is not an image', 'server_messages.not_an_image'],
    ] as const) {
      expect(describeError(new ApiError('retrieve_book_pages', 400, message))).toContain(t(key));
      expect(t(key)).not.toBe(key);
    }
  });

  it('fr: refusals only a filter, a reading position or a change made meanwhile meet are said in French', async () => {
    await applyLocale('fr');
    // The real server: a series picked for a collection, deleted before the collection was made.
    const gone = describeError(await rejection(createCollection('Partie entre-temps', ['no-such-series'])));
    expect(gone).toBe(t('errors.call_failed_with_message', { action: t('api_actions.add_collection'), message: t('server_messages.series_gone') }));
    expect(gone).toContain("n'existent plus");
    // Brackets typed too deep in the search box.
    const deep = describeError(await rejection(searchSeries({ fullTextSearch: `${'('.repeat(20)}x${')'.repeat(20)}` })));
    expect(deep).toContain(tPlural('server_messages.search_too_deep', 16));
    expect(deep).not.toMatch(/nest|levels/);
    for (const [message, key] of [
      ['Cross-site request refused: send X-Requested-With or a matching Origin', 'server_messages.cross_site_refused'],
      ['Unsupported condition field: nothingLikeThis', 'server_messages.search_invalid'],
      ['At most 200 settings may be stored', 'server_messages.settings_too_large'],
      ['Page number must be between 1 and 12', 'server_messages.progress_invalid'],
      ['Invalid progression: A locator is limited to 16384 bytes', 'server_messages.progress_invalid'],
      ['A newer progression already exists', 'server_messages.progress_newer_exists'],
      ['No such match', 'server_messages.duplicate_gone'],
    ] as const) {
      const shown = describeError(new ApiError('update_read_progress', 400, message));
      expect(shown, message).toContain(t(key));
      expect(shown, message).not.toContain(message);
    }
  });

  it('pl and ar: a limit of a filter takes the plural form its number asks for', async () => {
    await applyLocale('pl');
    const few = describeError(new ApiError('retrieve_series', 400, 'Condition has more than 102 parts'));
    expect(few).toContain('102 warunki');
    expect(describeError(new ApiError('retrieve_series', 400, 'Condition has more than 100 parts'))).toContain('100 warunków');
    await applyLocale('ar');
    expect(describeError(new ApiError('retrieve_series', 400, 'A search may nest at most 2 levels'))).toContain(tPlural('server_messages.search_too_deep', 2));
    expect(tPlural('server_messages.search_too_deep', 2)).not.toBe(tPlural('server_messages.search_too_deep', 16));
  });

  it('fr: a ComicInfo.xml skipped as too large, or unreadable, is said in French', async () => {
    await applyLocale('fr');
    const large = explainMediaComment('ERR_1007 ComicInfo.xml skipped: ComicInfo.xml is larger than 1048576 bytes, more than any real one');
    expect(large).toContain(t('error_codes.ERR_1007'));
    expect(large).toContain(t('media_comment.comicinfo_too_large', { size: formatBytes(1048576) }));
    expect(large).toMatch(/ComicInfo\.xml a été ignoré\u00a0: il dépasse 1\s?Mo$/);
    const slow = explainMediaComment('ComicInfo.xml skipped: ComicInfo.xml is not well-formed (line 0): ComicInfo.xml of /b.cbz is too complex to read: parsing it took longer than 2000 ms');
    expect(slow).toBe(t('media_comment.comicinfo_unreadable'));
    expect(explainMediaComment('ComicInfo.xml skipped: ComicInfo.xml is not well-formed (line 7): Unclosed tag')).toBe(t('media_comment.comicinfo_skipped', { line: '7' }));
  });

  it('de: a message the client does not know is shown as the server sent it', async () => {
    await applyLocale('de');
    const shown = describeError(new ApiError('add_collection', 400, 'Some wording of a newer server'));
    expect(shown).toBe(t('errors.call_failed_with_message', { action: t('api_actions.add_collection'), message: 'Some wording of a newer server' }));
  });
});

/**
 * A page the reader could not fetch: its decode worker reports only the status, which the reader
 * showed as "HTTP 503" whatever it meant. Now said by its meaning for the reader.
 */
describe('pages the server refused', () => {
  it('de: busy, damaged and gone pages are said in German by what they mean, another status named', async () => {
    await applyLocale('de');
    const shown = (status: number) => pageFailureText({ reason: 'http', status, message: `HTTP ${status}` });
    expect(shown(503)).toBe(t('server_messages.server_busy'));
    expect(shown(429)).toBe(t('server_messages.server_busy'));
    expect(shown(422)).toBe(t('reader.page_error_reasons.damaged'));
    expect(shown(404)).toBe(t('reader.page_error_reasons.gone'));
    for (const status of [503, 422, 404]) expect(shown(status)).not.toMatch(/HTTP|\d{3}/);
    expect(shown(500)).toBe(t('reader.page_error_reasons.http', { status: 500 }));
    expect(t('reader.page_error_reasons.damaged')).not.toBe('reader.page_error_reasons.damaged');
  });
});

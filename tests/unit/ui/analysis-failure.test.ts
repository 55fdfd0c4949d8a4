import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import { analysisFailureKey } from '../../../src/ui/screens/media/analysisFailure.ts';

/*
 * An analysis waiting to retry its put-off import ends, when an administrator cancels all tasks,
 * with TaskFailed reason 'cancelled' (server TaskQueue.retryLater): the media analysis screen says
 * it was cancelled, not that the server could not analyse the book.
 */
describe('the media analysis screen words TaskFailed by its reason', () => {
  it.each([
    ['book-changed', 'media.analysis.not_analysed_changed'],
    ['cancelled', 'media.analysis.not_analysed_cancelled'],
    ['failed', 'media.analysis.not_analysed'],
    [undefined, 'media.analysis.not_analysed'],
  ])('%s', (reason, key) => {
    expect(analysisFailureKey(reason)).toBe(key);
    const [, , name] = key.split('.');
    expect((en.media.analysis as Record<string, string>)[name!]).toContain('{{name}}');
  });
});

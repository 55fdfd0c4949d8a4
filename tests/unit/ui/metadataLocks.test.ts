import { describe, expect, it } from 'vitest';
import { locksOf } from '../../../src/ui/dialogs/metadataLocks.ts';

describe('locksOf', () => {
  const LOCKABLE = [
    ['title', 'edit_book.fields.title'],
    ['summary', 'edit_book.fields.summary'],
    ['tags', 'edit_book.fields.tags'],
  ] as const;

  it('lists the locked fields in the dialog order, not the record order', () => {
    expect(locksOf({ tagsLock: true, summaryLock: false, titleLock: true }, LOCKABLE)).toEqual(['title', 'tags']);
  });

  it('reads only a true flag as locked', () => {
    const odd = { titleLock: 'true', summaryLock: 1, tagsLock: false } as unknown as Parameters<typeof locksOf<'title' | 'summary' | 'tags'>>[0];
    expect(locksOf(odd, LOCKABLE)).toEqual([]);
  });
});

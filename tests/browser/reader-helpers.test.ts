import { describe, expect, it, onTestFinished } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { BookDto } from '../../src/api/types.ts';
import { readerTitle } from '../../src/ui/reader/bookTitle.ts';
import { parseReaderQuery, readerSearch } from '../../src/ui/reader/readerQuery.ts';
import { startPageFor } from '../../src/ui/reader/bookLoader.ts';
import { pressesFocusedButton } from '../../src/ui/reader/readerChrome.ts';
import { followFocusOrigin } from '../../src/ui/reader/focusOrigin.ts';

function book(title: string, extra: Partial<BookDto> = {}): BookDto {
  return {
    seriesTitle: 'Alpha',
    oneshot: false,
    readProgress: null,
    metadata: { title, number: '3' },
    ...extra,
  } as BookDto;
}

const progress = (page: number, completed: boolean) =>
  ({ page, completed }) as NonNullable<BookDto['readProgress']>;

describe('readerTitle (REFERENCE §5.8)', () => {
  it('keeps a title that already names the series', () => {
    expect(readerTitle(book('Alpha 03'))).toBe('Alpha 03');
  });

  it('otherwise says series - number - title, without the number for one-shots', () => {
    expect(readerTitle(book('The Return'))).toBe('Alpha - 3 - The Return');
    expect(readerTitle(book('The Return', { oneshot: true }))).toBe('Alpha - The Return');
  });
});

describe('reader query', () => {
  it('parses page, incognito and context, ignoring invalid pages', () => {
    expect(parseReaderQuery('page=4&incognito=true&context=READLIST&contextId=r1')).toEqual({
      page: 4,
      incognito: true,
      context: 'READLIST',
      contextId: 'r1',
    });
    expect(parseReaderQuery('page=zero').page).toBeNull();
    expect(parseReaderQuery('page=-2').page).toBeNull();
    expect(parseReaderQuery('').incognito).toBe(false);
  });

  it('writes the query back, with or without a page', () => {
    const query = parseReaderQuery('context=SERIES&contextId=s1&incognito=true');
    expect(readerSearch(query, 7)).toBe('?page=7&context=SERIES&contextId=s1&incognito=true');
    expect(readerSearch(parseReaderQuery(''), null)).toBe('');
  });
});

describe('startPageFor (REFERENCE §5.2)', () => {
  it('?page= when valid, else the saved page of a book in progress, else 1', () => {
    expect(startPageFor(book('x'), 10, 4)).toBe(4);
    expect(startPageFor(book('x', { readProgress: progress(6, false) }), 10, 42)).toBe(6);
    expect(startPageFor(book('x', { readProgress: progress(6, false) }), 10, null)).toBe(6);
    expect(startPageFor(book('x', { readProgress: progress(10, true) }), 10, null)).toBe(1);
    expect(startPageFor(book('x'), 10, null)).toBe(1);
  });
});

describe('keys on a focused button (readerChrome.pressesFocusedButton)', () => {
  /** Whether the reader leaves `key` to the focused element, asked of a real keydown there. */
  async function leftToButton(key: string): Promise<boolean> {
    const seen = new Promise<boolean>((resolve) => {
      window.addEventListener('keydown', (event) => {
        event.preventDefault();
        resolve(pressesFocusedButton(event));
      }, { once: true });
    });
    await userEvent.keyboard(key === ' ' ? ' ' : `{${key}}`);
    return seen;
  }

  it('leaves Space and Enter to a button reached by keyboard, but not to one that kept the focus after a click', async () => {
    const before = document.createElement('input');
    const button = document.createElement('button');
    button.textContent = 'Settings';
    document.body.append(before, button);
    const stop = followFocusOrigin();
    onTestFinished(() => {
      stop();
      before.remove();
      button.remove();
    });
    // Clicked with the pointer: the button keeps the focus, without showing it; Space still scrolls the strip.
    await userEvent.click(button);
    expect(document.activeElement).toBe(button);
    expect(await leftToButton(' ')).toBe(false);
    expect(await leftToButton('Enter')).toBe(false);
    // Reached with Tab: Space and Enter press it; other keys stay the reader's.
    before.focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(button);
    expect(await leftToButton(' ')).toBe(true);
    expect(await leftToButton('Enter')).toBe(true);
    expect(await leftToButton('ArrowDown')).toBe(false);
  });
});

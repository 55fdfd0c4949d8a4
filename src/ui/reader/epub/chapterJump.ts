import type { ReadingDirection } from '../../../api/types.ts';
import { resourcePath } from '../../../engine/epubProgression.ts';
import { keyAction, type KeyInput } from '../../../engine/readerInput.ts';

/**
 * A whole chapter back or on by key: Shift with the arrows that turn a page, mirrored in a
 * right-to-left book as those are (Shift+← is the next chapter there). Other modifiers belong to
 * the browser. Null for any other key.
 */
export function chapterKey(input: KeyInput, direction: ReadingDirection): 'next' | 'previous' | null {
  if (!input.shiftKey || (input.key !== 'ArrowLeft' && input.key !== 'ArrowRight')) return null;
  // Named one by one: a KeyboardEvent's fields are getters on its prototype, which a spread leaves out.
  const action = keyAction({ key: input.key, ctrlKey: input.ctrlKey, altKey: input.altKey, metaKey: input.metaKey }, direction);
  return action === 'next' || action === 'previous' ? action : null;
}

/**
 * The first position of the chapter after (or before) the one `href` names, from the book's
 * positions in reading order; null past either end or for a chapter not in the list. "Before" is
 * the previous chapter's start wherever in this chapter the reader is, so pressed again it goes on back.
 * Chapters are told apart by their path in the book: the navigator's place names its chapter by a
 * full address where the positions list has the manifest's href.
 */
export function chapterStart<T extends { href: string }>(positions: readonly T[], href: string, forward: boolean): T | null {
  const chapterOf = (position: T) => resourcePath(position.href);
  const current = resourcePath(href);
  const first = positions.findIndex((position) => chapterOf(position) === current);
  if (first < 0) return null;
  if (forward) {
    for (let i = first + 1; i < positions.length; i++) if (chapterOf(positions[i]!) !== current) return positions[i]!;
    return null;
  }
  if (first === 0) return null;
  const previous = chapterOf(positions[first - 1]!);
  let start = first - 1;
  while (start > 0 && chapterOf(positions[start - 1]!) === previous) start--;
  return positions[start]!;
}

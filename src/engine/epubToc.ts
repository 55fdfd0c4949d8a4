import { resourcePath } from './epubProgression.ts';
import { decodeFragment } from './uriFragment.ts';

/*
 * Which table-of-contents entry is where the reader is. A chapter's sections are often entries of
 * their own (chapter.xhtml#section-2): marking every entry of the document read would mark them all.
 */

/** What the choice needs of an entry: its href (with its fragment) and its sub-entries. */
export interface TocEntry {
  href: string;
  children?: { items: readonly TocEntry[] } | undefined;
}

/**
 * The entry to mark: of the entries that lead into the document being read, the last one (in the
 * table's order, so the deepest of equal ones) whose fragment is at or before the reading place
 * (`reached` tells, or null when the document has no such anchor); an entry without a fragment is the
 * document's start and always reached. When none is reached, the document's first entry. Null
 * when no entry leads into the document.
 */
export function currentTocEntry<T extends TocEntry>(
  entries: readonly T[],
  currentHref: string | null,
  reached: (fragment: string) => boolean | null,
): T | null {
  if (currentHref === null) return null;
  const document = resourcePath(currentHref);
  let first: T | null = null;
  let last: T | null = null;
  const walk = (items: readonly T[]) => {
    for (const entry of items) {
      if (resourcePath(entry.href) === document) {
        first ??= entry;
        const hash = entry.href.indexOf('#');
        const fragment = hash >= 0 ? decodeFragment(entry.href.slice(hash + 1)) : '';
        if (fragment === '' || reached(fragment) === true) last = entry;
      }
      if (entry.children) walk(entry.children.items as readonly T[]);
    }
  };
  walk(entries);
  return last ?? first;
}

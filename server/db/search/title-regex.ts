/**
 * The limits on a title regular expression (`search_regex`, and the titleRegex fields of a series
 * search), which run in V8's backtracking engine on the server's only JavaScript thread, once per
 * series: `^(\w+\s?)+$` against a title of 40 letters ending in "!" takes hours, and the whole server
 * waits. A pattern is accepted when its backtracking stays polynomial and small:
 * - no repeated group that itself repeats or offers alternatives (`(a+)+`, `(a|ab)*`: exponential);
 * - at most MAX_VARIABLE quantifiers that match a variable count (`*`, `+`, `?`, `{n,}`, `{n,m}`),
 *   so a title of n characters costs at most about n² steps;
 * - no back-references or lookarounds, and at most MAX_LENGTH characters.
 * Komga's clients send `^a` or `^[^a-z]` (alphabetical groups), far inside these limits. Titles are
 * matched on their first MAX_SUBJECT characters.
 */
export const MAX_LENGTH = 200;
export const MAX_VARIABLE = 2;
export const MAX_SUBJECT = 1000;

interface Quantifier {
  length: number;
  /** Matches a variable number of times. */
  variable: boolean;
  /** May match more than once. */
  repeating: boolean;
}

function quantifierAt(pattern: string, i: number): Quantifier | null {
  const c = pattern[i];
  if (c === '*' || c === '+') return { length: 1, variable: true, repeating: true };
  if (c === '?') return { length: 1, variable: true, repeating: false };
  if (c !== '{') return null;
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (!braces) return null; // a literal brace
  const min = Number(braces[1]);
  const max = braces[2] === undefined ? min : braces[3] === '' ? Number.POSITIVE_INFINITY : Number(braces[3]);
  return { length: braces[0].length, variable: max > min, repeating: max > 1 };
}

/** Index of the `]` closing the class that opens at `start`. */
function classEnd(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']' && i > start + 1) return i;
  }
  return pattern.length;
}

/** Why the pattern may not run, or null when it is within the limits above. */
export function unsafeTitleRegex(pattern: string): string | null {
  if (pattern.length > MAX_LENGTH) return `a title pattern is limited to ${MAX_LENGTH} characters`;
  /** Open groups, outermost first: whether each holds a variable quantifier or an alternative. */
  const groups: { varies: boolean }[] = [{ varies: false }];
  let variable = 0;
  let closed: { varies: boolean } | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const justClosed = closed;
    closed = null;
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9k]/.test(next)) return 'back-references are not supported in a title pattern';
      i++;
      // \p{…}, \u{…}: the braces belong to the escape.
      if (/[pPu]/.test(next) && pattern[i + 1] === '{') i = Math.max(i, pattern.indexOf('}', i));
      continue;
    }
    if (c === '[') {
      i = classEnd(pattern, i);
      continue;
    }
    if (c === '(') {
      if (/^\(\?(=|!|<=|<!)/.test(pattern.slice(i, i + 4))) return 'lookarounds are not supported in a title pattern';
      groups.push({ varies: false });
      // `(?:` and `(?<name>`: the group's prefix, not a quantifier.
      if (pattern[i + 1] === '?') i = pattern[i + 2] === '<' ? Math.max(i + 2, pattern.indexOf('>', i)) : i + 2;
      continue;
    }
    if (c === ')') {
      const group = groups.pop();
      if (!group || groups.length === 0) return 'unbalanced parentheses in a title pattern';
      if (group.varies) groups.at(-1)!.varies = true;
      closed = group;
      continue;
    }
    if (c === '|') {
      groups.at(-1)!.varies = true;
      continue;
    }
    const quantifier = quantifierAt(pattern, i);
    if (!quantifier) continue;
    if (justClosed?.varies && quantifier.repeating) {
      return 'a repeated group may not itself repeat or offer alternatives in a title pattern';
    }
    if (quantifier.variable) {
      variable++;
      if (variable > MAX_VARIABLE) return `a title pattern may hold at most ${MAX_VARIABLE} variable repetitions`;
      groups.at(-1)!.varies = true;
    }
    i += quantifier.length - 1;
    if (pattern[i + 1] === '?') i++; // lazy
  }
  return null;
}

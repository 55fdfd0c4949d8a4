import { RegExpParser, RegExpSyntaxError, visitRegExpAST, type AST } from '@eslint-community/regexpp';

type Node = AST.Node;
type Pattern = AST.Pattern;

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

/**
 * The pattern read exactly as V8 reads it (no u flag, so with the web-compatibility grammar of
 * Annex B): a reading of our own differed from it, where `[]` is an empty class and `\p{` a plain
 * letter and brace, and a repeated group hidden behind them was never seen.
 */
const parser = new RegExpParser({ strict: false });

/** Whether anything under `node` matches a variable length or offers alternatives. */
function varies(node: Node): boolean {
  let found = false;
  visitRegExpAST(node, {
    onAlternativeEnter(alternative) {
      const parent = alternative.parent;
      if ('alternatives' in parent && parent.alternatives.length > 1) found = true;
    },
    onQuantifierEnter(quantifier) {
      if (quantifier.max > quantifier.min) found = true;
    },
  });
  return found;
}

/** Why the pattern may not run, or null when it is within the limits above. */
export function unsafeTitleRegex(pattern: string): string | null {
  if (pattern.length > MAX_LENGTH) return `a title pattern is limited to ${MAX_LENGTH} characters`;
  let ast: Pattern;
  try {
    ast = parser.parsePattern(pattern, 0, pattern.length, { unicode: false, unicodeSets: false });
  } catch (error) {
    if (!(error instanceof RegExpSyntaxError)) throw error;
    // Not a regular expression for V8 either: it matches nothing (database.ts). One V8 would run
    // but this reading cannot is never run unchecked.
    return compiles(pattern) ? 'this title pattern is not supported' : null;
  }
  const reasons: string[] = [];
  let variable = 0;
  visitRegExpAST(ast, {
    onBackreferenceEnter() {
      reasons.push('back-references are not supported in a title pattern');
    },
    onAssertionEnter(assertion) {
      if (assertion.kind === 'lookahead' || assertion.kind === 'lookbehind') reasons.push('lookarounds are not supported in a title pattern');
    },
    onQuantifierEnter(quantifier) {
      const element = quantifier.element;
      if (quantifier.max > 1 && (element.type === 'Group' || element.type === 'CapturingGroup') && varies(element)) {
        reasons.push('a repeated group may not itself repeat or offer alternatives in a title pattern');
      }
      if (quantifier.max > quantifier.min && ++variable === MAX_VARIABLE + 1) {
        reasons.push(`a title pattern may hold at most ${MAX_VARIABLE} variable repetitions`);
      }
    },
  });
  return reasons[0] ?? null;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return false;
  }
}

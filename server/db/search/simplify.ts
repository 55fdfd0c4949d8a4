import { SearchConditionError } from './conditions.ts';

/** Deeper or larger trees are refused: no client builds them, and each level costs SQL nesting. */
export const MAX_CONDITION_DEPTH = 32;
/**
 * Parts (groups and fields) per condition. Each field is a subquery or test run for every book or
 * series the search reads, on the server's one JavaScript thread, and their cost grows faster than
 * their number: 900 read-list parts over 200 books took 21 s (300 took 1.3 s, 100 under 0.1 s). A
 * filter panel with every value of every filter picked stays well under this.
 */
export const MAX_CONDITION_NODES = 100;
/**
 * Title patterns (titleRegex, titleSortRegex) per search. Each is a call into JavaScript for every
 * series the search reads, on the server's one JavaScript thread: 900 of them over 2,000 series
 * held it for 8 s. Clients send one (legacy `search_regex`).
 */
export const MAX_TITLE_PATTERNS = 4;
/**
 * Characters of any text a condition compares (a title it contains, an author's name…). Text
 * operators are SQLite LIKE patterns, run for every book or series the search reads on the server's
 * one JavaScript thread, at a cost of the stored text's length times the pattern's: one
 * 20,000-character `contains` against a 900,000-character ComicInfo title held the thread 40 s, and
 * a value over SQLite's 50,000-byte pattern limit failed with a 500. Longer than any title or name
 * a client looks for.
 */
export const MAX_CONDITION_TEXT = 1000;

/**
 * Rewrites a search condition before it is compiled, the way Komga reads it: empty `allOf`/`anyOf`
 * groups are dropped at any depth (komga-webui sends an empty `anyOf` for every unused filter),
 * one-member groups become their member, and a tree that simplifies to nothing is `undefined`
 * (matches everything). Malformed trees (not an object, a group without an array, too deep, too
 * large, too many title patterns) throw SearchConditionError, which the HTTP layer answers with 400.
 * `fields` are the leaf names the search knows (besides allOf/anyOf); see conditionKey.
 */
export function simplifyCondition(condition: unknown, fields: readonly string[]): unknown {
  const budget = { nodes: 0, patterns: 0 };
  const known = new Set(['allof', 'anyof', ...fields.map((f) => f.toLowerCase())]);
  return simplify(condition, 0, budget, known);
}

/**
 * The one member of a condition object that names a condition. Komga deduces a condition's type
 * from the names it knows and Jackson skips the rest, so other members are ignored: Komelia and
 * komf (komga-client, kotlinx.serialization) send every condition with a `"type"` member, e.g.
 * `{"type":"LibraryId","libraryId":{"operator":"is","value":"…"}}`. Two known names are ambiguous.
 */
function conditionKey(condition: object, known: ReadonlySet<string>): string {
  const keys = Object.keys(condition);
  const named = keys.filter((key) => known.has(key.toLowerCase()));
  if (named.length === 1) return named[0]!;
  if (named.length === 0 && keys.length > 0) throw new SearchConditionError(`Unsupported condition field: ${keys.join(', ')}`);
  throw new SearchConditionError('A condition must have exactly one key');
}

function simplify(condition: unknown, depth: number, budget: { nodes: number; patterns: number }, known: ReadonlySet<string>): unknown {
  if (condition === null || condition === undefined) return undefined;
  if (depth > MAX_CONDITION_DEPTH) throw new SearchConditionError(`Condition nested deeper than ${MAX_CONDITION_DEPTH} levels`);
  if (++budget.nodes > MAX_CONDITION_NODES) throw new SearchConditionError(`Condition has more than ${MAX_CONDITION_NODES} parts`);
  if (typeof condition !== 'object' || Array.isArray(condition)) throw new SearchConditionError('Invalid condition');
  const key = conditionKey(condition, known);
  const lower = key.toLowerCase();
  if (lower !== 'allof' && lower !== 'anyof') {
    if (lower.endsWith('regex') && ++budget.patterns > MAX_TITLE_PATTERNS) {
      throw new SearchConditionError(`A search may hold at most ${MAX_TITLE_PATTERNS} title patterns`);
    }
    const test = (condition as Record<string, unknown>)[key];
    checkTextLengths(test, 0);
    return { [key]: test };
  }
  const members = (condition as Record<string, unknown>)[key];
  if (!Array.isArray(members)) throw new SearchConditionError(`${key} needs an array`);
  if (members.length > MAX_CONDITION_NODES) throw new SearchConditionError(`Condition has more than ${MAX_CONDITION_NODES} parts`);
  const kept = members.map((member) => simplify(member, depth + 1, budget, known)).filter((member) => member !== undefined);
  if (kept.length === 0) return undefined;
  if (kept.length === 1) return kept[0];
  return lower === 'allof' ? { allOf: kept } : { anyOf: kept };
}

/**
 * Refuses a field test holding a text longer than MAX_CONDITION_TEXT, wherever it sits in the test
 * (`value`, an author's `name` or `role`…). The walk is bounded: a test nests a few levels at most.
 */
function checkTextLengths(node: unknown, depth: number): void {
  if (typeof node === 'string') {
    if (node.length > MAX_CONDITION_TEXT) throw new SearchConditionError(`A condition's text may hold at most ${MAX_CONDITION_TEXT} characters`);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (depth > MAX_CONDITION_DEPTH) throw new SearchConditionError(`Condition nested deeper than ${MAX_CONDITION_DEPTH} levels`);
  for (const value of Object.values(node)) checkTextLengths(value, depth + 1);
}

/**
 * The values an `is` condition on `field` names anywhere in a simplified condition (e.g. the read
 * lists of a `readListId` condition), as JSON array text for SQLite's json_each, or null when it
 * names none.
 */
export function namedValuesJson(condition: unknown, field: string): string | null {
  const found: string[] = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'allOf' || key === 'anyOf') {
        if (Array.isArray(value)) value.forEach(walk);
      } else if (key.toLowerCase() === field.toLowerCase() && value !== null && typeof value === 'object') {
        const { operator, value: named } = value as { operator?: unknown; value?: unknown };
        if (typeof operator === 'string' && operator.toLowerCase() === 'is' && typeof named === 'string') found.push(named);
      }
    }
  };
  walk(condition);
  return found.length > 0 ? JSON.stringify(found) : null;
}

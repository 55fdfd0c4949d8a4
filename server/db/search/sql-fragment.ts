/** A piece of SQL with its positional parameters, in order. */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

export const sql = (text: string, ...params: unknown[]): SqlFragment => ({ sql: text, params });

/**
 * The parts joined by `glue` (AND, OR), `empty` when there are none. Joined as a balanced tree,
 * `((a AND b) AND (c AND d))`, not a chain: SQLite nests a chain one level per part and refuses a
 * statement nested deeper than 1,000 levels, so a search of a few hundred conditions failed with 500;
 * balanced, a thousand parts nest ten levels.
 */
export function joinFragments(parts: SqlFragment[], glue: string, empty: string): SqlFragment {
  if (parts.length === 0) return { sql: empty, params: [] };
  return balanced(parts, glue);
}

function balanced(parts: SqlFragment[], glue: string): SqlFragment {
  if (parts.length === 1) return { sql: `(${parts[0]!.sql})`, params: parts[0]!.params };
  const middle = Math.ceil(parts.length / 2);
  const left = balanced(parts.slice(0, middle), glue);
  const right = balanced(parts.slice(middle), glue);
  return { sql: `(${left.sql}${glue}${right.sql})`, params: [...left.params, ...right.params] };
}

/** LIKE pattern with %, _ and the escape char itself escaped (use with ESCAPE '\'). */
export function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Characters of a stored text a substring test looks at: the first ones (contains, begins with), the
 * last ones (ends with). The cost is also the stored text's length, which a book sets (a ComicInfo.xml
 * may hold a title of a million characters: 5-7 s a test against a 1,000-character value). Longer than
 * any real title, publisher or name; `is` compares whole texts, at no such cost.
 */
export const MAX_SEARCHED_TEXT = 1000;
/** SQL for the part of a (folded) text a test that may match anywhere or at its start looks at. */
export const searchedHead = (sql: string) => `substr(${sql}, 1, ${MAX_SEARCHED_TEXT})`;
/** SQL for the part an ends-with test looks at. */
export const searchedTail = (sql: string) => `substr(${sql}, -${MAX_SEARCHED_TEXT})`;

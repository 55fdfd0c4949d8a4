import { SearchConditionError } from './conditions.ts';
import { foldText, foldedSql } from './fold-text.ts';
import { type SearchNode, parseSearchQuery } from './search-query.ts';
import { type SqlFragment, likeEscape, searchedHead } from './sql-fragment.ts';
import { SEARCH_TEXT_SEPARATOR } from '../search-text.ts';
import { MAX_CONDITION_TEXT } from './simplify.ts';

/**
 * Distinct words a search may hold. Each word is a LIKE over every searched field of every row, so
 * thousands of words made one request scan the library thousands of times, and past about a
 * thousand SQLite refused the statement ("Expression tree is too large") with a 500.
 */
export const MAX_SEARCH_WORDS = 32;

/** The text of a JSON array member: a string, or an object's name (authors) or title (alternate titles). */
const JSON_TEXT = "(CASE type WHEN 'object' THEN coalesce(json_extract(value, '$.name'), json_extract(value, '$.title')) ELSE value END)";

/** Ranks exact title matches first, then titles starting with the term, then the rest (`foldedTitle` as in allWordsMatch). */
export function titleRelevance(term: string, foldedTitle: string): SqlFragment {
  const trimmed = term.trim();
  return {
    sql: `CASE WHEN ${foldedTitle} = ? THEN 0 WHEN ${foldedTitle} LIKE ? ESCAPE '\\' THEN 1 ELSE 2 END`,
    params: [foldText(trimmed), `${likeEscape(foldText(trimmed))}%`],
  };
}

/** Whether results should be ranked: a term and no explicit sort, or an explicit `relevance` sort. */
export function wantsRelevance(term: string | undefined, sort: { property: string }[]): boolean {
  if (!term?.trim()) return false;
  return sort.length === 0 || sort.some((s) => s.property === 'relevance');
}

/** How the fields a search may name (`publisher:dc`) are matched, and what a bare word searches. */
export interface FullTextFields {
  /** What a word or phrase without a field must appear in (one of them). */
  defaults: FieldColumns;
  /** Komga's index fields by name (lower case). */
  named: Record<string, FieldColumns>;
  /** JSON arrays of `{name, role}`: any other field name is a role (`writer:remender`). */
  authors: string[];
  /** The stored folded text of `defaults` (db/search-text.ts), used for a bare word instead of them. */
  index?: SearchTextIndex;
}

/** A row's stored search text: `owner` (the row's id in the query) is `key` in `table`, indexed by `fts`. */
export interface SearchTextIndex {
  owner: string;
  table: string;
  key: string;
  fts: string;
}

/**
 * SQL for a field's folded text (`folded`, NULL for none) and JSON arrays of strings or `{name}`/`{title}`
 * objects. A text folded on the fly is folded from its searched part (`foldedSql(searchedHead(column))`):
 * folding is a JavaScript call over every character, for every row and word.
 */
export interface FieldColumns {
  folded?: string[];
  json?: string[];
}

/**
 * The SQL of a search text in Komga's query language (search-query.ts): every word or phrase must
 * appear (accents and case ignored) in one of its field's columns, combined by AND / OR / NOT.
 * Undefined when the text holds nothing to match.
 */
export function fullTextMatch(term: string, fields: FullTextFields): SqlFragment | undefined {
  // Every text a search compares has one bound (simplify.ts): each word is a phrase of as many
  // trigrams for the index, or a LIKE costing its length times the stored text's; one word of a
  // million characters held the thread for minutes.
  if (term.length > MAX_CONDITION_TEXT) throw new SearchConditionError(`A search text may hold at most ${MAX_CONDITION_TEXT} characters`);
  const tree = parseSearchQuery(term);
  if (!tree) return undefined;
  // A word said twice narrows nothing: distinct words are what is bounded, and a group keeps one of
  // each identical member, so thousands of repeats stay one clause (SQLite refuses huge statements).
  const distinct = new Set<string>();
  type Compiled = SqlFragment & { leaves: number };
  const leaf = (key: string, build: () => SqlFragment): Compiled => {
    distinct.add(key);
    if (distinct.size > MAX_SEARCH_WORDS) throw new SearchConditionError(`A search may hold at most ${MAX_SEARCH_WORDS} different words`);
    return { ...build(), leaves: 1 };
  };
  const compile = (node: SearchNode): Compiled => {
    switch (node.kind) {
      case 'and':
      case 'or': {
        const seen = new Map<string, Compiled>();
        for (const member of node.nodes) {
          const part = compile(member);
          seen.set(JSON.stringify([part.sql, part.params]), part);
        }
        const parts = [...seen.values()];
        const leaves = parts.reduce((n, p) => n + p.leaves, 0);
        if (leaves > MAX_SEARCH_LEAVES) throw new SearchConditionError(`A search may hold at most ${MAX_SEARCH_LEAVES} words and phrases`);
        return { sql: `(${parts.map((p) => p.sql).join(node.kind === 'and' ? ' AND ' : ' OR ')})`, params: parts.flatMap((p) => p.params), leaves };
      }
      case 'not': {
        const inner = compile(node.node);
        return { sql: `(NOT ${inner.sql})`, params: inner.params, leaves: inner.leaves };
      }
      case 'range':
        return leaf(JSON.stringify(node), () => rangeMatch(namedField(fields, node.field), node.from, node.to));
      case 'text':
        return leaf(JSON.stringify([node.field, foldText(node.text)]), () => {
          const value = foldText(node.text);
          if (node.field === undefined) return containsInDefaults(fields, value);
          const named = namedField(fields, node.field);
          if (named) return containsIn(named, value);
          // Not an index field: an author role (`writer:remender`), or words that hold a colon ("Re:Zero").
          const role = authorOfRole(fields.authors, node.field, value);
          const plain = containsInDefaults(fields, foldText(`${node.field}:${node.text}`));
          return { sql: `(${role.sql} OR ${plain.sql})`, params: [...role.params, ...plain.params] };
        });
    }
  };
  const { sql, params } = compile(tree);
  return { sql, params };
}

/** An index field by name; only the table's own (a search may name 'constructor' or 'toString'). */
function namedField(fields: FullTextFields, name: string): FieldColumns | undefined {
  return Object.hasOwn(fields.named, name) ? fields.named[name] : undefined;
}

/**
 * Words and phrases one search may hold in all, repeats in different groups included. Each is a
 * LIKE over every searched field of every row, with authors and tags folded one by one, and a NOT
 * keeps SQLite from stopping early: at 256, eight negated groups of the same 32 words held the
 * server 2.6-6 s over 200 books. As many as the distinct words: a search typed by a person repeats
 * few of its words across groups.
 */
const MAX_SEARCH_LEAVES = MAX_SEARCH_WORDS;

/**
 * A bare word in any default field: through the stored search text when there is one. A word of
 * three characters or more is a phrase of trigrams, which is exactly a substring: the index finds
 * the rows. A shorter word is too short for trigrams and is a LIKE over the stored text, one plain
 * column, still without folding anything. Quoted as an FTS5 string (`"` doubled), the word's own
 * characters (`*`, `-`, `:`, `^`, parentheses, AND/OR/NOT/NEAR) are only text to the index.
 */
function containsInDefaults(fields: FullTextFields, value: string): SqlFragment {
  const index = fields.index;
  // The separator would match across fields; a NUL ends the text early for SQLite's C strings.
  if (!index || value.includes(SEARCH_TEXT_SEPARATOR) || value.includes('\0')) return containsIn(fields.defaults, value);
  const characters = [...value];
  if (characters.length >= 3) {
    // Not as a phrase: FTS5 reads the positions of every token of a phrase in every row holding
    // them, so a 999-character word of one repeated letter against a book whose title was that
    // letter 900,000 times decoded ~900 million positions (60 s of the one thread). The index finds
    // the rows holding each distinct trigram (no positions read), and the row's text is then
    // searched for the word itself: the same rows as the phrase, exactly a substring.
    const trigrams = new Set<string>();
    for (let i = 0; i + 3 <= characters.length; i++) trigrams.add(characters.slice(i, i + 3).join(''));
    const match = [...trigrams].map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
    return {
      sql: `${index.owner} IN (SELECT t.${index.key} FROM ${index.fts} f JOIN ${index.table} t ON t.id = f.rowid WHERE ${index.fts} MATCH ? AND instr(t.text, ?) > 0)`,
      params: [match, value],
    };
  }
  return { sql: `${index.owner} IN (SELECT ${index.key} FROM ${index.table} WHERE text LIKE ? ESCAPE '\\')`, params: [`%${likeEscape(value)}%`] };
}

function containsIn(columns: FieldColumns, value: string): SqlFragment {
  const pattern = `%${likeEscape(value)}%`;
  const parts = [
    // Over a bounded part of each text (sql-fragment.ts): a LIKE costs its length times the word's.
    ...(columns.folded ?? []).map((c) => `ifnull(${searchedHead(c)}, '') LIKE ? ESCAPE '\\'`),
    ...(columns.json ?? []).map((c) => `EXISTS (SELECT 1 FROM json_each(${c}) WHERE ${foldedSql(searchedHead(JSON_TEXT))} LIKE ? ESCAPE '\\')`),
  ];
  if (parts.length === 0) return { sql: '(1 = 0)', params: [] };
  return { sql: `(${parts.join(' OR ')})`, params: parts.map(() => pattern) };
}

function rangeMatch(columns: FieldColumns | undefined, from: string | undefined, to: string | undefined): SqlFragment {
  const bounds = (c: string) => [`${c} IS NOT NULL`, ...(from === undefined ? [] : [`${c} >= ?`]), ...(to === undefined ? [] : [`${c} <= ?`])].join(' AND ');
  const values = [...(from === undefined ? [] : [foldText(from)]), ...(to === undefined ? [] : [foldText(to)])];
  const parts = [
    ...(columns?.folded ?? []).map((c) => ({ sql: `(${bounds(c)})`, params: values })),
    ...(columns?.json ?? []).map((c) => ({ sql: `EXISTS (SELECT 1 FROM json_each(${c}) WHERE ${bounds(foldedSql(searchedHead(JSON_TEXT)))})`, params: values })),
  ];
  if (parts.length === 0) return { sql: '(1 = 0)', params: [] };
  return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
}

function authorOfRole(columns: string[], role: string, value: string): SqlFragment {
  if (columns.length === 0) return { sql: '(1 = 0)', params: [] };
  const parts = columns.map(
    (c) => `EXISTS (SELECT 1 FROM json_each(${c}) WHERE lower(json_extract(value, '$.role')) = ? AND ${foldedSql(searchedHead("json_extract(value, '$.name')"))} LIKE ? ESCAPE '\\')`,
  );
  return { sql: `(${parts.join(' OR ')})`, params: columns.flatMap(() => [role, `%${likeEscape(value)}%`]) };
}

import { foldText, foldedDiffersSql, foldedEqualsSql, foldedSql } from './fold-text.ts';
import { type SqlFragment, joinFragments, likeEscape, searchedHead, searchedTail, sql } from './sql-fragment.ts';

/**
 * Komga's search condition grammar (REFERENCE §3.4): `{allOf:[...]}`, `{anyOf:[...]}` or a leaf
 * `{field: {operator, value | dateTime | duration}}`, compiled to a SQL boolean expression.
 */
export type Condition = { allOf: Condition[] } | { anyOf: Condition[] } | Record<string, Operator>;
export interface Operator {
  operator: string;
  value?: unknown;
  dateTime?: string;
  /** ISO-8601 text, or a number of seconds (Jackson reads a java.time.Duration from either). */
  duration?: string | number;
}

export class SearchConditionError extends Error {}

export type FieldCompiler = (op: Operator) => SqlFragment;

/** Compiles a condition already simplified by simplifyCondition (see compileSearchCondition). */
export function compileCondition(condition: unknown, fields: Record<string, FieldCompiler>): SqlFragment {
  if (condition === null || condition === undefined) return sql('1 = 1');
  if (typeof condition !== 'object' || Array.isArray(condition)) throw new SearchConditionError('Invalid condition');
  const keys = Object.keys(condition);
  if (keys.length !== 1) throw new SearchConditionError('A condition must have exactly one key');
  const key = keys[0]!;
  const value = (condition as Record<string, unknown>)[key];
  const lower = key.toLowerCase();
  if (lower === 'allof' || lower === 'anyof') {
    if (!Array.isArray(value)) throw new SearchConditionError(`${key} needs an array`);
    const parts = value.map((c) => compileCondition(c, fields));
    return lower === 'allof' ? joinFragments(parts, ' AND ', '1 = 1') : joinFragments(parts, ' OR ', '1 = 0');
  }
  const fieldName = Object.keys(fields).find((f) => f.toLowerCase() === lower);
  if (!fieldName) throw new SearchConditionError(`Unsupported condition field: ${key}`);
  if (!value || typeof value !== 'object' || typeof (value as Operator).operator !== 'string') {
    throw new SearchConditionError(`Condition ${key} needs an operator`);
  }
  return fields[fieldName]!(value as Operator);
}

const opName = (op: Operator) => op.operator.toLowerCase();
const unsupported = (op: Operator): never => {
  throw new SearchConditionError(`Unsupported operator: ${op.operator}`);
};
function requireValue(op: Operator): unknown {
  if (op.value === undefined || op.value === null) throw new SearchConditionError(`Operator ${op.operator} needs a value`);
  return op.value;
}

/** A value SQLite can bind: numbers stay numbers, booleans and strings become strings. */
export function scalarValue(op: Operator): string | number {
  const value = requireValue(op);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return String(value);
  throw new SearchConditionError(`Operator ${op.operator} needs a single value`);
}

/**
 * is / isNot on a plain column. `normalise` adapts the value (e.g. upper-casing enums). A NULL value
 * is in neither: isNot is SQL's `<>`, as Komga's, not `IS NOT`.
 */
export function equality(column: string, normalise: (v: unknown) => unknown = (v) => v): FieldCompiler {
  return (op) => {
    switch (opName(op)) {
      case 'is':
        return sql(`${column} = ?`, normalise(scalarValue(op)));
      case 'isnot':
        return sql(`${column} <> ?`, normalise(scalarValue(op)));
      default:
        return unsupported(op);
    }
  };
}

/**
 * is / isNot / isNull / isNotNull on a JSON array column of strings (tags, genres, ...), ignoring
 * accents and case as Komga's collation does (fold-text.ts).
 */
export function jsonArrayMembership(columns: string[]): FieldCompiler {
  const anyMatch = () => columns.map((c) => `EXISTS (SELECT 1 FROM json_each(${c}) WHERE ${foldedEqualsSql('value')})`).join(' OR ');
  const anyPresent = columns.map((c) => `json_array_length(${c}) > 0`).join(' OR ');
  return (op) => {
    switch (opName(op)) {
      case 'is':
        return { sql: anyMatch(), params: columns.map(() => foldText(String(scalarValue(op)))) };
      case 'isnot':
        return { sql: `NOT (${anyMatch()})`, params: columns.map(() => foldText(String(scalarValue(op)))) };
      case 'isnull':
        return sql(`NOT (${anyPresent})`);
      case 'isnotnull':
        return sql(anyPresent);
      default:
        return unsupported(op);
    }
  };
}

/**
 * The text operators, compared as Komga compares them (fold-text.ts): accents and case ignored, so
 * "pokemon" is, begins and contains "Pokémon". `stored` is SQL for the column's folded form kept
 * in a column (titles); other columns are folded on the fly. A NULL value is in neither `is` nor `isNot` (SQL's `<>`, as Komga's).
 */
export function stringOps(column: string, stored?: string): FieldCompiler {
  return (op) => {
    const v = () => foldText(String(scalarValue(op)));
    // Over a bounded part of the stored text (MAX_SEARCHED_TEXT): a LIKE costs its length times the
    // pattern's. Folded on the fly, only that part is folded (a JavaScript call over its characters).
    const like = (pattern: string, negate: boolean, part = searchedHead) =>
      sql(`${negate ? 'NOT ' : ''}${stored === undefined ? foldedSql(part(column)) : part(stored)} LIKE ? ESCAPE '\\'`, pattern);
    switch (opName(op)) {
      case 'is':
        return sql(stored === undefined ? foldedEqualsSql(column) : `${stored} = ?`, v());
      case 'isnot':
        return sql(stored === undefined ? foldedDiffersSql(column) : `${stored} <> ?`, v());
      case 'contains':
        return like(`%${likeEscape(v())}%`, false);
      case 'doesnotcontain':
        return like(`%${likeEscape(v())}%`, true);
      case 'beginswith':
        return like(`${likeEscape(v())}%`, false);
      case 'doesnotbeginwith':
        return like(`${likeEscape(v())}%`, true);
      case 'endswith':
        return like(`%${likeEscape(v())}`, false, searchedTail);
      case 'doesnotendwith':
        return like(`%${likeEscape(v())}`, true, searchedTail);
      default:
        return unsupported(op);
    }
  };
}

export function numericOps(column: string, nullable: boolean): FieldCompiler {
  return (op) => {
    const v = () => {
      const n = Number(scalarValue(op));
      if (!Number.isFinite(n)) throw new SearchConditionError(`Operator ${op.operator} needs a number`);
      return n;
    };
    switch (opName(op)) {
      case 'is':
        return sql(`${column} = ?`, v());
      // Unlike text, Komga's numeric isNot keeps the NULLs (`<> ? OR IS NULL`): no age rating is not 12.
      case 'isnot':
        return sql(`${column} IS NOT ?`, v());
      case 'greaterthan':
        return sql(`${column} > ?`, v());
      case 'lessthan':
        return sql(`${column} < ?`, v());
      case 'isnull':
        return nullable ? sql(`${column} IS NULL`) : unsupported(op);
      case 'isnotnull':
        return nullable ? sql(`${column} IS NOT NULL`) : unsupported(op);
      default:
        return unsupported(op);
    }
  };
}

/** isTrue / isFalse on a SQL boolean expression. */
export function booleanOps(expression: string): FieldCompiler {
  return (op) => {
    switch (opName(op)) {
      case 'istrue':
        return sql(`(${expression})`);
      case 'isfalse':
        return sql(`NOT (${expression})`);
      default:
        return unsupported(op);
    }
  };
}

/** Date operators on a `yyyy-MM-dd` text column. */
export function dateOps(column: string): FieldCompiler {
  return (op) => {
    const day = (iso: string | undefined) => {
      const d = iso ? new Date(iso) : undefined;
      if (!d || Number.isNaN(d.getTime())) throw new SearchConditionError(`Operator ${op.operator} needs a dateTime`);
      return d.toISOString().slice(0, 10);
    };
    switch (opName(op)) {
      case 'before':
        return sql(`${column} < ?`, day(op.dateTime));
      case 'after':
        return sql(`${column} > ?`, day(op.dateTime));
      // As Komga: whole days back from today (UTC), strictly after / before that day; no date is neither.
      case 'isinthelast':
        return sql(`${column} > ?`, daysBeforeToday(op.duration));
      case 'isnotinthelast':
        return sql(`${column} < ?`, daysBeforeToday(op.duration));
      case 'isnull':
        return sql(`${column} IS NULL`);
      case 'isnotnull':
        return sql(`${column} IS NOT NULL`);
      default:
        return unsupported(op);
    }
  };
}

/** Today (UTC) less the duration's whole days (java.time.Duration.toDays(): PT36H is one day), as `yyyy-MM-dd`. */
function daysBeforeToday(duration: string | number | undefined): string {
  const days = Math.floor(durationMs(duration) / 86_400_000);
  const date = new Date();
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/**
 * ISO-8601 durations such as P30D, PT12H (P1Y2M too, months and years approximated), or a JSON
 * number of seconds, as Jackson's DurationDeserializer reads one (2592000 is 30 days).
 */
export function durationMs(duration: string | number | undefined): number {
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration)) throw new SearchConditionError('Invalid duration');
    return duration * 1000;
  }
  const match = duration ? /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(duration) : null;
  if (!match) throw new SearchConditionError('Invalid duration');
  const [, y, mo, w, d, h, mi, s] = match.map((x) => Number(x ?? 0));
  const day = 86_400_000;
  return (y! * 365 + mo! * 30 + w! * 7 + d!) * day + h! * 3_600_000 + mi! * 60_000 + s! * 1000;
}

function objectValue(op: Operator): Record<string, unknown> {
  const value = requireValue(op);
  if (typeof value !== 'object' || Array.isArray(value)) throw new SearchConditionError(`Operator ${op.operator} needs an object value`);
  return value as Record<string, unknown>;
}

/**
 * `poster` leaf (books): `{type?, selected?}` — whether the book has a poster of that type and/or
 * selection state (komga-webui's missing-posters screen asks `isNot {type: GENERATED, selected: true}`).
 */
export function posterOps(table: string, ownerColumn: string, owner: string): FieldCompiler {
  return (op) => {
    const value = objectValue(op);
    const tests: string[] = [];
    const params: unknown[] = [];
    if (value.type !== undefined && value.type !== null) {
      tests.push('upper(t.type) = upper(?)');
      params.push(String(value.type));
    }
    if (value.selected !== undefined && value.selected !== null) {
      const selected = value.selected === true || String(value.selected).toLowerCase() === 'true';
      tests.push('t.selected = ?');
      params.push(selected ? 1 : 0);
    }
    const exists = `EXISTS (SELECT 1 FROM ${table} t WHERE t.${ownerColumn} = ${owner}${tests.map((t) => ` AND ${t}`).join('')})`;
    switch (opName(op)) {
      case 'is':
        return { sql: exists, params };
      case 'isnot':
        return { sql: `NOT ${exists}`, params };
      default:
        return unsupported(op);
    }
  };
}

/** `author` leaf: `{name?, role?}` matched against a JSON array of {name, role}, ignoring accents and case (Komga's collation). */
export function authorOps(columns: string[]): FieldCompiler {
  return (op) => {
    const value = objectValue(op) as { name?: unknown; role?: unknown };
    const tests: string[] = [];
    const params: unknown[] = [];
    for (const part of [value.name, value.role]) {
      if (part !== undefined && part !== null && typeof part !== 'string') throw new SearchConditionError('author name and role must be strings');
    }
    if (value.name) tests.push(foldedEqualsSql("json_extract(value, '$.name')"));
    if (value.role) tests.push(foldedEqualsSql("json_extract(value, '$.role')"));
    if (tests.length === 0) throw new SearchConditionError('author needs a name or a role');
    const exists = columns.map((c) => `EXISTS (SELECT 1 FROM json_each(${c}) WHERE ${tests.join(' AND ')})`).join(' OR ');
    for (const _ of columns) {
      if (value.name) params.push(foldText(value.name as string));
      if (value.role) params.push(foldText(value.role as string));
    }
    switch (opName(op)) {
      case 'is':
        return { sql: exists, params };
      case 'isnot':
        return { sql: `NOT (${exists})`, params };
      default:
        return unsupported(op);
    }
  };
}

/**
 * Declarative mapping between a domain object's camelCase fields and its table's columns, so each
 * repository lists its columns once and gets reads and writes for free.
 * kind: 'text' | 'int' | 'real' as is; 'bool' stored 0/1; 'json' stored as JSON text.
 */
export type ColumnKind = 'text' | 'int' | 'real' | 'bool' | 'json';
export type ColumnMap<T> = { [K in keyof T]: [column: string, kind: ColumnKind] };

/** One mapped field: its name, its column and how it is stored. */
type FieldSpec = readonly [field: string, column: string, kind: ColumnKind];

const fieldLists = new WeakMap<object, readonly FieldSpec[]>();

/**
 * A map's fields as a flat list, built once per map: every row read and written walks it, and
 * `Object.entries` on each call allocated an array per field per row (a book's analysis reads
 * dozens of rows, a list endpoint thousands).
 */
function fieldsOf<T>(map: ColumnMap<T>): readonly FieldSpec[] {
  let fields = fieldLists.get(map);
  if (!fields) {
    fields = (Object.entries(map) as [string, [string, ColumnKind]][]).map(([field, [column, kind]]) => [field, column, kind] as const);
    fieldLists.set(map, fields);
  }
  return fields;
}

const blanks = new WeakMap<object, Record<string, unknown>>();

/**
 * An object with every field of the map, to copy from: V8 keeps an object built field by field
 * past about sixteen fields as a dictionary, and such an object is slow to copy (4–9 µs per
 * `{ ...row }`, which domain code does on every change) and to read; a copy of this blank has
 * all its fields from the start and stays a fast object.
 */
function blankOf<T>(map: ColumnMap<T>): Record<string, unknown> {
  let blank = blanks.get(map);
  if (!blank) {
    const fields: Record<string, unknown> = {};
    for (const [field] of fieldsOf(map)) fields[field] = null;
    // The spread's copy is a fast object even when `fields` became a dictionary.
    blank = { ...fields };
    blanks.set(map, blank);
  }
  return blank;
}

export function rowToObject<T>(map: ColumnMap<T>, row: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...blankOf(map) };
  for (const [field, column, kind] of fieldsOf(map)) {
    const value = row[column];
    if (value === null || value === undefined) out[field] = kind === 'json' ? [] : null;
    else if (kind === 'bool') out[field] = value === 1 || value === true;
    else if (kind === 'json') out[field] = JSON.parse(String(value));
    else out[field] = value;
  }
  return out as T;
}

export function toColumnValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'bool') return value ? 1 : 0;
  if (kind === 'json') return JSON.stringify(value);
  return value;
}

/**
 * `INSERT INTO table (cols) VALUES (@cols)` and an object of named parameters for it; `derived`
 * names columns computed from the mapped ones (folded-titles.ts), which the caller adds to the
 * parameters.
 */
export function insertSql<T>(table: string, map: ColumnMap<T>, derived: readonly string[] = []): string {
  return remembered(map, `insert ${table} ${derived.join(',')}`, () => {
    const cols = [...Object.values(map).map((c) => (c as [string, ColumnKind])[0]), ...derived];
    return `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`;
  });
}

const statementTexts = new WeakMap<object, Map<string, string>>();

/**
 * A statement's text, built once per column map: repositories ask for it on every write (each
 * analysed book updates its media row), and the statement cache then finds it by that text.
 */
function remembered(map: object, key: string, build: () => string): string {
  let texts = statementTexts.get(map);
  if (!texts) statementTexts.set(map, (texts = new Map()));
  let text = texts.get(key);
  if (text === undefined) texts.set(key, (text = build()));
  return text;
}

/** `UPDATE table SET col=@col... WHERE key=@key` for every mapped column except the key, and the derived ones. */
export function updateSql<T>(table: string, map: ColumnMap<T>, keyColumn: string, derived: readonly string[] = []): string {
  return remembered(map, `update ${table} ${keyColumn} ${derived.join(',')}`, () => {
    const cols = [...Object.values(map).map((c) => (c as [string, ColumnKind])[0]), ...derived].filter((c) => c !== keyColumn);
    return `UPDATE ${table} SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE ${keyColumn} = @${keyColumn}`;
  });
}

export function objectToParams<T>(map: ColumnMap<T>, obj: T): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [field, column, kind] of fieldsOf(map)) {
    params[column] = toColumnValue(kind, (obj as Record<string, unknown>)[field]);
  }
  return params;
}

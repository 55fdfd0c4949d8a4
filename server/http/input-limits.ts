import { IMPORT_LIMITS } from '../domain/metadata/imported-text.ts';

/**
 * Bounds on what a request body may carry (README "Security", "Bounded stores"): the same for every
 * route, applied to its body schema by boundRequestSchema when the route is registered, so a route
 * added later is bounded too. Before them a collection named with 1 MB of text was stored and sent
 * to every reader listing collections, and a series title edited to 1 MB likewise.
 *
 * The request line and headers (path, query) are bounded as a whole by Node's 16 KiB header limit
 * (431 past it), and the texts read from a query by their readers (a search ≤ 1,000 characters, a
 * title pattern ≤ 200): a query keeps Spring's leniency, e.g. thousands of repeated `sort` values.
 *
 * What people type obeys the limits of what books say about themselves (IMPORT_LIMITS): a typed
 * title may be as long as an imported one, and no longer. Past a bound the request is a 400 whose
 * violation names the field and the bound; nothing is cut or stored.
 */
export const INPUT_LIMITS = {
  /** Any text a field does not declare longer: a name, title, e-mail, password, tag, id, query value. */
  textChars: IMPORT_LIMITS.textChars,
  /** Prose: a summary. */
  longTextChars: IMPORT_LIMITS.longTextChars,
  /** A file-system path (a library root, a file to import): Linux's PATH_MAX. */
  pathChars: 4096,
  /** Any list or map a field does not declare longer: tags, authors, labels, exclusions, roles. */
  listItems: IMPORT_LIMITS.listValues,
  /**
   * Ids of one batch (a read list's books, a collection's series, a user's libraries, books
   * imported or edited at once). A read list made from a ComicRack list (.cbl, up to 5 MB, some
   * fifty bytes a book) may name some 100,000 books: whole-universe reading orders run to tens of
   * thousands. A bulk edit stays within the JSON member bound (content-types.ts) first.
   */
  batchItems: 100_000,
  /**
   * Whole numbers: the range of the Kotlin Int that Komga's DTOs declare (an age, a page, a count),
   * where Jackson refuses a number past it. Without it 99,999,999,999 was stored as an age limit.
   */
  intMin: -(2 ** 31),
  intMax: 2 ** 31 - 1,
} as const;

/** The parts of a JSON schema the bounds concern. */
export type RequestSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  maxProperties?: number;
  properties?: Record<string, RequestSchema>;
  patternProperties?: Record<string, RequestSchema>;
  items?: RequestSchema;
  anyOf?: RequestSchema[];
  oneOf?: RequestSchema[];
  allOf?: RequestSchema[];
};

/**
 * A copy of `schema` where every text, list, map and whole number without a bound of its own gets
 * the default one (textChars, listItems, the Int range). Schemas are shared between routes, so they are copied, not changed.
 * A schema without a type (a search condition, read by its own bounded compiler) is left as it is.
 */
export function boundRequestSchema<T>(schema: T): T {
  return bound(schema as RequestSchema) as T;
}

function bound(schema: RequestSchema): RequestSchema {
  if (!schema || typeof schema !== 'object') return schema;
  const copy: RequestSchema = { ...schema };
  const types = [schema.type ?? []].flat();
  if (types.includes('string') && copy.maxLength === undefined && !copy.enum && copy.const === undefined) copy.maxLength = INPUT_LIMITS.textChars;
  if (types.includes('array') && copy.maxItems === undefined) copy.maxItems = INPUT_LIMITS.listItems;
  if (types.includes('integer')) {
    copy.minimum ??= INPUT_LIMITS.intMin;
    copy.maximum ??= INPUT_LIMITS.intMax;
  }
  if (copy.patternProperties && copy.maxProperties === undefined) copy.maxProperties = INPUT_LIMITS.listItems;
  if (copy.properties) copy.properties = mapValues(copy.properties, bound);
  if (copy.patternProperties) copy.patternProperties = mapValues(copy.patternProperties, bound);
  if (copy.items) copy.items = bound(copy.items);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (copy[key]) copy[key] = copy[key].map(bound);
  return copy;
}

const mapValues = (record: Record<string, RequestSchema>, f: (schema: RequestSchema) => RequestSchema) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Static, type TSchema, type TypeBoxTypeProvider, Type } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifySchemaValidationError,
  FastifyServerOptions,
  RawServerDefault,
} from 'fastify';
import { INPUT_LIMITS } from './input-limits.ts';
import { springBoolean } from './query-params.ts';

/**
 * Request schemas shared by the routes, and the app-wide rules that make validation as lenient as
 * Komga's Spring + Jackson binding: Ajv coerces scalars ("3" → 3, "2.5" → 2.5, "true" → true, one
 * query value → a one-item list), property names and enum values match whatever their case, a
 * list parameter also accepts `k=a,b` and `k[]=a`, and a Boolean or number query parameter is read
 * as Spring's conversion service reads it (readScalarParam).
 */

/** The Fastify instance every route module receives: handlers get their types from their schemas. */
export type FolioApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

export { Type };
export type { Static, TSchema };

/**
 * `T` or null, as one JSON Schema type list rather than anyOf: Ajv coerces only values matching
 * none of the listed types, so an explicit null stays null (PATCH: null clears, absent keeps).
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, enum: values } = schema as { type?: string | string[]; enum?: unknown[] };
  if (type === undefined) return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }] });
  const types = [...new Set([...[type].flat(), 'null'])];
  return Type.Unsafe<Static<T> | null>({ ...schema, type: types, ...(values ? { enum: [...new Set([...values, null])] } : {}) });
}

/**
 * A Kotlin non-null primitive of a Komga DTO (Boolean, Int, Float without a default value):
 * Jackson reads it absent as false / 0 instead of refusing the body (jackson-module-kotlin#161),
 * and Ajv's coercion already reads null so. The zero is the schema's `default`.
 */
export function KotlinPrimitive(kind: 'boolean'): ReturnType<typeof Type.Optional<ReturnType<typeof Type.Boolean>>>;
export function KotlinPrimitive(kind: 'number' | 'integer', options?: { minimum?: number }): ReturnType<typeof Type.Optional<ReturnType<typeof Type.Number>>>;
export function KotlinPrimitive(kind: 'boolean' | 'number' | 'integer', options: { minimum?: number } = {}) {
  if (kind === 'boolean') return Type.Optional(Type.Boolean({ default: false }));
  return Type.Optional(kind === 'integer' ? Type.Integer({ ...options, default: 0 }) : Type.Number({ ...options, default: 0 }));
}

/** One of fixed string values, matched case-insensitively by normaliseRequest. */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A list query parameter (Spring binds `k=a&k=b`, `k=a,b` and `k[]=a`): normaliseRequest merges
 * `k[]` into `k` and splits at commas before validation.
 */
export function QueryList<T extends TSchema = ReturnType<typeof Type.String>>(items?: T) {
  return Type.Unsafe<Static<T>[]>({ type: 'array', items: items ?? { type: 'string' }, [COMMA_LIST]: true });
}
const COMMA_LIST = 'x-comma-list';
/** A schema's own wording for its validation failure ("must be a well-formed email address"). */
const MESSAGE = 'x-message';

/** Marks a body the client may leave out entirely (Spring's `@RequestBody(required = false)`): read as `{}`. */
const OPTIONAL_BODY = 'x-optional-body';
export function OptionalBody<T extends TSchema>(schema: T): T {
  return { ...schema, [OPTIONAL_BODY]: true } as T;
}

/** `schema` whose failures read `<field> <message>` instead of Ajv's generic wording. */
export function withMessage<T extends TSchema>(schema: T, message: string): T {
  return { ...schema, [MESSAGE]: message } as T;
}

/**
 * Query parameters read by the shared query helpers (query-params.ts: legacy list filters, paging,
 * OPDS): named here, kept as text (one value, or a list when repeated) for those helpers to read the
 * way Spring does. Unknown parameters are ignored, as Spring ignores them.
 */
export function NamedQuery(names: readonly string[]) {
  const text = Type.Union([Type.String(), Type.Array(Type.String())]);
  return Type.Unsafe<Record<string, string | string[] | undefined>>(
    Type.Object(Object.fromEntries(names.map((name) => [name, Type.Optional(text)]))),
  );
}

export const PAGING_PARAMS = ['page', 'size', 'sort', 'unpaged'] as const;
/** The deprecated GET list filters (REFERENCE §3.4), read by legacy-filters.ts. */
export const LIST_FILTER_PARAMS = [
  'search', 'search_regex', 'library_id', 'collection_id', 'series_id', 'readlist_id', 'status', 'read_status', 'media_status',
  'publisher', 'language', 'genre', 'tag', 'age_rating', 'release_year', 'released_after', 'sharing_label', 'deleted',
  'complete', 'oneshot', 'author',
] as const;
/** Paged lists with the legacy filters. */
export const ListQuery = NamedQuery([...PAGING_PARAMS, ...LIST_FILTER_PARAMS]);

/**
 * Fields allowed past the default bounds of input-limits.ts (a text of textChars, a list of
 * listItems), each as long as its kind needs: prose, a file-system path, a batch of ids.
 */
export const LongText = (options: { pattern?: string } = {}) => Type.String({ ...options, maxLength: INPUT_LIMITS.longTextChars });
export const PathText = (options: { minLength?: number } = {}) => Type.String({ ...options, maxLength: INPUT_LIMITS.pathChars });
export const Batch = <T extends TSchema>(items: T, options: { minItems?: number; uniqueItems?: boolean } = {}) =>
  Type.Array(items, { ...options, maxItems: INPUT_LIMITS.batchItems });
/** A map holding one entry per id of a batch (a bulk metadata edit). */
export const BatchRecord = <T extends TSchema>(values: T) => Type.Record(Type.String(), values, { maxProperties: INPUT_LIMITS.batchItems });

/** Path parameter `id`. */
export const IdParams = Type.Object({ id: Type.String() });

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  const?: unknown;
  [COMMA_LIST]?: boolean;
  [MESSAGE]?: string;
  [OPTIONAL_BODY]?: boolean;
};

/**
 * Runs before validation on the query and the body: renames properties to the schema's spelling
 * when they differ only in case, rewrites enum values to the schema's spelling, and reads list
 * query parameters the three ways Spring does. Unknown properties are left alone.
 *
 * A body property or list item sent as null where its schema does not list null is refused here
 * (see refusesNull): Ajv's coercion would otherwise read it as "" or [""] and let it through.
 */
export function normaliseRequest(request: FastifyRequest): void {
  const schema = request.routeOptions.schema as { querystring?: JsonSchema; body?: JsonSchema } | undefined;
  if (!schema) return;
  if (schema.querystring && request.query && typeof request.query === 'object') {
    normaliseQuery(request.query as Record<string, unknown>, schema.querystring);
  }
  if (schema.body && request.body === undefined && schema.body[OPTIONAL_BODY]) request.body = {};
  if (schema.body && request.body !== undefined) {
    const nulls: string[] = [];
    request.body = normaliseValue(request.body, schema.body, { path: [], nulls });
    if (nulls.length > 0) throw nullsRefused(nulls);
  }
}

/**
 * Jackson's reading of an explicit null, by the schema's type. A schema that lists null (Nullable)
 * takes it: the route decides whether it keeps or clears, as Komga's controllers do. A Kotlin
 * non-null Boolean/Int/Float is a JVM primitive, which Jackson reads null into as false / 0 (Ajv's
 * coercion does the same). Any other non-null type (String, an enum, a List/Set, an object) is
 * refused with a 400, whether or not the Kotlin field has a default: jackson-module-kotlin only
 * uses a default for an absent field. A schema without a type (a union, unknown) is left to Ajv.
 */
function refusesNull(schema: JsonSchema): boolean {
  if (schema.type === undefined || Array.isArray(schema.type)) return false;
  return schema.type === 'string' || schema.type === 'array' || schema.type === 'object';
}

/** Where normaliseValue is in the body (list positions left out, as Komga names fields) and the refused nulls. */
interface BodyWalk {
  path: string[];
  nulls: string[];
}

function nullsRefused(fields: string[]): Error {
  return fieldViolations(fields.map((fieldName) => ({ fieldName, message: 'must not be null' })));
}

/**
 * A 400 naming the fields a route's own rules refused (past what its schema checks), in the shape
 * of a failed schema validation: Spring's error body with Komga's `violations`.
 */
export function fieldViolations(violations: Violation[]): Error {
  const error = new RequestValidationError(violations.slice(0, MAX_VIOLATIONS));
  // Read by the error handler as a failed validation, like Ajv's.
  return Object.assign(error, { validation: error.violations, statusCode: 400 });
}

function normaliseQuery(query: Record<string, unknown>, schema: JsonSchema): void {
  for (const key of Object.keys(query)) {
    if (!key.endsWith('[]')) continue;
    const name = key.slice(0, -2);
    query[name] = [query[name], query[key]].flat().filter((v) => v !== undefined);
    delete query[key];
  }
  normaliseValue(query, schema);
  for (const [name, property] of Object.entries(schema.properties ?? {})) readScalarParam(query, name, property);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!property[COMMA_LIST] || query[name] === undefined) continue;
    query[name] = [query[name]]
      .flat()
      .flatMap((v) => String(v).split(','))
      .map((v) => v.trim())
      .filter((v) => v.length > 0);
  }
}

/** The scalar types a schema lists (one type or a Nullable list). */
const scalarTypes = (schema: JsonSchema) => [schema.type ?? []].flat().filter((t) => t === 'boolean' || t === 'integer' || t === 'number');

/**
 * One query value for a Boolean or number parameter, as Spring's conversion service reads it:
 * blanks around it do not count, an empty value is no value (the default applies), and a boolean
 * is any of Spring's words (true/on/yes/1, false/off/no/0, in any case). What is left is Ajv's to
 * coerce or refuse with a 400.
 */
function readScalarParam(query: Record<string, unknown>, name: string, schema: JsonSchema): void {
  const value = query[name];
  const types = scalarTypes(schema);
  if (typeof value !== 'string' || types.length === 0) return;
  const text = value.trim();
  if (text === '') delete query[name];
  else query[name] = types.includes('boolean') ? String(springBoolean(text) ?? text) : text;
}

/**
 * A JSON text where the body's schema wants a boolean or a number, as Jackson reads it: "" is
 * null (then kept as null where the field takes it, else false / 0 as for a JVM primitive), and a
 * boolean is "true", "True" or "TRUE" (or the same of false). Numbers in text are Ajv's to coerce.
 */
function jacksonScalar(value: string, schema: JsonSchema): unknown {
  const types = scalarTypes(schema);
  if (types.length === 0) return value;
  if (value.trim() === '') return null;
  if (types.includes('boolean')) {
    if (value === 'True' || value === 'TRUE') return true;
    if (value === 'False' || value === 'FALSE') return false;
  }
  return value;
}

function normaliseValue(value: unknown, schema: JsonSchema, walk?: BodyWalk): unknown {
  if (typeof value === 'string') {
    const scalar = walk ? jacksonScalar(value, schema) : value;
    return typeof scalar === 'string' ? canonicalEnumValue(scalar, schema) : scalar;
  }
  if (Array.isArray(value)) {
    const items = schema.items ?? schema.anyOf?.find((s) => s.items)?.items;
    if (!items) return value;
    // A null item of a List<String> would be read as "" (a tag "", a library id ""): refused like a field.
    if (walk && refusesNull(items) && value.includes(null)) walk.nulls.push(walk.path.join('.') || 'body');
    return value.map((item) => normaliseValue(item, items, walk));
  }
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const everyValue = schema.patternProperties ? Object.values(schema.patternProperties)[0] : undefined;
  if (everyValue) {
    // A map (Type.Record): every value follows one schema.
    for (const key of Object.keys(object)) object[key] = normaliseProperty(object, key, everyValue, walk);
    return object;
  }
  const properties = schema.properties ?? schema.anyOf?.find((s) => s.properties)?.properties;
  if (!properties) return value;
  const byLowerName = new Map(Object.keys(properties).map((name) => [name.toLowerCase(), name]));
  for (const key of Object.keys(object)) {
    const name = byLowerName.get(key.toLowerCase());
    if (name === undefined) continue;
    if (name !== key && !(name in object)) {
      object[name] = object[key];
      delete object[key];
    }
    object[name] = normaliseProperty(object, name, properties[name]!, walk);
  }
  return object;
}

function normaliseProperty(object: Record<string, unknown>, name: string, schema: JsonSchema, walk: BodyWalk | undefined): unknown {
  const value = object[name];
  if (!walk) return normaliseValue(value, schema);
  const path = [...walk.path, name];
  if (value === null && refusesNull(schema)) walk.nulls.push(path.join('.'));
  return normaliseValue(value, schema, { path, nulls: walk.nulls });
}

function canonicalEnumValue(value: string, schema: JsonSchema): string {
  const allowed = schema.enum ?? schema.anyOf?.flatMap((s) => (s.const !== undefined ? [s.const] : (s.enum ?? [])));
  if (!allowed) return value;
  const lower = value.toLowerCase();
  const match = allowed.find((a) => typeof a === 'string' && a.toLowerCase() === lower);
  return typeof match === 'string' ? match : value;
}

export interface Violation {
  fieldName: string;
  message: string;
}

/** A failed request validation: Spring's message plus Komga's `{fieldName, message}` violations. */
export class RequestValidationError extends Error {
  readonly violations: Violation[];
  constructor(violations: Violation[]) {
    super(violations.map((v) => `${v.fieldName} ${v.message}`).join('; '));
    this.name = 'RequestValidationError';
    this.violations = violations;
  }
}

const MAX_VIOLATIONS = 20;
const BOUND_KEYWORDS = new Set(['maxLength', 'maxItems', 'maxProperties']);

/** Ajv's errors as Komga's violations: "taskPoolSize must be <= 64", "email must be a well-formed email address". */
export function formatValidationErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const violations = new Map<string, Violation>();
  for (const error of errors) {
    const params = error.params as { missingProperty?: string; allowedValues?: unknown[] };
    // List positions are dropped: "roles", "authors.name", as Komga names them.
    const path = error.instancePath.split('/').filter((part) => part && !/^\d+$/.test(part));
    if (params.missingProperty) path.push(params.missingProperty);
    const fieldName = path.join('.') || dataVar;
    // A schema's own wording is for what it checks itself ("must not be blank"); a bound the
    // input-limits policy added keeps Ajv's wording, which names the bound.
    const own = BOUND_KEYWORDS.has(error.keyword) ? undefined : (error as { parentSchema?: JsonSchema }).parentSchema?.[MESSAGE];
    const message = params.missingProperty
      ? 'is required'
      : own ?? (params.allowedValues ? `must be one of ${params.allowedValues.filter((v) => v !== null).join(', ')}` : (error.message ?? 'is invalid'));
    if (!violations.has(fieldName)) violations.set(fieldName, { fieldName, message });
  }
  return new RequestValidationError([...violations.values()].slice(0, MAX_VIOLATIONS));
}

/** Ajv plugin: Ajv must know the list marker keyword (it only guides normaliseRequest). */
function addListKeyword<A extends { addKeyword(definition: { keyword: string; schemaType: string }): unknown }>(ajv: A): A {
  ajv.addKeyword({ keyword: COMMA_LIST, schemaType: 'boolean' });
  ajv.addKeyword({ keyword: MESSAGE, schemaType: 'string' });
  ajv.addKeyword({ keyword: OPTIONAL_BODY, schemaType: 'boolean' });
  return ajv;
}

/** Jackson-like leniency for every schema: scalars coerced, one value where a list is expected. */
export const AJV_OPTIONS = {
  // allErrors: every violation at once, as Komga lists them; verbose: errors carry their schema (x-message).
  customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: true, verbose: true },
  plugins: [addListKeyword],
} as unknown as NonNullable<FastifyServerOptions['ajv']>;

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Komga's response contract as a strict JSON Schema validator (ajv, draft 2020-12, which OpenAPI
 * 3.1 schemas are), with the conventions springdoc leaves out of the document made explicit
 * (REFERENCE.md §0):
 * - a property outside `required` is a nullable Kotlin type: it may be null, but Jackson still
 *   writes it, so it must be present (kotlinx clients without defaults fail on a missing key),
 *   except the few Komga omits when null;
 * - Spring's Page envelope always has every member, non-null;
 * - no member outside the schema (a typed client's DTO has nowhere to put it, and drift shows);
 * - timestamps are `yyyy-MM-ddTHH:mm:ssZ`, except the few written by Jackson's ISO defaults;
 * - int32 / int64 numbers are integers in range.
 */
export type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  items?: Schema;
};

export interface QueryParameter {
  in: string;
  name: string;
  schema: Schema;
}

const contract = JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/komga-openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: QueryParameter[]; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
};

/** Members Komga omits when null (REFERENCE.md §0 "Nulls"). */
const OMITTED_WHEN_NULL: Record<string, string[]> = {
  UserDto: ['ageRestriction'],
  ClientSettingDto: ['allowUnauthorized'],
};

/** Timestamps Komga writes without its `'Z'` pattern (REFERENCE.md §0 "Dates"). */
const LOCAL_DATE_TIMES: Record<string, string[]> = {
  HistoricalEventDto: ['timestamp'],
  PageHashKnownDto: ['created', 'lastModified'],
};
const ZONED_DATE_TIMES: Record<string, string[]> = {
  ApiKeyDto: ['createdDate', 'lastModifiedDate'],
};

/**
 * Komga's Readium DTOs carry Jackson inclusion rules of their own (WepPub.kt, R2Locator.kt):
 * NON_EMPTY leaves out null members and empty lists, maps and strings; NON_NULL leaves out null
 * members. Folio keeps the members the contract calls required even when empty (a decoder generated
 * from the contract needs them; Komga's own readers take either), so only the others may be absent,
 * and never null or empty when present.
 */
const NON_EMPTY = new Set(['WPLinkDto', 'WPMetadataDto', 'WPBelongsToDto', 'WPContributorDto', 'R2Locator', 'Location', 'Text']);
const NON_NULL = new Set(['WPPublicationDto']);
const EMPTY_VALUES = { enum: [null, '', [], {}] };

const isEnvelope = (name: string) => /^Page[A-Z]/.test(name) && !name.startsWith('PageDto') || name === 'PageableObject' || name === 'SortObject';

/** The contract's `#/components/schemas/X` references, pointed at `prefix` + X. */
function rewriteRefs(value: unknown, prefix = '#/$defs/'): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, prefix));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', prefix) : rewriteRefs(v, prefix)]),
  );
}

function strictSchema(name: string, original: Schema): Schema {
  const schema = rewriteRefs(original) as Schema;
  if (!schema.properties) return schema;
  const required = new Set(schema.required ?? []);
  const omitted = new Set(OMITTED_WHEN_NULL[name] ?? []);
  const properties: Record<string, Schema> = {};
  const present: string[] = [];
  for (const [key, property] of Object.entries(schema.properties)) {
    let p = property;
    if (LOCAL_DATE_TIMES[name]?.includes(key)) p = { ...p, format: 'komga-local-date-time' };
    if (ZONED_DATE_TIMES[name]?.includes(key)) p = { ...p, format: 'komga-zoned-date-time' };
    if (NON_EMPTY.has(name)) {
      properties[key] = required.has(key) ? p : { allOf: [p], not: EMPTY_VALUES };
      if (required.has(key)) present.push(key);
    } else if (NON_NULL.has(name)) {
      properties[key] = p;
      if (required.has(key)) present.push(key);
    } else {
      properties[key] = required.has(key) || isEnvelope(name) ? p : { anyOf: [p, { type: 'null' }] };
      if (!omitted.has(key)) present.push(key);
    }
  }
  return { ...schema, properties, required: present, additionalProperties: schema.additionalProperties ?? false };
}

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true, verbose: true });
addFormats.default(ajv, ['int32', 'int64', 'float', 'double', 'date', 'uri']);
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
ajv.addFormat('komga-local-date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?$/);
ajv.addFormat('komga-zoned-date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/);
ajv.addSchema({
  $id: 'komga',
  $defs: Object.fromEntries(Object.entries(contract.components.schemas).map(([name, s]) => [name, strictSchema(name, s)])),
});

const compiled = new Map<string, ValidateFunction>();
function validator(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile({ $id: `komga-response-${compiled.size}`, ...(rewriteRefs(schema, 'komga#/$defs/') as object) });
    compiled.set(key, validate);
  }
  return validate;
}

const describe = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    // anyOf [T, null] reports both branches; the null branch's "must be null" adds nothing.
    .filter((e) => !(e.keyword === 'type' && e.params.type === 'null') && e.keyword !== 'anyOf')
    .map((e) => `${e.instancePath || '/'} ${e.message}${e.keyword === 'additionalProperties' ? `: ${String(e.params.additionalProperty)}` : ''}${e.keyword === 'enum' || e.keyword === 'format' ? ` (${JSON.stringify(e.data)})` : ''}`);

/** Problems of `value` against the named component schema ([] when it conforms). */
export function schemaProblems(value: unknown, schemaName: string): string[] {
  const validate = ajv.getSchema(`komga#/$defs/${schemaName}`);
  if (!validate) throw new Error(`no schema ${schemaName} in the contract`);
  return validate(value) ? [] : describe(validate.errors);
}

/** The JSON schema of an operation's success answer, or undefined when it answers no JSON document. */
export function jsonResponseSchema(method: string, path: string): Schema | undefined {
  const responses = contract.paths[path]?.[method.toLowerCase()]?.responses ?? {};
  // The success answer: 200, or 201 where the contract creates (POST /api/v2/users).
  const content = Object.entries(responses).find(([code, r]) => code.startsWith('2') && r.content)?.[1].content ?? {};
  const schema = content['application/json']?.schema;
  if (!schema) return undefined;
  const target = schema.$ref ? contract.components.schemas[schema.$ref.split('/').pop()!] : schema;
  // Downloads and images are typed `string` or StreamingResponseBody in the contract: not JSON documents.
  if (schema.$ref?.endsWith('/StreamingResponseBody') || target?.type === 'string') return undefined;
  return schema;
}

/** Problems of `value` against an operation's success JSON schema. */
export function responseProblems(method: string, path: string, value: unknown): string[] {
  const schema = jsonResponseSchema(method, path);
  if (!schema) throw new Error(`${method} ${path} answers no JSON in the contract`);
  const validate = validator(schema);
  return validate(value) ? [] : describe(validate.errors);
}

/** Every GET operation of the contract. */
export const getOperations = Object.entries(contract.paths)
  .filter(([, item]) => item.get)
  .map(([path]) => path);

/** The query parameters an operation documents. */
export function queryParameters(method: string, path: string): QueryParameter[] {
  return (contract.paths[path]?.[method.toLowerCase()]?.parameters ?? []).filter((p) => p.in === 'query');
}

/** Whether `contentType` is one the contract documents for the operation's success (or default) answer. */
export function documentsContentType(method: string, path: string, contentType: string): boolean {
  const responses = contract.paths[path]?.[method.toLowerCase()]?.responses ?? {};
  const success = Object.entries(responses).find(([code, r]) => code.startsWith('2') && r.content)?.[1] ?? responses.default;
  const documented = Object.keys(success?.content ?? {});
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return documented.some((d) => d === '*/*' || d === type || (d.endsWith('/*') && type.startsWith(d.slice(0, -1))));
}

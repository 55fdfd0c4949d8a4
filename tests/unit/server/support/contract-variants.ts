import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Komga's OpenAPI contract read as a list of operations, and the Jackson- and Spring-style
 * spellings of each typed value, for the probe in jackson-variants.test.ts.
 *
 * A variant is `same` when Komga (Spring + Jackson with Spring Boot's defaults) reads it as the
 * canonical value, so Folio must give the same answer and leave the same state; `lenient` when
 * Komga refuses it and Folio may either refuse it (a 4xx with a message) or read it as the
 * canonical value, never anything else; `refused` when Komga answers 400 and so must Folio.
 */
export type Expectation = 'same' | 'lenient' | 'refused';

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  required?: string[];
  minimum?: number;
  maximum?: number;
  oneOf?: Schema[];
}

export interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema, $refs resolved; undefined when the operation reads no JSON body. */
  body: Schema | undefined;
  /** The body is multipart (poster uploads). */
  multipart: boolean;
}

const contract = JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/komga-openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

export function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  return resolve(contract.components.schemas[schema.$ref.split('/').pop()!]!);
}

export const operations: Operation[] = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, op]) => {
      const content = op.requestBody?.content ?? {};
      const json = content['application/json']?.schema;
      return {
        method: method.toUpperCase() as Operation['method'],
        path,
        parameters: (op.parameters ?? []).map((p) => ({ ...p, schema: resolve(p.schema) })),
        body: json ? resolve(json) : undefined,
        multipart: 'multipart/form-data' in content,
      };
    }),
);

/** The GET whose answer shows what a PATCH/PUT on `path` changed: the same path, or the nearest parent. */
export function readBackPath(path: string): string | undefined {
  const segments = path.split('/');
  for (let n = segments.length; n > 3; n--) {
    const candidate = segments.slice(0, n).join('/');
    if (contract.paths[candidate]?.get) return candidate;
  }
  return undefined;
}

export interface ValueVariant {
  /** What the variant is, for failure messages. */
  label: string;
  value: unknown;
  expect: Expectation;
  /** The canonical value the variant stands for, when it is not the second value. */
  means?: { value: unknown };
}

/** Jackson reads "" for a Boolean, Int or Float as null (its EmptyString coercion for scalars). */
const EMPTY_IS_NULL: ValueVariant = { label: '""', value: '', expect: 'same', means: { value: null } };

/**
 * Two distinct canonical values of a typed body field, and the other spellings of the second.
 * Undefined for types whose spellings Jackson does not vary (plain strings, lists, objects).
 */
export function bodyFieldVariants(schema: Schema): { first: unknown; second: unknown; variants: ValueVariant[] } | undefined {
  if (schema.enum && schema.enum.length >= 2) {
    const value = schema.enum[1]!;
    const titled = value.charAt(0) + value.slice(1).toLowerCase();
    return {
      first: schema.enum[0],
      second: value,
      // Komga's mapper accepts enum values case-insensitively (REFERENCE §0).
      variants: [
        { label: 'lower case', value: value.toLowerCase(), expect: 'same' },
        { label: 'title case', value: titled, expect: 'same' },
      ],
    };
  }
  switch (schema.type) {
    case 'boolean':
      return {
        first: false,
        second: true,
        // Jackson reads "true"/"True"/"TRUE" and any non-zero int as true (int to boolean is allowed by default).
        variants: [
          { label: '"true"', value: 'true', expect: 'same' },
          { label: '"TRUE"', value: 'TRUE', expect: 'same' },
          { label: '"True"', value: 'True', expect: 'same' },
          { label: '1', value: 1, expect: 'same' },
          { label: '"yes"', value: 'yes', expect: 'refused' },
          { label: '"FALSE"', value: 'FALSE', expect: 'same', means: { value: false } },
          { label: '0', value: 0, expect: 'same', means: { value: false } },
          EMPTY_IS_NULL,
        ],
      };
    case 'integer':
      return {
        first: 1,
        second: 2,
        variants: [
          { label: '"2"', value: '2', expect: 'same' },
          // ACCEPT_FLOAT_AS_INT: a JSON 2.0 is 2.
          { label: '2.0', value: 2.0, expect: 'same' },
          // Jackson's int parser refuses text with a fraction or spaces.
          { label: '"2.0"', value: '2.0', expect: 'lenient' },
          { label: '" 2"', value: ' 2', expect: 'lenient' },
          { label: '"two"', value: 'two', expect: 'refused' },
          { label: '{}', value: {}, expect: 'refused' },
          EMPTY_IS_NULL,
        ],
      };
    case 'number':
      return {
        first: 1.5,
        second: 2.5,
        variants: [
          { label: '"2.5"', value: '2.5', expect: 'same' },
          { label: '"2.50"', value: '2.50', expect: 'same' },
          { label: '"two"', value: 'two', expect: 'refused' },
          EMPTY_IS_NULL,
        ],
      };
    case 'string':
      if (schema.format === 'date-time') {
        return {
          first: '2020-01-02T03:04:05Z',
          second: '2021-06-07T08:09:10Z',
          // Jackson's InstantDeserializer takes fractions and offsets; a time without a zone is refused.
          variants: [
            { label: 'millis', value: '2021-06-07T08:09:10.000Z', expect: 'same' },
            { label: '+02:00', value: '2021-06-07T10:09:10+02:00', expect: 'same' },
            { label: 'no zone', value: '2021-06-07T08:09:10', expect: 'lenient' },
            { label: 'not a date', value: 'yesterday', expect: 'refused' },
          ],
        };
      }
      return undefined;
    default:
      return undefined;
  }
}

/** Spring's StringToBooleanConverter: these words, in any case; anything else is a 400. */
export const QUERY_BOOLEANS: { text: string; means: boolean }[] = [
  { text: 'TRUE', means: true },
  { text: 'True', means: true },
  { text: '1', means: true },
  { text: 'yes', means: true },
  { text: 'on', means: true },
  { text: 'FALSE', means: false },
  { text: '0', means: false },
  { text: 'no', means: false },
  { text: 'off', means: false },
];

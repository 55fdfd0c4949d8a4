import { isDeepStrictEqual } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { type CompatServer, startCompatServer } from './komga-compat-helpers.ts';
import { ADMIN_PASSWORD, insertUser } from './helpers.ts';
import {
  type Expectation,
  type Operation,
  type Schema,
  QUERY_BOOLEANS,
  bodyFieldVariants,
  operations,
  readBackPath,
  resolve,
} from './support/contract-variants.ts';

/**
 * Breadth probe over every operation of Komga's contract, as admin, with real ids: the values
 * Komga's Spring + Jackson binding accepts in other spellings (numbers and booleans as text, enum
 * values in any case, dates with offsets and fractions, lists as repeated or comma-separated
 * parameters, Spring's paging edge values, empty bodies under any Content-Type, unknown fields),
 * and values it refuses. Each answer must be a success or a 4xx carrying a message, never a 5xx;
 * a spelling Komga accepts must give the answer, and leave the state, its canonical spelling does.
 * The web and mobile clients' own calls are replayed elsewhere (komga-webui-calls, komga-mobile-calls).
 */
let c: CompatServer;
const ids: Record<string, string> = {};
const failures: string[] = [];
const counts = { operations: 0, requests: 0, variants: 0, againstSuccess: 0 };
/** Operations whose canonical request itself was refused: their variants only show they are refused alike. */
const refusedCanonically = new Set<string>();

beforeAll(async () => {
  c = await startCompatServer();
  const post = async (url: string, body: unknown) => {
    const response = await c.send('POST', url, { contentType: 'application/json', body });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json() as { id: string };
  };
  const alpha = c.series.find((s) => s.name === 'Alpha')!;
  const book = c.books.find((b) => b.seriesId === alpha.id && b.media.status === 'READY')!;
  Object.assign(ids, { libraryId: c.library.id, seriesId: alpha.id, bookId: book.id });
  ids.collections = (await post('/api/v1/collections', { name: 'Probe C', ordered: false, seriesIds: [alpha.id] })).id;
  ids.readlists = (await post('/api/v1/readlists', { name: 'Probe R', summary: '', ordered: true, bookIds: [book.id] })).id;
  ids.users = await insertUser(c.server, 'reader@example.org', 'reader password', ['PAGE_STREAMING']);
  ids.keyId = (await post('/api/v2/users/me/api-keys', { comment: 'probe' })).id;
  for (const kind of ['books', 'series', 'collections', 'readlists'] as const) {
    const owner = kind === 'books' ? book.id : kind === 'series' ? alpha.id : ids[kind]!;
    const thumbnails = await c.server.json<{ id: string }[]>(`/api/v1/${kind}/${owner}/thumbnails`);
    ids[`${kind}Thumbnail`] = thumbnails[0]?.id ?? 'none';
  }
}, 30_000);
afterAll(async () => {
  await c.server.close();
});

/** A real value for each path parameter, by its name and the collection it names. */
function pathFor(op: Operation): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const kind = op.path.split('/')[3]!;
    if (name === 'id') return ids[kind] ?? 'unknown';
    if (name === 'thumbnailId') return ids[`${kind}Thumbnail`] ?? 'none';
    if (name === 'pageNumber') return '1';
    return ids[name] ?? 'unknown';
  });
}

let unique = 0;
/** A canonical value for a schema: required fields only; strings named for what they hold. */
function generate(schema: Schema, name: string): unknown {
  const s = resolve(schema);
  if (s.enum) return s.enum[0];
  switch (s.type) {
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'array': {
      const idName = name.endsWith('Ids') ? name.slice(0, -1) : name;
      return [generate(s.items ?? { type: 'string' }, idName)];
    }
    case 'object':
    case undefined: {
      if (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object') {
        return { [name === 'books' ? ids.bookId! : 'folio.probe']: generate(s.additionalProperties, '') };
      }
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = generate(s.properties![key]!, key);
      return out;
    }
    default:
      break;
  }
  if (s.format === 'date-time') return '2020-01-02T03:04:05Z';
  if (s.format === 'date') return '2020-01-02';
  if (/Id$/.test(name)) return ids[name] ?? ids.bookId;
  if (name === 'email') return `probe${++unique}@example.org`;
  if (name === 'password') return ADMIN_PASSWORD;
  if (name === 'url') return 'https://example.org/';
  if (name === 'roles') return 'PAGE_STREAMING';
  if (name === 'root' || name === 'path' || name === 'sourceFile') return '/nonexistent/probe';
  return `probe-${++unique}`;
}

/** Bodies whose required parts must name real things for the request to mean anything. */
function canonicalBody(op: Operation): unknown {
  if (op.path === '/api/v1/books/{bookId}/progression') {
    return { modified: '2020-01-02T03:04:05Z', device: { id: 'probe', name: 'Probe' }, locator: { href: `/api/v1/books/${ids.bookId}/pages/1`, type: 'image/png', locations: { position: 1 } } };
  }
  // Komga refuses a progress with neither a page nor completed: the typed fields are varied beside a page.
  if (op.path === '/api/v1/books/{bookId}/read-progress') return { page: 1 };
  // The map bodies are keyed by book id and by setting name.
  if (op.path === '/api/v1/books/metadata') return { [ids.bookId!]: {} };
  return generate(op.body!, op.path.endsWith('/metadata') ? 'books' : '');
}

/** Fields the probe leaves alone: they move the server or the library, not a value. */
const UNTOUCHED_FIELDS = new Set(['serverPort', 'serverContextPath', 'koboPort', 'kepubifyPath', 'root', 'renewRememberMeKey']);
/** Where what a PATCH/PUT changed is shown, when it is not the nearest parent path. */
const READ_BACK: Record<string, string | null> = {
  '/api/v1/client-settings/global': '/api/v1/client-settings/global/list',
  '/api/v1/client-settings/user': '/api/v1/client-settings/user/list',
  '/api/v2/users/{id}': '/api/v2/users',
};
/** Fields whose value is the time of the request, not part of what was asked. */
const VOLATILE = new Set(['lastModified', 'lastModifiedDate', 'created', 'createdDate', 'timestamp', 'readDate', 'fileLastModified', 'lastActive', 'dateTime']);

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !VOLATILE.has(k)).map(([k, v]) => [k, stable(v)]));
}
function parsed(response: LightMyRequestResponse): unknown {
  if (!String(response.headers['content-type'] ?? '').includes('json')) return response.body;
  try {
    return stable(JSON.parse(response.body));
  } catch (error) {
    return `unparsable JSON (${(error as Error).message}): ${response.body.slice(0, 80)}`;
  }
}

interface Ask {
  method: string;
  url: string;
  /** Sent as JSON unless a string (sent byte for byte). */
  body?: unknown;
  /** Sent as given; null sends none. Default: application/json when there is a body. */
  contentType?: string | null;
}

/** `body` with new generated names and emails: a creation asked twice would otherwise be refused as a duplicate. */
function fresh(body: unknown): unknown {
  if (typeof body === 'string') return /^probe-\d+$/.test(body) ? `probe-${++unique}` : /^probe\d+@/.test(body) ? `probe${++unique}@example.org` : body;
  if (Array.isArray(body)) return body.map(fresh);
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fresh(v)]));
}

/** Sends one request and records a 5xx, or a 4xx without a message, as a failure. */
async function ask(request: Ask, label: string): Promise<LightMyRequestResponse> {
  counts.requests++;
  if (request.method === 'POST' && typeof request.body === 'object') request = { ...request, body: fresh(request.body) };
  const contentType = request.contentType === undefined ? (request.body === undefined ? undefined : 'application/json') : (request.contentType ?? undefined);
  const response = await c.send(request.method, request.url, { contentType, body: request.body });
  if (request.method !== 'GET') await c.server.app.folio.tasks.idle();
  const where = `${request.method} ${request.url} [${label}]`;
  if (response.statusCode >= 500) failures.push(`${where} → ${response.statusCode} ${response.body.slice(0, 200)}`);
  else if (response.statusCode >= 400) {
    const message = (parsed(response) as { message?: unknown } | undefined)?.message;
    if (typeof message !== 'string' || message === '') failures.push(`${where} → ${response.statusCode} without a message: ${response.body.slice(0, 120)}`);
  }
  return response;
}

interface Outcome {
  status: number;
  answer: unknown;
  state: unknown;
}

async function outcome(op: Operation, request: Ask, label: string, readBack: string | undefined): Promise<Outcome> {
  const response = await ask(request, label);
  const state = readBack ? parsed(await c.server.get(readBack)) : undefined;
  return { status: response.statusCode, answer: op.method === 'GET' ? parsed(response) : undefined, state };
}

/** Compares a variant's outcome with the canonical one's by what Komga does with the variant. */
function judge(where: string, expect: Expectation, variant: Outcome, canonical: Outcome, deterministic: boolean): void {
  counts.variants++;
  if (canonical.status < 300) counts.againstSuccess++;
  else refusedCanonically.add(process.env.PROBE_DEBUG ? `${where} ${canonical.status}` : where.split(' [')[0]!);
  const refused = variant.status >= 400 && variant.status < 500;
  if (expect === 'refused') {
    if (!refused) failures.push(`${where}: Komga refuses this (400), answered ${variant.status}`);
    return;
  }
  if (expect === 'lenient' && refused) return;
  if (variant.status !== canonical.status) {
    failures.push(`${where}: answered ${variant.status}, the canonical spelling ${canonical.status}`);
    return;
  }
  // A refusal is compared by its status: its body names the path asked, which differs.
  if (canonical.status >= 400) return;
  if (deterministic && !isDeepStrictEqual(variant.answer, canonical.answer)) failures.push(`${where}: another answer than the canonical spelling's`);
  else if (!isDeepStrictEqual(variant.state, canonical.state)) failures.push(`${where}: left another state than the canonical spelling`);
}

const withQuery = (url: string, query: string) => (query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url);

/** Real values for the list parameters that name things. */
function listValues(name: string, schema: Schema): [string, string] {
  const items = resolve(schema.items ?? {});
  if (items.enum) return [items.enum[0]!, items.enum[1] ?? items.enum[0]!];
  const named: Record<string, string | undefined> = { library_id: ids.libraryId, series_id: ids.seriesId, collection_id: ids.collections, readlist_id: ids.readlists };
  return [named[name] ?? 'a', 'zz'];
}

/** Query parameter spellings: [variant, canonical, expectation]. */
function queryVariants(op: Operation): [string, string, Expectation][] {
  const out: [string, string, Expectation][] = [['zzUnknown=1', '', 'same']];
  const names = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const p of op.parameters) {
    if (p.in !== 'query') continue;
    const { name, schema } = p;
    const s = resolve(schema);
    if (name === 'page' || name === 'size' || name === 'sort' || name === 'unpaged') continue;
    if (s.type === 'boolean') {
      for (const { text, means } of QUERY_BOOLEANS) out.push([`${name}=${text}`, `${name}=${means}`, 'same']);
      out.push([`${name}=`, '', 'same'], [`${name}=maybe`, '', 'refused']);
    } else if (s.type === 'integer') {
      out.push([`${name}=%202`, `${name}=2`, 'same'], [`${name}=+2`, `${name}=2`, 'same'], [`${name}=2.0`, `${name}=2`, 'lenient'], [`${name}=abc`, '', 'refused'], [`${name}=`, '', 'same']);
    } else if (s.type === 'array') {
      const [a, b] = listValues(name, s);
      const canonical = `${name}=${a}&${name}=${b}`;
      out.push([`${name}=${a},${b}`, canonical, 'same'], [`${name}=${a}%2C${b}`, canonical, 'same'], [`${name}[]=${a}&${name}[]=${b}`, canonical, 'same']);
      if (resolve(s.items ?? {}).enum) out.push([`${name}=${a.toLowerCase()}&${name}=${b.toLowerCase()}`, canonical, 'same'], [`${name}=NOPE`, '', 'refused']);
    } else if (s.enum) {
      out.push([`${name}=${s.enum[0]!.toLowerCase()}`, `${name}=${s.enum[0]}`, 'same']);
    } else if (s.format === 'date') {
      out.push([`${name}=2020-13-45`, '', 'refused']);
    }
  }
  // Spring's PageableHandlerMethodArgumentResolver: an unreadable or out-of-range number is its default.
  if (names.has('size')) {
    out.push(['size=01', 'size=1', 'same'], ['size=0', '', 'same'], ['size=-1', '', 'same'], ['size=abc', '', 'same'], ['size=', '', 'same'], ['size=5000', 'size=2000', 'same']);
  }
  if (names.has('page')) out.push(['page=-1', 'page=0', 'same'], ['page=abc', '', 'same'], ['page=1.5', '', 'same']);
  if (names.has('sort')) {
    out.push(['sort=name,DESC', 'sort=name,desc', 'same'], ['sort=name%2Cdesc', 'sort=name,desc', 'same'], ['sort=', '', 'same'], ['sort=name,desc&sort=', 'sort=name,desc', 'same']);
  }
  if (names.has('unpaged')) out.push(['unpaged=TRUE', 'unpaged=true', 'same'], ['unpaged=1', 'unpaged=true', 'same']);
  return out;
}

/** Typed fields of a body, one level of nested objects included: [path, schema]. */
function typedFields(schema: Schema, prefix: string[] = []): [string[], Schema][] {
  const out: [string[], Schema][] = [];
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    if (UNTOUCHED_FIELDS.has(name)) continue;
    const field = resolve(raw);
    if (field.properties && prefix.length === 0) out.push(...typedFields(field, [name]));
    else if (bodyFieldVariants(field)) out.push([[...prefix, name], field]);
  }
  return out;
}

/** `base` with the value at `path` set, the nested object's required fields filled in. */
function withField(base: unknown, schema: Schema, path: string[], value: unknown): unknown {
  const body = structuredClone(base) as Record<string, unknown>;
  if (path.length === 1) return { ...body, [path[0]!]: value };
  const parent = resolve(schema.properties![path[0]!]!);
  const nested = { ...(generate(parent, path[0]!) as object), ...(body[path[0]!] as object | undefined), [path[1]!]: value };
  return { ...body, [path[0]!]: nested };
}

async function probe(op: Operation): Promise<void> {
  counts.operations++;
  const url = pathFor(op);
  const readBack = op.method === 'PATCH' || op.method === 'PUT' ? (READ_BACK[op.path] === undefined ? readBackPath(op.path) : READ_BACK[op.path] ?? undefined) : undefined;
  const readBackUrl = readBack ? pathFor({ ...op, path: readBack }) : undefined;
  const body = op.body ? canonicalBody(op) : undefined;
  const baseline = await outcome(op, { method: op.method, url, body }, 'canonical', readBackUrl);
  // A second canonical call tells whether the answer can be compared at all (activity logs, times).
  const again = op.method === 'GET' ? await outcome(op, { method: op.method, url, body }, 'canonical again', readBackUrl) : baseline;
  const deterministic = isDeepStrictEqual(again.answer, baseline.answer);
  const where = (label: string) => `${op.method} ${op.path} [${label}]`;
  const compare = async (label: string, variant: Ask, canonical: Ask, expect: Expectation) => {
    const v = await outcome(op, variant, label, readBackUrl);
    const k = await outcome(op, canonical, `canonical for ${label}`, readBackUrl);
    judge(where(label), expect, v, k, deterministic);
  };

  if (op.method === 'DELETE') {
    // What a delete did cannot be compared with a second delete: only answers are checked.
    for (const contentType of ['application/json', 'text/plain', null]) await ask({ method: op.method, url, body: '', contentType }, `empty body, ${contentType}`);
    return;
  }

  // Content-Type on an empty body: Spring does not look at it where no body is read.
  if (!op.body && !op.multipart) {
    for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
      await compare(`empty body, ${contentType}`, { method: op.method, url, body: '', contentType }, { method: op.method, url }, 'same');
    }
  }
  if (op.body) {
    for (const contentType of ['application/json', 'text/plain', null]) await ask({ method: op.method, url, body: '', contentType }, `empty body, ${contentType ?? 'no Content-Type'}`);
    for (const odd of ['{}', '[]', 'null', '"x"', '{"a":']) await ask({ method: op.method, url, body: odd, contentType: 'application/json' }, `body ${odd}`);
    // FAIL_ON_UNKNOWN_PROPERTIES is off in Spring Boot: an unknown field is ignored.
    if (body && typeof body === 'object' && !Array.isArray(body) && op.body.properties) {
      await compare('unknown field', { method: op.method, url, body: { ...body, zzUnknown: [1, { a: null }] } }, { method: op.method, url, body }, 'same');
      // Explicit null for each optional field: kept or cleared, never a 5xx.
      for (const name of Object.keys(op.body.properties)) {
        if (!(op.body.required ?? []).includes(name) && !UNTOUCHED_FIELDS.has(name)) await ask({ method: op.method, url, body: { ...body, [name]: null } }, `${name}: null`);
      }
    }
  }

  // An Int path variable is converted by Spring's Integer.valueOf: a sign or leading zeros are the same number.
  for (const p of op.parameters) {
    if (p.in !== 'path' || resolve(p.schema).type !== 'integer') continue;
    const at = (text: string) => pathFor(op).replace(new RegExp(`/1(?=/|$)`), `/${text}`);
    for (const [text, expect] of [['01', 'same'], ['+1', 'same'], ['1.0', 'lenient'], ['one', 'refused']] as const) {
      await compare(`{${p.name}} = ${text}`, { method: op.method, url: at(encodeURIComponent(text)) }, { method: op.method, url }, expect);
    }
  }

  if (!op.multipart) {
    for (const [variant, canonical, expect] of queryVariants(op)) {
      await compare(`?${variant}`, { method: op.method, url: withQuery(url, variant), body }, { method: op.method, url: withQuery(url, canonical), body }, expect);
    }
  }

  if (op.body?.properties && body && typeof body === 'object') {
    // The first field of each type gets every spelling; the next ones a third each, in turn, so
    // that a DTO of 25 booleans is covered without asking 25 times the same (the runtime stays small).
    const seen = new Map<string, number>();
    for (const [path, field] of typedFields(op.body)) {
      const values = bodyFieldVariants(field)!;
      const kind = field.enum ? 'enum' : `${field.type}${field.format ?? ''}`;
      const nth = seen.get(kind) ?? 0;
      seen.set(kind, nth + 1);
      const chosen = nth === 0 ? values.variants : values.variants.filter((_, i) => i % 3 === nth % 3);
      const send = (value: unknown): Ask => ({ method: op.method, url, body: withField(body, op.body!, path, value) });
      for (const variant of chosen) {
        // From the first value, the variant and the canonical second value must end alike.
        await ask(send(values.first), `${path.join('.')} reset`);
        const v = await outcome(op, send(variant.value), `${path.join('.')} = ${variant.label}`, readBackUrl);
        await ask(send(values.first), `${path.join('.')} reset`);
        const means = variant.means ? variant.means.value : values.second;
        const k = await outcome(op, send(means), `${path.join('.')} = ${JSON.stringify(means)}`, readBackUrl);
        judge(where(`${path.join('.')} = ${variant.label}`), variant.expect, v, k, deterministic);
      }
      if (nth === 0 && path.length === 1) {
        // Komga's mapper matches property names whatever their case.
        const { [path[0]!]: _, ...others } = body as Record<string, unknown>;
        const shouted: Ask = { method: op.method, url, body: { ...others, [path[0]!.toUpperCase()]: values.second } };
        await ask(send(values.first), `${path[0]} reset`);
        const v = await outcome(op, shouted, `${path[0]!.toUpperCase()}`, readBackUrl);
        await ask(send(values.first), `${path[0]} reset`);
        const k = await outcome(op, send(values.second), `${path[0]} = ${JSON.stringify(values.second)}`, readBackUrl);
        judge(where(`property name ${path[0]!.toUpperCase()}`), 'same', v, k, deterministic);
      }
    }
  }
}

/** Operations that end the session or the probe's own footing. */
const SKIPPED = new Set(['POST /api/v1/claim', 'GET /api/logout', 'POST /api/logout']);

describe('search conditions in Jackson’s spellings', () => {
  it('reads a date condition with fractions and offsets as the same instant (Komga’s zoned date-time)', async () => {
    const books = async (dateTime: string) => {
      const response = await ask({ method: 'POST', url: '/api/v1/books/list?unpaged=true', body: { condition: { releaseDate: { operator: 'after', dateTime } } } }, `releaseDate after ${dateTime}`);
      return response.statusCode === 200 ? (response.json() as Page<BookDto>).content.map((b) => b.id).sort() : response.statusCode;
    };
    const dated = await c.send('PATCH', `/api/v1/books/${ids.bookId}/metadata`, { contentType: 'application/json', body: { releaseDate: '2000-01-01' } });
    expect(dated.statusCode, dated.body).toBe(204);
    const canonical = await books('1999-01-02T03:04:05Z');
    expect(canonical).not.toEqual([]);
    expect(await books('1999-01-02T03:04:05.000Z')).toEqual(canonical);
    expect(await books('1999-01-02T05:04:05+02:00')).toEqual(canonical);
    expect(failures).toEqual([]);
  });

  it('ignores empty condition groups and reads numbers and booleans sent as text', async () => {
    const list = async (url: string, body: unknown) => {
      const response = await ask({ method: 'POST', url: `${url}?unpaged=true&sort=name`, body }, JSON.stringify(body));
      expect(response.statusCode, `${url} ${JSON.stringify(body)}: ${response.body}`).toBe(200);
      return (response.json() as Page<{ id: string }>).content.map((item) => item.id);
    };
    for (const url of ['/api/v1/series/list', '/api/v1/books/list']) {
      const all = await list(url, {});
      expect(all.length).toBeGreaterThan(1);
      for (const empty of [{ allOf: [] }, { anyOf: [] }, { allOf: [{ anyOf: [] }] }, { anyOf: [{ allOf: [] }, { allOf: [] }] }]) {
        expect(await list(url, { condition: empty }), JSON.stringify(empty)).toEqual(all);
      }
      expect(await list(url, { fullTextSearch: null })).toEqual(all);
      expect(await list(url, { condition: null })).toEqual(all);
    }
    const numbered = (value: unknown) => list('/api/v1/books/list', { condition: { numberSort: { operator: 'greaterThan', value } } });
    expect(await numbered('1')).toEqual(await numbered(1));
    expect(await numbered('1.0')).toEqual(await numbered(1));
    expect(failures).toEqual([]);
  });
});

describe('every operation of the contract, in Jackson’s and Spring’s other spellings', () => {
  it('answers each with a success or a 4xx carrying a message, and the accepted spellings as their canonical ones', { timeout: 120_000 }, async () => {
    const start = performance.now();
    const ordered = operations
      .filter((op) => !SKIPPED.has(`${op.method} ${op.path}`))
      // Deletes last, the library's very last, so everything else is asked about things that exist.
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE') || Number(a.path === '/api/v1/libraries/{libraryId}') - Number(b.path === '/api/v1/libraries/{libraryId}'));
    const slowest: [number, string][] = [];
    for (const op of ordered) {
      const started = performance.now();
      await probe(op);
      slowest.push([performance.now() - started, `${op.method} ${op.path}`]);
    }
    if (process.env.PROBE_DEBUG) console.log(slowest.sort((a, b) => b[0] - a[0]).slice(0, 12).map(([ms, op]) => `${Math.round(ms)} ms ${op}`).join('\n'));
    console.log(`probe: ${counts.operations} operations, ${counts.variants} judged variants (${counts.againstSuccess} against a successful canonical request), ${counts.requests} requests, ${Math.round(performance.now() - start)} ms`);
    console.log(`canonical request refused at least once: ${[...refusedCanonically].join(', ')}`);
    expect(counts.operations).toBeGreaterThan(170);
    expect(failures).toEqual([]);
  });
});

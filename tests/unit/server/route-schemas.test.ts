import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.ts';

/**
 * Every route declares, as a schema, each part of the request it reads: its path parameters, the
 * query when its handler reads `request.query`, the body when it reads `request.body` (multipart
 * uploads read files from the stream instead). Handlers get their types from these schemas, so
 * route modules never cast the request's parts.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ claim: false });
  await server.app.ready();
});
afterAll(async () => {
  await server.close();
});

type Schema = { properties?: Record<string, unknown>; patternProperties?: Record<string, unknown> } | undefined;
const declares = (schema: Schema, name: string) => !!schema && (name in (schema.properties ?? {}) || !!schema.patternProperties);

describe('request schemas', () => {
  it('every route with path parameters declares each of them', () => {
    const missing: string[] = [];
    for (const route of server.app.routeTable) {
      const names = [...route.url.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
      if (route.url.endsWith('*')) names.push('*');
      const params = (route.schema as { params?: Schema } | undefined)?.params;
      for (const name of names) if (!declares(params, name)) missing.push(`${route.method} ${route.url} :${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('every handler that reads the query or the body has a schema for it', () => {
    const missing: string[] = [];
    for (const route of server.app.routeTable) {
      const source = route.handler.toString();
      const schema = (route.schema ?? {}) as { querystring?: unknown; body?: unknown };
      if (/request\.query\b/.test(source) && !schema.querystring) missing.push(`${route.method} ${route.url} query`);
      if (/request\.body\b/.test(source) && !schema.body) missing.push(`${route.method} ${route.url} body`);
    }
    expect(missing).toEqual([]);
  });

  it('route modules never cast the request’s parts nor type them by hand', () => {
    const dir = join(import.meta.dirname, '../../../server/http/routes');
    const casts = readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        readFileSync(join(dir, file), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
          .filter(({ line }) => /request\.(query|body|params)\s+as\b/.test(line) || /\b(app|scope)\.(get|post|put|patch|delete|route)</.test(line)),
      )
      .map(({ where, line }) => `${where} ${line.trim()}`);
    expect(casts).toEqual([]);
  });

  it('covers the whole app', () => {
    expect(server.app.routeTable.length).toBeGreaterThan(150);
  });
});

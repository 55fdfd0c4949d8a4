import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_MEMBERS } from '../../../server/http/content-types.ts';
import { basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * A signed-in reader's 8 MB JSON object of 700,000 distinct keys held the server's one thread 5-8 s
 * (JSON.parse's cost grows faster than the keys it meets, then every key was looked at again) on
 * any route, a 404 included, and could be sent again and again. Such a body is now refused before
 * it is parsed, as one nested too deep already was.
 */
let server: TestServer;
let reader: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  await insertUser(server, 'reader@example.org', 'pw', []);
  reader = { authorization: basic('reader@example.org', 'pw'), 'content-type': 'application/json' };
});
afterAll(async () => {
  await server.close();
});

const keys = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',')}}`;
const post = (url: string, payload: string) => server.app.inject({ method: 'POST', url, headers: reader, payload });

describe('a JSON body of too many members', () => {
  it('is refused before it is parsed, on any route, in objects nested or side by side', async () => {
    const wide = keys(MAX_JSON_MEMBERS + 1);
    const spread = `[${Array.from({ length: 10 }, (_, j) => `{${Array.from({ length: MAX_JSON_MEMBERS / 10 + 1 }, (_, i) => `"k${j}_${i}":1`).join(',')}}`).join(',')}]`;
    for (const [url, payload] of [['/api/v1/series/list', wide], ['/api/v1/books/nothing/read-progress', wide], ['/api/v1/series/list', spread]] as const) {
      const response = await post(url, payload);
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(400);
      expect(response.json().message).toContain(`more than ${MAX_JSON_MEMBERS} members`);
    }
  });

  it('is read as before up to the bound; colons inside strings are text', async () => {
    const atBound = await post('/api/v1/series/list', keys(MAX_JSON_MEMBERS - 1).replace('{', '{"fullTextSearch":"a",'));
    expect(atBound.statusCode, atBound.body.slice(0, 200)).toBe(200);
    const colons = await post('/api/v1/series/list', JSON.stringify({ fullTextSearch: 'a', note: ':'.repeat(MAX_JSON_MEMBERS * 2) }));
    expect(colons.statusCode).toBe(200);
  });
});

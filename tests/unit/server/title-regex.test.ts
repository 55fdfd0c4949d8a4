import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, SeriesDto } from '../../../src/api/types.ts';
import { MAX_VARIABLE, unsafeTitleRegex } from '../../../server/db/search/title-regex.ts';
import { MAX_TITLE_PATTERNS } from '../../../server/db/search/simplify.ts';
import { RED, createCbz } from '../../fixtures/index.ts';
import { send } from './accounts-helpers.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer } from './helpers.ts';

/**
 * Title regular expressions run in V8's backtracking engine on the server's one JavaScript thread:
 * `^(\w+\s?)+$` against a 40-letter title ending in "!" took hours, freezing every request, and any
 * signed-in user could send it (search_regex, or a titleRegex condition of POST /series/list).
 */
let server: TestServer;
let user: Record<string, string>;
// 24 letters and a "!": about half a second for the pattern below before the fix; 40 letters: hours.
const TITLE = `${'A'.repeat(24)}!`;
const EXPONENTIAL = '^(\\w+\\s?)+$';

beforeAll(async () => {
  server = await startServer();
  await insertUser(server, 'reader@example.org', 'pw', []);
  user = { authorization: basic('reader@example.org', 'pw') };
  const page = { width: 10, height: 10, color: RED, format: 'png' as const };
  await createCbz(join(server.dir, 'lib', 'Long', 'l1.cbz'), [page], { comicInfo: { series: TITLE } });
  await createCbz(join(server.dir, 'lib', 'Spider', 's1.cbz'), [page], { comicInfo: { series: 'The Spider-Man' } });
  await addLibrary(server, join(server.dir, 'lib'));
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('title regular expressions', () => {
  it('whose backtracking is not bounded are refused with a 400 naming the reason, by both routes', async () => {
    const legacy = await server.get(`/api/v1/series?search_regex=${encodeURIComponent(`${EXPONENTIAL},TITLE`)}`, user);
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json().message).toMatch(/repeated group/);
    const list = await send(server, 'POST', '/api/v1/series/list', user, { condition: { titleRegex: { operator: 'is', value: EXPONENTIAL } } });
    expect(list.statusCode).toBe(400);
    const many = await send(server, 'POST', '/api/v1/series/list', user, { condition: { titleSortRegex: { operator: 'is', value: '.*.*.*!' } } });
    expect(many.statusCode).toBe(400);
  });

  it('are read as V8 reads them, so no repetition hides from the check', async () => {
    // Without the u flag `[]` is an empty class (the `]` after it is a literal), and `\p{` / `\u{`
    // are a plain letter and a brace: each hid `(?:.+)+` from the check, and the search held the
    // server for about a second on this 25-character title (hours on a 40-character one).
    for (const hidden of ['[]|(?:.+)+#]', '\\p{(?:.+)+#}', '(?:\\u{1,30})+#']) {
      const legacy = await server.get(`/api/v1/series?search_regex=${encodeURIComponent(`${hidden},TITLE`)}`, user);
      expect(legacy.statusCode, hidden).toBe(400);
      const list = await send(server, 'POST', '/api/v1/series/list', user, { condition: { titleRegex: { operator: 'is', value: hidden } } });
      expect(list.statusCode, hidden).toBe(400);
    }
  });

  it('are few per search: each is a JavaScript call for every series, so hundreds of them froze the server for seconds', async () => {
    const patterns = (n: number) => ({ condition: { anyOf: Array.from({ length: n }, (_, i) => ({ [i % 2 ? 'titleRegex' : 'TITLESORTREGEX']: { operator: 'is', value: `^z${i}` } })) } });
    // Before: 900 patterns on 2,000 series held the server's one JavaScript thread for 8 s, then answered 200.
    // (Fewer than a condition's part limit, so the pattern limit is what refuses them.)
    const many = await send(server, 'POST', '/api/v1/series/list', user, patterns(50));
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toContain(`at most ${MAX_TITLE_PATTERNS} title patterns`);
    expect((await send(server, 'POST', '/api/v1/series/list', user, patterns(MAX_TITLE_PATTERNS))).statusCode).toBe(200);
  });

  it('that clients send still match', async () => {
    const titles = async (regex: string) =>
      (await server.json<Page<SeriesDto>>(`/api/v1/series?search_regex=${encodeURIComponent(regex)}`, user)).content.map((s) => s.metadata.title);
    expect(await titles('^t,TITLE_SORT')).toEqual(['The Spider-Man']);
    expect(await titles('^[^a-z],TITLE')).toEqual([]);
    expect(await titles('^(the )?spider-\\w+$,TITLE')).toEqual(['The Spider-Man']);
    expect(await titles('^a{24}!$,TITLE')).toEqual([TITLE]);
  });

  it('are judged by their shape: no repeated group that repeats or branches, few variable repetitions', () => {
    for (const safe of ['^a', '^[^a-z]', '^(?:the )?a', '^[a-z]+(?:man)?$', '(ab){3}', '[(+*]+x', '\\p{L}+\\d*', '\\(+\\)']) {
      expect(unsafeTitleRegex(safe), safe).toBeNull();
    }
    for (const unsafe of ['(a+)+', '[]|(a+)+]', '\\p{(a+)+}', '(?:\\u{1,9})+', '(a|ab)*c', '(?:a|b){2,}', '(a?){5}b', 'a*'.repeat(MAX_VARIABLE + 1), '(a)\\1', '(?=a)a', 'x'.repeat(201)]) {
      expect(unsafeTitleRegex(unsafe), unsafe).not.toBeNull();
    }
  });
});

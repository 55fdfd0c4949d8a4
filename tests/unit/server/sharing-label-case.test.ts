import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RED, createCbz } from '../../fixtures/index.ts';
import { addLibrary, basic, startServer, type TestServer } from './helpers.ts';
import { send } from './accounts-helpers.ts';

/**
 * Sharing labels compare without regard to case (README "Security"), in every alphabet: the user's
 * labels were lower-cased by JavaScript (Unicode) but the series' labels by SQLite's lower(), which
 * folds A–Z only, so a label such as "Érotique" or "ВЗРОСЛЫЕ" set on a series never matched the
 * same label in a user's exclusions and the series stayed visible. Likewise a label written with
 * combining accents against the same label with precomposed ones.
 */
let server: TestServer;
const ids: Record<string, string> = {};
const page = { width: 20, height: 30, color: RED, format: 'png' as const };

beforeAll(async () => {
  server = await startServer();
  const root = join(server.dir, 'lib');
  for (const name of ['Plain', 'Erotic', 'Adult', 'Decomposed']) await createCbz(join(root, name, `${name} 01.cbz`), [page]);
  await addLibrary(server, root);
  const series = await server.json<{ content: { id: string; name: string }[] }>('/api/v1/series?unpaged=true');
  for (const s of series.content) ids[s.name] = s.id;
  // 'Réservé' typed where accents come as a letter and a combining mark (macOS file names, some keyboards).
  for (const [name, labels] of [['Erotic', ['Érotique']], ['Adult', ['ВЗРОСЛЫЕ']], ['Decomposed', ['Re\u0301serve\u0301']]] as const) {
    const r = await send(server, 'PATCH', `/api/v1/series/${ids[name]}/metadata`, server.admin, { sharingLabels: labels });
    expect(r.statusCode, r.body).toBe(204);
  }
  for (const [email, body] of [
    ['exclude@x.org', { labelsExclude: ['érotique', 'Взрослые', 'R\u00e9serv\u00e9'] }],
    ['allow@x.org', { labelsAllow: ['ÉROTIQUE'] }],
  ] as const) {
    const r = await send(server, 'POST', '/api/v2/users', server.admin, { email, password: 'pw', roles: ['PAGE_STREAMING'], ...body });
    expect(r.statusCode, r.body).toBe(201);
  }
}, 60_000);

afterAll(async () => {
  await server.close();
});

const visibleTo = async (email: string) => {
  const headers = { authorization: basic(email, 'pw') };
  const list = await server.json<{ content: { name: string }[] }>('/api/v1/series?unpaged=true', headers);
  const items: string[] = [];
  for (const name of Object.keys(ids)) if ((await server.get(`/api/v1/series/${ids[name]}`, headers)).statusCode === 200) items.push(name);
  return { listed: list.content.map((s) => s.name).sort(), items: items.sort() };
};

it('an excluded label hides its series whatever the case, in any alphabet', async () => {
  expect(await visibleTo('exclude@x.org')).toEqual({ listed: ['Plain'], items: ['Plain'] });
});

it('an allowed label shows its series whatever the case, in any alphabet', async () => {
  expect(await visibleTo('allow@x.org')).toEqual({ listed: ['Erotic'], items: ['Erotic'] });
});

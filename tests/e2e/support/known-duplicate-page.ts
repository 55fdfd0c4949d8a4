import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page as ApiPage } from '../../../src/api/types.ts';
import { BLUE, GREEN, RED, WHITE, YELLOW, createCbz, type PageSpec, type Rgb } from '../../fixtures/comics.ts';
import { claimAndLogIn } from './api.ts';
import { startFolio, type RunningFolio } from './folio-server.ts';

export interface KnownDuplicatePage {
  readonly folio: RunningFolio;
  /** The library folder: Saga/Saga 01.cbz and Saga/Saga 02.cbz. */
  readonly root: string;
  /** The known page's hash. */
  readonly hash: string;
  /** A GET of the API as the admin, apart from the page under test. */
  json<T>(url: string): Promise<T>;
}

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const page = (color: Rgb): PageSpec => ({ width: 120, height: 180, color, format: 'png' });

/**
 * The set-up the duplicate-pages specs share, registered as the spec's hooks: a server with a
 * library of two books that end on the same white "scanner credit" page, hashed, and that page
 * made a known duplicate to delete by hand (DELETE_MANUAL). Call it at the top level of a spec.
 */
export function useKnownDuplicatePage(name: string): KnownDuplicatePage {
  let folio: RunningFolio | undefined;
  let root: string | undefined;
  let api: APIRequestContext | undefined;
  let hash = '';
  const json = async <T>(url: string): Promise<T> => {
    const response = await api!.get(`${folio!.url}${url}`, { headers: XHR });
    if (!response.ok()) throw new Error(`GET ${url}: ${response.status()}`);
    return (await response.json()) as T;
  };

  test.beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), `folio-e2e-${name}-`));
    await createCbz(path.join(root, 'Saga', 'Saga 01.cbz'), [page(RED), page(GREEN), page(WHITE)]);
    await createCbz(path.join(root, 'Saga', 'Saga 02.cbz'), [page(BLUE), page(YELLOW), page(WHITE)]);
    folio = await startFolio();
    api = await playwrightRequest.newContext();
    await claimAndLogIn(api, folio.url);
    const created = await api.post(`${folio.url}/api/v1/libraries`, { data: { name: 'Comics', root, hashPages: true }, headers: XHR });
    expect(created.ok()).toBe(true);
    // Pages are hashed after analysis: wait for the shared white page to be seen in both books.
    type Unknown = ApiPage<{ hash: string; matchCount: number; size: number }>;
    const shared = async () => (await json<Unknown>('/api/v1/page-hashes/unknown?size=50')).content.find((h) => h.matchCount === 2);
    await expect.poll(shared, { timeout: 60_000 }).toBeTruthy();
    const white = (await shared())!;
    hash = white.hash;
    const put = await api.put(`${folio.url}/api/v1/page-hashes`, { data: { hash, size: white.size, action: 'DELETE_MANUAL' }, headers: XHR });
    expect(put.ok()).toBe(true);
  });

  test.afterAll(async () => {
    await api?.dispose();
    await folio?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  return {
    get folio() {
      if (!folio) throw new Error('The server is not set up yet (beforeAll has not run)');
      return folio;
    },
    get root() {
      if (!root) throw new Error('The library is not set up yet (beforeAll has not run)');
      return root;
    },
    get hash() {
      return hash;
    },
    json,
  };
}

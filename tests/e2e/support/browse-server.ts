import { request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LibraryDto } from '../../../src/api/types.ts';
import { ADMIN, addLibraryAndWait, claimAndLogIn, logIn } from './api.ts';
import { FEATURED, folioApi, writeBrowseLibrary, type BrowseSeriesSpec } from './browse-library.ts';
import { startFolio, type RunningFolio } from './folio-server.ts';

export interface BrowseServer {
  readonly folio: RunningFolio;
  readonly root: string;
  readonly library: LibraryDto;
  /** An API client logged in as the admin, apart from the page under test. */
  api(): ReturnType<typeof folioApi>;
}

/**
 * The set-up most browse specs share, registered as the spec's hooks: one server and one generated
 * library for the whole file (claimed and scanned through the API), and every test's page logged in
 * as the admin through the API (unless `logInAdminEachTest` is false: a spec that logs in as
 * several users does it itself). Call it at the top level of a spec, before the spec's own hooks,
 * which then run after the server is up.
 */
export function useBrowseServer(name: string, series: readonly BrowseSeriesSpec[] = FEATURED, options: { logInAdminEachTest?: boolean } = {}): BrowseServer {
  let folio: RunningFolio | undefined;
  let root: string | undefined;
  let library: LibraryDto | undefined;
  let setup: APIRequestContext | undefined;

  test.beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), `folio-e2e-${name}-`));
    await writeBrowseLibrary(root, series);
    folio = await startFolio();
    setup = await playwrightRequest.newContext();
    await claimAndLogIn(setup, folio.url);
    library = await addLibraryAndWait(setup, folio.url, root);
    await folioApi(setup, folio.url).waitForTitles(series.map((s) => s.info?.series ?? s.folder));
  });

  test.afterAll(async () => {
    // Disposing writes this context's trace; a concurrent Playwright run sharing test-results/ may
    // have removed its folder, which says nothing about Folio.
    await setup?.dispose().catch((error: unknown) => console.warn(`setup context: ${String(error)}`));
    await folio?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  if (options.logInAdminEachTest !== false) {
    test.beforeEach(async ({ page }) => {
      await logIn(page.context().request, required(folio, 'server').url, ADMIN);
    });
  }

  return {
    get folio() {
      return required(folio, 'server');
    },
    get root() {
      return required(root, 'library folder');
    },
    get library() {
      return required(library, 'library');
    },
    api: () => folioApi(required(setup, 'API context'), required(folio, 'server').url),
  };
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`The ${what} is not set up yet (beforeAll has not run)`);
  return value;
}

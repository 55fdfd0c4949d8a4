import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { claimSession, spawnServer } from '../../unit/server/support/spawned-server.ts';
import { SERVER_URL_VARIABLE } from './folio-proxy.ts';
import { ADMIN, LIBRARY_ROOT_VARIABLE, SESSION_VARIABLE } from './folio-commands.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The administrator the browser tests log in as (the run claimed the server with it). */
    folioAdmin: { email: string; password: string };
  }
}

/**
 * One real Folio server for the whole browser run: `node server/main.ts` on a free port with a
 * SQLite file in a fresh temporary directory, claimed by the administrator. The page reaches it
 * through its own origin (folio-proxy.ts); tests add what they need through the REST API or the
 * seedLibrary command (folio-commands.ts), each under names of its own, since files run side by side.
 */
const OAUTH2_PROVIDER = {
  registrationId: 'fake',
  name: 'Fake ID',
  clientId: 'folio-browser-tests',
  oidc: false,
  authorizationUri: 'http://127.0.0.1:9/authorize',
  tokenUri: 'http://127.0.0.1:9/token',
  userInfoUri: 'http://127.0.0.1:9/user',
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const base = await mkdtemp(join(tmpdir(), 'folio-browser-tests-'));
  // One plain OAuth2 login provider, so the login screen has one to offer (nobody follows it).
  await mkdir(join(base, 'data'), { recursive: true });
  await writeFile(join(base, 'data', 'oauth2-providers.json'), JSON.stringify([OAUTH2_PROVIDER]));
  const server = await spawnServer(join(base, 'data'));
  process.env[SERVER_URL_VARIABLE] = server.url;
  process.env[SESSION_VARIABLE] = await claimSession(server.url, ADMIN.email, ADMIN.password);
  process.env[LIBRARY_ROOT_VARIABLE] = join(base, 'libraries');
  project.provide('folioAdmin', ADMIN);
  return async () => {
    await server.stop();
    delete process.env[SERVER_URL_VARIABLE];
    await rm(base, { recursive: true, force: true });
  };
}

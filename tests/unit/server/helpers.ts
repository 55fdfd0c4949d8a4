import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { LogLevel, TrustProxy } from '../../../server/config.ts';
import { buildApp } from '../../../server/http/app.ts';
import { logFilePath } from '../../../server/logging.ts';
import { pollUntil } from '../../support/poll.ts';
import type { ArchivePoolOptions } from '../../../server/media/archive-pool.ts';
import { newId } from '../../../server/db/ids.ts';
import { hashPassword } from '../../../server/http/auth/passwords.ts';
import type { LibraryDto } from '../../../src/api/types.ts';

export const ADMIN_EMAIL = 'admin@example.org';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

export interface TestServer {
  app: FastifyInstance;
  dir: string;
  dataDir: string;
  /** Headers authenticating as the claimed admin (Basic). */
  admin: Record<string, string>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  json<T>(url: string, headers?: Record<string, string>): Promise<T>;
  close(): Promise<void>;
}

/** A real server on a fresh temp data dir (real SQLite file), optionally claimed by an admin. */
export async function startServer(options: { claim?: boolean; clientDir?: string; dir?: string; logLevel?: LogLevel; logStdout?: boolean; trustProxy?: TrustProxy; basePath?: string; archivePool?: ArchivePoolOptions; authActivityRetention?: { days: number; maxRows: number }; connectionsPerAddress?: { max?: number; exemptLoopback?: boolean }; sseHeartbeatMs?: number } = {}): Promise<TestServer> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'folio-test-')));
  const dataDir = join(dir, 'data');
  const app = await buildApp({
    dataDir,
    clientDir: options.clientDir ?? join(dir, 'no-client'),
    logLevel: options.logLevel ?? 'error',
    logStdout: options.logStdout,
    trustProxy: options.trustProxy,
    basePath: options.basePath,
    archivePool: options.archivePool,
    authActivityRetention: options.authActivityRetention,
    connectionsPerAddress: options.connectionsPerAddress,
    sseHeartbeatMs: options.sseHeartbeatMs,
  });
  const admin = { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD) };
  if (options.claim !== false) {
    const response = await app.inject({
      method: 'POST',
      url: `${options.basePath ?? ''}/api/v1/claim`,
      headers: { 'x-komga-email': ADMIN_EMAIL, 'x-komga-password': ADMIN_PASSWORD },
    });
    if (response.statusCode !== 200) throw new Error(`claim failed: ${response.body}`);
  }
  const get = (url: string, headers: Record<string, string> = admin) => app.inject({ method: 'GET', url, headers });
  return {
    app,
    dir,
    dataDir,
    admin,
    get,
    async json<T>(url: string, headers: Record<string, string> = admin): Promise<T> {
      const response = await get(url, headers);
      if (response.statusCode !== 200) throw new Error(`GET ${url} → ${response.statusCode}: ${response.body}`);
      return response.json() as T;
    },
    async close() {
      await app.close();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a library (which scans it) and waits for the scan and every analysis to finish. */
export async function addLibrary(server: TestServer, root: string, name?: string): Promise<LibraryDto> {
  // Library names are unique (as in Komga): without a name asked for, the first free 'Comics', 'Comics 2', …
  if (name === undefined) {
    const taken = new Set(server.app.folio.repos.libraries.findAll().map((l) => l.name));
    name = 'Comics';
    for (let n = 2; taken.has(name); n++) name = `Comics ${n}`;
  }
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/v1/libraries',
    headers: server.admin,
    payload: { name, root },
  });
  if (response.statusCode !== 200) throw new Error(`library creation failed: ${response.body}`);
  await server.app.folio.tasks.idle();
  return response.json() as LibraryDto;
}

export async function rescan(server: TestServer, libraryId: string): Promise<void> {
  const response = await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${libraryId}/scan`, headers: server.admin });
  if (response.statusCode !== 202) throw new Error(`scan failed: ${response.statusCode}`);
  await server.app.folio.tasks.idle();
}

/**
 * Inserts a user straight into the database (there is no user-admin API yet). `password` may be a
 * hash made earlier, for tests that need many accounts with one password without hashing it each time.
 */
export async function insertUser(server: TestServer, email: string, password: string | { hash: string }, roles: string[]): Promise<string> {
  const now = Date.now();
  const id = newId(now);
  server.app.folio.repos.users.insert({
    id,
    email,
    passwordHash: typeof password === 'string' ? await hashPassword(password) : password.hash,
    roles,
    sharedAllLibraries: true,
    sharedLibraryIds: [],
    labelsAllow: [],
    labelsExclude: [],
    ageRestriction: null,
    ageRestrictionType: null,
    created: now,
    lastModified: now,
  });
  return id;
}

/** A multipart/form-data body with one file part named "file", as poster uploads send it. */
export function multipartFile(file: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----folio-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="poster.png"\r\nContent-Type: image/png\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * The lines of the server's log file logged so far. The file is written asynchronously, each write
 * after the one before, so a line logged a moment ago is often not in it yet (read at once after a
 * burst of six lines, the last was missing 20 times in 20): a test counting lines could see none,
 * or too few. A marker is logged at the server's own level and the file read until it shows; the
 * stream keeps order, so every line logged before the call is in what this returns.
 */
export async function loggedLines(server: TestServer): Promise<string[]> {
  const { logger } = server.app.folio;
  if (logger.level === 'silent') throw new Error('loggedLines: the server logs nothing at level silent');
  const marker = `test: the log read up to here ${randomUUID()}`;
  logger[logger.level as 'warn'](marker);
  return pollUntil(`the log file to hold "${marker}"`, async () => {
    const lines = (await readFile(logFilePath(server.dataDir), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    })).split('\n');
    const at = lines.findIndex((line) => line.includes(marker));
    return at >= 0 ? lines.slice(0, at) : undefined;
  }, { intervalMs: 10 });
}

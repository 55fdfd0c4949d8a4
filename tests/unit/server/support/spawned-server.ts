import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pollUntil } from '../../../support/poll.ts';
import { SERVER_START_LIMIT_MS } from '../../../support/server-start.ts';

/**
 * The real server as its own process (`node server/main.ts`), optionally under a descriptor limit
 * (`prlimit --nofile=N`), so tests can watch what in-process tests cannot: the process dying, its
 * open descriptors and its resident memory.
 */
export interface SpawnedServer {
  url: string;
  pid: number;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Null while it runs; the exit code or signal once it died. */
  exited(): string | null;
  /** Descriptors the process holds right now (Linux /proc). */
  openDescriptors(): Promise<number>;
  /** Resident set size in bytes right now, and the high-water mark (Linux /proc). */
  memory(): Promise<{ rss: number; peak: number }>;
  stop(): Promise<void>;
}

const repoRoot = resolve(import.meta.dirname, '../../../..');

/**
 * `as`: run the server as another user (tests run by root need one that file permissions apply to:
 * root reads any folder whatever its mode).
 */
export function spawnServer(dataDir: string, options: { nofile?: number; env?: Record<string, string>; as?: { uid: number; gid: number } } = {}): Promise<SpawnedServer> {
  const serverArgs = ['server/main.ts', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--client-dir', 'no-client'];
  const [command, args] = options.nofile
    ? ['prlimit', [`--nofile=${options.nofile}:${options.nofile}`, process.execPath, ...serverArgs]]
    : [process.execPath, serverArgs];
  const child: ChildProcess = spawn(command as string, args as string[], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', ...options.env },
    ...(options.as ? { uid: options.as.uid, gid: options.as.gid } : {}),
  });
  let stdout = '';
  let stderr = '';
  let exit: string | null = null;
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      // A server that never listened must not outlive the test that gave up on it.
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${stdout}\n${stderr}`));
    }, SERVER_START_LIMIT_MS);
    child.once('exit', (code, signal) => {
      exit = String(code ?? signal);
      clearTimeout(timer);
      reject(new Error(`server exited with ${exit}:\n${stdout}\n${stderr}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Folio listening on (http:\/\/\S+)/.exec(stdout);
      if (!match?.[1] || child.pid === undefined) return;
      clearTimeout(timer);
      const pid = child.pid;
      resolvePromise({
        url: match[1],
        pid,
        stderr: () => stderr,
        exited: () => exit,
        openDescriptors: async () => (await readdir(`/proc/${pid}/fd`)).length,
        memory: async () => {
          const status = await readFile(`/proc/${pid}/status`, 'utf8');
          const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
          return { rss: kb('VmRSS'), peak: kb('VmHWM') };
        },
        stop: () =>
          new Promise<void>((done) => {
            if (exit !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** Claims the server and returns a session cookie for the admin. */
export async function claimSession(url: string, email = 'admin@example.org', password = 'correct horse battery staple'): Promise<string> {
  const claim = await fetch(`${url}/api/v1/claim`, { method: 'POST', headers: { 'X-Komga-Email': email, 'X-Komga-Password': password } });
  if (!claim.ok) throw new Error(`claim failed: ${claim.status}`);
  const login = await fetch(`${url}/api/v2/users/me`, {
    headers: { Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` },
  });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}

/** JSON from the API with the session cookie; throws on a non-2xx answer. */
export async function apiCall<T>(url: string, cookie: string, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { cookie, 'content-type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', ...(init.headers ?? {}) },
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Adds a library and waits (at most `timeoutMs`) until the server reports `expected` books with a
 * final media status, following the count the API reports rather than sleeping a fixed time.
 */
export async function addLibraryAndWait(url: string, cookie: string, root: string, expected: number, timeoutMs = 60_000): Promise<string> {
  const library = await apiCall<{ id: string }>(url, cookie, '/api/v1/libraries', { method: 'POST', body: JSON.stringify({ name: 'Load', root }) });
  const analysed = `/api/v1/books?library_id=${library.id}&media_status=READY&media_status=ERROR&media_status=UNSUPPORTED&size=1`;
  await pollUntil(
    `${expected} books analysed`,
    async () => (await apiCall<{ totalElements: number }>(url, cookie, analysed)).totalElements >= expected,
    { timeoutMs, intervalMs: 200 },
  );
  return library.id;
}

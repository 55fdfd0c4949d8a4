import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, readlink, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { logFilePath } from '../../../server/logging.ts';
import { pollUntil } from '../../support/poll.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, basic } from './helpers.ts';

let dir: string;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Starts `node server/main.ts` and resolves with its address once it listens. */
function startMain(dataDir: string): Promise<string> {
  child = spawn(process.execPath, [resolve('server/main.ts'), '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--client-dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = child;
  return new Promise((resolveUrl, reject) => {
    let output = '';
    started.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Folio listening on (http:\/\/\S+)/.exec(output);
      if (match) resolveUrl(match[1]!);
    });
    started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

/**
 * How far the process has read into `file` through the descriptor that got furthest, or undefined
 * while it does not have it open. Several may be open on it: the main thread keeps the file it
 * checked open while the hash worker reads it through a descriptor of its own.
 */
async function readOffset(pid: number, file: string): Promise<number | undefined> {
  let furthest: number | undefined;
  for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [] as string[])) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    if (target !== file) continue;
    const info = await readFile(`/proc/${pid}/fdinfo/${fd}`, 'utf8').catch(() => '');
    furthest = Math.max(furthest ?? 0, Number(/^pos:\s*(\d+)/m.exec(info)?.[1] ?? 0));
  }
  return furthest;
}

describe('stopping the server', () => {
  // Hashing a book of tens of gigabytes takes minutes; SIGTERM must not wait for it (Docker kills
  // after 10 s, and a restart should not take minutes), and the hash must be done after restart.
  it.runIf(existsSync('/proc/self/fdinfo'))('stops within seconds while a long task runs; the task stays stored for the next start', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-shutdown-'));
    const dataDir = join(dir, 'data');
    const root = join(dir, 'library');
    await mkdir(join(root, 'Huge'), { recursive: true });
    // A sparse file: 64 GiB to read, no disk used. Not a zip, so analysis fails at once and its hash follows.
    const huge = join(root, 'Huge', 'huge.cbz');
    await writeFile(huge, '');
    await truncate(huge, 64 * 1024 ** 3);

    const url = await startMain(dataDir);
    const headers = { 'x-komga-email': ADMIN_EMAIL, 'x-komga-password': ADMIN_PASSWORD };
    expect((await fetch(`${url}/api/v1/claim`, { method: 'POST', headers })).status).toBe(200);
    const created = await fetch(`${url}/api/v1/libraries`, {
      method: 'POST',
      headers: { authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Huge', root }),
    });
    expect(created.status).toBe(200);

    // Wait until the hash has read past its first megabytes: the task is running.
    const pid = child!.pid!;
    await pollUntil('the hash of the huge book to read past 64 MiB', async () => ((await readOffset(pid, huge)) ?? 0) >= 64 * 1024 ** 2, {
      timeoutMs: 60_000,
      intervalMs: 100,
    });

    const stopping = Date.now();
    const exited = new Promise<number | null>((done) => child!.once('exit', done));
    child!.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([exited, new Promise<string>((r) => (timer = setTimeout(() => r('still running after 15 s'), 15_000)))]);
    clearTimeout(timer);
    expect(outcome).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(15_000);

    // The database was closed (WAL checkpointed into the file), is sound, and still holds the hash task.
    expect(existsSync(join(dataDir, 'folio.sqlite-wal'))).toBe(false);
    const db = new Database(join(dataDir, 'folio.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare("SELECT type FROM task WHERE type = 'HashBook'").all()).toHaveLength(1);
    } finally {
      db.close();
    }
    const log = (await readFile(logFilePath(dataDir), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { msg: string; tasks?: string[] });
    expect(log.find((l) => l.msg.startsWith('stopped without waiting for running tasks'))?.tasks).toEqual([expect.stringMatching(/^HashBook:/)]);
  }, 120_000);
});

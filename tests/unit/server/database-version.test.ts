import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaTooNewError } from '../../../server/db/migrate.ts';
import { buildApp } from '../../../server/http/app.ts';

let dir: string;
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs `node server/main.ts` on a data directory it must refuse, and gives its exit code and
 * stderr. Serving is the failure: a child that starts listening is killed rather than waited on.
 */
async function startRefused(dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [resolve('server/main.ts'), '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--client-dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('Folio listening')) child.kill('SIGKILL');
  });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, stderr };
}

/** A data dir made by this Folio, then marked as written by a later one (one more migration and its table). */
async function dataDirFromNewerFolio(): Promise<{ dataDir: string; newer: number }> {
  dir = await mkdtemp(join(tmpdir(), 'folio-dbversion-'));
  const dataDir = join(dir, 'data');
  const app = await buildApp({ dataDir, clientDir: dir, logLevel: 'silent' });
  await app.close();
  const known = (await readdir('server/db/migrations')).filter((f) => f.endsWith('.sql')).length;
  const db = new Database(join(dataDir, 'folio.sqlite'));
  db.prepare('INSERT INTO schema_version (version, applied) VALUES (?, ?)').run(known + 1, Date.now());
  db.exec("CREATE TABLE from_the_future (x TEXT); INSERT INTO from_the_future VALUES ('kept')");
  db.close();
  return { dataDir, newer: known + 1 };
}

const versions = (dataDir: string) => {
  const db = new Database(join(dataDir, 'folio.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT version FROM schema_version ORDER BY version').all() as { version: number }[]).map((r) => r.version);
  } finally {
    db.close();
  }
};

describe('a database written by a newer Folio', () => {
  it('is refused before anything is written to it', async () => {
    const { dataDir, newer } = await dataDirFromNewerFolio();
    const before = versions(dataDir);
    await expect(buildApp({ dataDir, clientDir: dir, logLevel: 'silent' })).rejects.toBeInstanceOf(SchemaTooNewError);
    expect(versions(dataDir)).toEqual(before);
    expect(before.at(-1)).toBe(newer);
  });

  it('stops node server/main.ts with one line naming the data directory and exit code 2', async () => {
    const { dataDir, newer } = await dataDirFromNewerFolio();
    const { code, stderr } = await startRefused(dataDir);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(`the data directory ${dataDir}`);
    expect(stderr).toContain(`schema version ${newer}, newer than this Folio knows`);
    expect(stderr).not.toMatch(/^\s+at /m);
  }, 60_000);
});

describe('a data directory another Folio is serving', () => {
  it('is refused with one line and exit code 2, and is free again once that server stops', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-datadir-lock-'));
    const dataDir = join(dir, 'data');
    const first = await buildApp({ dataDir, clientDir: dir, logLevel: 'silent' });
    try {
      const { code, stderr } = await startRefused(dataDir);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`another Folio is already running on the data directory ${dataDir}`);
      expect(stderr).not.toMatch(/^\s+at /m);
    } finally {
      await first.close();
    }
    const again = await buildApp({ dataDir, clientDir: dir, logLevel: 'silent' });
    await again.close();
  }, 60_000);
});

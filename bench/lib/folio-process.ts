/**
 * Starts the real server from a given checkout (`node server/main.ts` in `repoRoot`) with extra Node
 * options, for benchmarks that compare two versions of the server in one run (BENCH_BASELINE_REPO) or
 * profile one (BENCH_CPU_PROF). The e2e helper (tests/e2e/support/folio-server.ts) starts the
 * current checkout only.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningFolio } from '../../tests/e2e/support/folio-server.ts';

export async function startFolioAt(repoRoot: string, nodeOptions: string[] = []): Promise<RunningFolio> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'folio-bench-data-'));
  const child = spawn(
    process.execPath,
    [...nodeOptions, 'server/main.ts', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--client-dir', 'dist', '--log-level', 'warn'],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Folio listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1].replace('0.0.0.0', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`Folio in ${repoRoot} exited with code ${code} before listening:\n${output}`)));
  });
  return {
    url,
    dataDir,
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

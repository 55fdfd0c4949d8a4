import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVER_START_LIMIT_MS } from '../../support/server-start.ts';

export interface RunningFolio {
  /** Where Folio answers: its origin, and the base path if it was started with one (no trailing slash). */
  url: string;
  dataDir: string;
  /** The server process's id (the benchmarks read its CPU time). */
  pid: number;
  stop(): Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export interface StartOptions {
  /** Puts files read at startup (e.g. oauth2-providers.json) into the data directory first. */
  prepare?: (dataDir: string) => Promise<void>;
  /** Another checkout to run the server from (the benchmarks compare two versions); this one by default. */
  checkout?: string;
  /** Options for Node itself, e.g. `--cpu-prof` (the benchmarks' profiles). */
  nodeOptions?: string[];
  /** More server options, e.g. `['--base-path', '/folio']`. */
  args?: string[];
}

/**
 * Starts the real server (`node server/main.ts`) on a free port with a fresh data directory and the
 * built client from dist/. Resolves once the server prints the address it listens on.
 */
export async function startFolio(options: StartOptions = {}): Promise<RunningFolio> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'folio-e2e-data-'));
  await options.prepare?.(dataDir);
  const child = spawn(
    process.execPath,
    [...(options.nodeOptions ?? []), 'server/main.ts', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--client-dir', 'dist', '--log-level', 'warn', ...(options.args ?? [])],
    { cwd: options.checkout ?? repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  const url = await waitForListeningLine(child);
  return {
    url,
    dataDir,
    pid: child.pid!,
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

function waitForListeningLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      // A server that never listened must not outlive the test that gave up on it.
      child.kill('SIGKILL');
      reject(new Error(`Folio did not start in time. Output:\n${output}`));
    }, SERVER_START_LIMIT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Folio listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('0.0.0.0', '127.0.0.1'));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stderr.write(chunk);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Folio exited with code ${code} before listening. Output:\n${output}`));
    });
  });
}

import { spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('web client hosting', () => {
  it('serves files from the client dir and falls back to index.html for client routes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-client-'));
    const clientDir = join(dir, 'dist');
    await mkdir(join(clientDir, 'assets'), { recursive: true });
    await writeFile(join(clientDir, 'index.html'), '<!doctype html><title>Folio</title>');
    await writeFile(join(clientDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    await writeFile(join(dir, 'secret.txt'), 'do not serve');
    server = await startServer({ clientDir, dir });

    const root = await server.get('/', {});
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<title>Folio</title>');
    const asset = await server.get('/assets/app-abc123.js', {});
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toContain('immutable');
    const route = await server.get('/series/ABC/books?page=2', {});
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('<title>Folio</title>');
    const escape = await server.get('/..%2Fsecret.txt', {});
    expect(escape.body).not.toContain('do not serve');
    for (const path of ['/api/v1/nothing-here', '/sse/v1/nothing', '/opds/v1.2/nothing']) {
      const response = await server.get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toMatchObject({ status: 404, error: 'Not Found', path });
    }
    await server.close();
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('says clearly when the web client has not been built', async () => {
    server = await startServer();
    const root = await server.get('/', {});
    expect(root.statusCode).toBe(503);
    expect(root.body).toMatch(/web client not found/i);
    expect(root.body).toContain('npm run build');
  });
});

describe('node server/main.ts', () => {
  /** Starts main.ts on port 0 with `args`, hands `check` the address it prints, then stops it. */
  async function withMain(args: string[], check: (url: string) => Promise<void>): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'folio-main-'));
    const child = spawn(process.execPath, [resolve('server/main.ts'), '--port', '0', '--host', '127.0.0.1', '--data-dir', join(dir, 'data'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Folio listening on (http:\/\/\S+)/.exec(output);
          if (match) resolveUrl(match[1]!);
        });
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
      });
      await check(url);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('starts on port 0, prints the listening line and answers', async () => {
    await withMain([], async (url) => {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(url.endsWith(':0')).toBe(false);
      const response = await fetch(`${url}/api/v1/claim`);
      expect(await response.json()).toEqual({ isClaimed: false });
    });
    // Generous: a cold Node start competes with every other test worker on a small machine.
  }, 120_000);

  it('with --base-path, prints its address under the base path and answers there only', async () => {
    await withMain(['--base-path', 'folio/'], async (url) => {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/folio$/);
      expect(await (await fetch(`${url}/api/v1/claim`)).json()).toEqual({ isClaimed: false });
      expect((await fetch(`${new URL(url).origin}/api/v1/claim`)).status).toBe(404);
      const root = await fetch(`${new URL(url).origin}/`, { redirect: 'manual' });
      expect(root.status).toBe(302);
      expect(root.headers.get('location')).toBe('/folio/');
    });
  }, 120_000);

  /** Runs main.ts to its exit (each case below exits before serving anything). */
  function runMain(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [resolve('server/main.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
  }

  it('prints its options for --help and exits', async () => {
    const { code, stdout } = await runMain(['--help']);
    expect(code).toBe(0);
    for (const option of ['--port', '--host', '--data-dir', '--client-dir', '--cors-origins', '--trust-proxy', '--base-path', 'FOLIO_BASE_PATH', '--log-level', 'FOLIO_PORT']) {
      expect(stdout).toContain(option);
    }
  }, 60_000);

  // A setting to change is said in one line with where to look, not as a stack trace, and exits 2.
  it('says which setting is wrong: an unknown option, a bad port, a port in use, a data directory it cannot make', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-main-'));
    const taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    const port = (taken.address() as AddressInfo).port;
    await writeFile(join(dir, 'a-file'), '');
    try {
      const cases: [string[], RegExp][] = [
        [['--bogus'], /Unknown option '--bogus'/],
        [['--port', '70000'], /Invalid port: 70000/],
        [['--base-path', '/books/../etc'], /Invalid base path: \/books\/\.\.\/etc/],
        [['--port', String(port), '--host', '127.0.0.1', '--data-dir', join(dir, 'data')], new RegExp(`port ${port} on 127.0.0.1 is already in use`)],
        [['--port', '0', '--data-dir', join(dir, 'a-file', 'data')], /the data directory .*a-file\/data cannot be created or written \(ENOTDIR\)/],
      ];
      for (const [args, message] of cases) {
        const { code, stderr } = await runMain(['--client-dir', join(dir, 'no-client'), ...args]);
        expect(code, stderr).toBe(2);
        expect(stderr).toMatch(message);
        expect(stderr).toContain('--help');
        expect(stderr).not.toMatch(/^\s+at /m);
      }
    } finally {
      taken.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isMissingFile } from '../../../server/fs-errors.ts';
import { createAppLogger, logFilePath } from '../../../server/logging.ts';

let dir: string;
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('standard output going away', () => {
  // `npm start | tee folio.out` stopped, a log shipper restarted: the server must keep serving.
  it('does not stop the server: it keeps answering and logs to its file, saying so once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-stdout-'));
    const dataDir = join(dir, 'data');
    const child = spawn(process.execPath, [resolve('server/main.ts'), '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--client-dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Folio listening on (http:\/\/\S+)/.exec(output);
          if (match) resolveUrl(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}${stderr}`)));
      });
      child.stdout.destroy();
      // The log file appears with its first line.
      const logged = async () =>
        (await readFile(logFilePath(dataDir), 'utf8').catch((error: unknown) => {
          if (isMissingFile(error)) return '';
          throw error;
        })).includes('standard output cannot be written any more');
      // Each request logs a line to the closed pipe; the first write after it fails with EPIPE.
      const deadline = Date.now() + 30_000;
      while (!(await logged())) {
        expect(Date.now(), 'no line about the lost standard output').toBeLessThan(deadline);
        const response = await fetch(`${url}/api/v1/claim`).catch((error: unknown) => error as Error);
        expect(response instanceof Response ? response.status : `${String(response)} ${stderr}`).toBe(200);
      }
      expect((await fetch(`${url}/api/v1/claim`)).status).toBe(200);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('closing the log file', () => {
  // As the server stops, connections torn down still log ("stream closed prematurely") after the
  // file was asked to close. One such line used to destroy the file stream, which then closed
  // with the lines still queued for it: the last ones of the server's life were lost.
  it('keeps every line logged before close, and a line logged after it does not lose them', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-log-close-'));
    const { logger, close } = createAppLogger(dir, 'info', { stdout: false });
    for (let i = 0; i < 2_000; i++) logger.info({ i, padding: 'x'.repeat(100) }, 'queued line');
    logger.info('the last line before close');
    const closed = close();
    logger.info('a line after close');
    await closed;
    const lines = (await readFile(logFilePath(dir), 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(2_001);
    expect(lines.at(-1)).toContain('the last line before close');
  });
});

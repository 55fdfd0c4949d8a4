import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** A Node older than the server needs, when the machine has one besides the one running the tests. */
function olderNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    try {
      const [major, minor] = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim().split('.').map(Number);
      if (major! < 22 || (major === 22 && minor! < 18)) return candidate;
    } catch (error) {
      // Not installed there: try the next place.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return undefined;
}

describe('the Node.js version', () => {
  // On an older Node the server's first .ts file fails with ERR_UNKNOWN_FILE_EXTENSION and a stack.
  it.runIf(olderNode())('is checked first by npm start, serve and demo, with a message that names it', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['start', 'serve', 'demo']) expect(scripts[name]!.startsWith('node server/check-node.js && '), name).toBe(true);

    const old = spawnSync(olderNode()!, ['server/check-node.js'], { encoding: 'utf8' });
    expect(old.status).toBe(1);
    expect(old.stderr).toMatch(/^Folio needs Node\.js 22\.18 or newer to run; this is Node\.js \d+\.\d+\.\d+/);
    expect(old.stderr).not.toMatch(/^\s+at /m);
    const current = spawnSync(process.execPath, ['server/check-node.js'], { encoding: 'utf8' });
    expect(current.status, current.stderr).toBe(0);
  });
});

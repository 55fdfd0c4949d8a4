/**
 * Drives an HTTP server with wrk (a C load generator: on a 2-core machine a Node client loop would
 * take much of the CPU it is measuring). Each connection walks a list of paths; wrk's Lua `done`
 * hook prints the totals and latency percentiles as one JSON line. Used when `wrk` is installed
 * (`apt-get install wrk`); bench/server.ts falls back to its fetch loop otherwise.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface WrkResult {
  requests: number;
  bytes: number;
  seconds: number;
  errors: number;
  latencyMedianMs: number;
  latencyP95Ms: number;
  latencyP99Ms: number;
}

// Paths are read once per wrk thread; each thread starts at its own offset so the threads do not
// ask for the same archive at the same moment.
const SCRIPT = `
local paths = {}
for line in io.lines(os.getenv("WRK_PATHS")) do paths[#paths + 1] = line end
local cookie = os.getenv("WRK_COOKIE")
if cookie and cookie ~= "" then wrk.headers["Cookie"] = cookie end
local apiKey = os.getenv("WRK_API_KEY")
if apiKey and apiKey ~= "" then wrk.headers["X-API-Key"] = apiKey end
local threads = 0
function setup(thread)
  thread:set("offset", threads * 7919)
  threads = threads + 1
end
local i = 0
function request()
  i = i + 1
  return wrk.format("GET", paths[((offset or 0) + i) % #paths + 1])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"bytes":%d,"micros":%d,"errors":%d,"p50":%d,"p95":%d,"p99":%d}\\n',
    summary.requests, summary.bytes, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
`;

export async function haveWrk(): Promise<boolean> {
  try {
    await run('wrk', ['--version']).catch((error: { stdout?: string }) => {
      // wrk --version prints its banner and exits 1.
      if (!error.stdout?.includes('wrk')) throw error;
    });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * `paths` are absolute paths on `origin`; `clients` connections over two threads for `seconds`,
 * each request carrying `cookie` and/or `apiKey` (X-API-Key) when given.
 */
export async function wrk(work: string, origin: string, paths: string[], clients: number, seconds: number, cookie = '', apiKey = ''): Promise<WrkResult> {
  const script = join(work, 'wrk-paths.lua');
  const list = join(work, `wrk-paths-${clients}-${Date.now()}.txt`);
  await writeFile(script, SCRIPT);
  await writeFile(list, `${paths.join('\n')}\n`);
  const threads = Math.min(2, clients);
  const { stdout } = await run('wrk', ['-t', String(threads), '-c', String(clients), '-d', `${seconds}s`, '--timeout', '10s', '-s', script, origin], {
    env: { ...process.env, WRK_PATHS: list, WRK_COOKIE: cookie, WRK_API_KEY: apiKey },
    maxBuffer: 1 << 20,
  });
  const line = /WRK_JSON (\{.*\})/.exec(stdout)?.[1];
  if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
  const parsed = JSON.parse(line) as { requests: number; bytes: number; micros: number; errors: number; p50: number; p95: number; p99: number };
  return {
    requests: parsed.requests,
    bytes: parsed.bytes,
    seconds: parsed.micros / 1e6,
    errors: parsed.errors,
    latencyMedianMs: parsed.p50 / 1000,
    latencyP95Ms: parsed.p95 / 1000,
    latencyP99Ms: parsed.p99 / 1000,
  };
}

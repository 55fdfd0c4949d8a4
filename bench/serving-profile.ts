/**
 * Where a served page or poster spends Folio's main thread: starts the server (this checkout, and
 * PROFILE_BASELINE_REPO beside it when given) with the inspector open, prepares the serving
 * library as bench/server.ts does, and records a CPU profile over exactly the wrk window (the
 * inspector's Profiler.start/stop, so library setup is not counted). Prints self time per request
 * by function and by part (Fastify, node:http, Folio's own files…), A and B taking turns.
 * Environment: PROFILE_SECONDS (5), PROFILE_CLIENTS (32), PROFILE_ROUNDS (2), PROFILE_BASELINE_REPO,
 * PROFILE_TARGETS (posters,pages), PROFILE_PORT (first inspector port, 26150), BENCH_SERVING_BOOKS (40),
 * PROFILE_TOP (15), PROFILE_AUTH (cookie, or apikey: every request carries an X-API-Key instead of the session cookie),
 * PROFILE_CALLERS (a function name whose callers to print), PROFILE_USER (admin, or restricted: a reader with one
 * shared library, an age limit and an excluded label, whose every book request also runs the content guard).
 * Usage: node bench/serving-profile.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFolio, type RunningFolio } from '../tests/e2e/support/folio-server.ts';
import { generateLibrary } from './lib/generate-library.ts';
import { wrk } from './lib/wrk.ts';
import { prepareServing } from './server.ts';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 5);
const CLIENTS = Number(process.env.PROFILE_CLIENTS ?? 32);
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 2);
const BOOKS = Number(process.env.BENCH_SERVING_BOOKS ?? 40);
const TOP = Number(process.env.PROFILE_TOP ?? 15);
const FIRST_PORT = Number(process.env.PROFILE_PORT ?? 26150);
const TARGETS = (process.env.PROFILE_TARGETS ?? 'posters,pages').split(',');
const AUTH = process.env.PROFILE_AUTH ?? 'cookie';
const USER = process.env.PROFILE_USER ?? 'admin';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function inspector(port: number): Promise<{ send<T>(method: string, params?: object): Promise<T>; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = message.id === undefined ? undefined : waiting.get(message.id);
    if (!waiter) return;
    waiting.delete(message.id!);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  };
  return {
    send<T>(method: string, params: object = {}) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve, reject) => waiting.set(id, { resolve: resolve as (value: unknown) => void, reject }));
    },
    close: () => socket.close(),
  };
}

/** The part of the server a frame belongs to, by its file. */
function partOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName.startsWith('(')) return functionName; // (garbage collector), (idle), (program)
    return 'native (V8 builtins, bindings)';
  }
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (library) return library[1]!;
  if (url.startsWith('node:')) return `node:${/^node:(?:internal\/)?([^/]+)/.exec(url)?.[1] ?? url}`;
  const own = /\/(server\/[^/]+(?:\/[^/]+)?)/.exec(url);
  return own ? own[1]!.replace(/\.ts$/, '') : url;
}

interface Summary {
  requests: number;
  busyUsPerRequest: number;
  byFunction: [string, number][];
  byPart: [string, number][];
}

/** Self time per request (µs) by function and by part; idle time is left out of "busy". */
function summarise(profile: Profile, requests: number): Summary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  // Natives without a script (bindings such as writev) are charged to the nearest caller with one.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const charged = (id: number): CallFrame => {
    const frame = nodes.get(id)!.callFrame;
    if (frame.url || frame.functionName.startsWith('(')) return frame;
    let above = parent.get(id);
    while (above !== undefined) {
      const up = nodes.get(above)!.callFrame;
      if (up.url) return { ...up, functionName: `${frame.functionName || '(anonymous native)'} ← ${up.functionName || '(anonymous)'}` };
      above = parent.get(above);
    }
    return frame;
  };
  const byFunction = new Map<string, number>();
  const byPart = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const raw = nodes.get(id)!.callFrame;
    if (raw.functionName === '(idle)') return;
    busy += delta;
    const frame = charged(id);
    const file = frame.url.replace(/^.*\/(node_modules\/|server\/)/, '$1');
    const key = `${frame.functionName || '(anonymous)'} ${file}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + delta);
    const part = partOf(frame);
    byPart.set(part, (byPart.get(part) ?? 0) + delta);
  });
  // PROFILE_CALLERS=<function name>: who calls it (two frames up), to find where a cost comes from.
  const wanted = process.env.PROFILE_CALLERS;
  if (wanted) {
    const callers = new Map<string, number>();
    profile.samples.forEach((id, index) => {
      if (nodes.get(id)!.callFrame.functionName !== wanted) return;
      const up1 = parent.get(id);
      const up2 = up1 === undefined ? undefined : parent.get(up1);
      const name = [up1, up2].map((n) => (n === undefined ? '-' : `${nodes.get(n)!.callFrame.functionName}@${nodes.get(n)!.callFrame.url.replace(/^.*\//, '')}:${nodes.get(n)!.callFrame.lineNumber + 1}`)).join(' ← ');
      callers.set(name, (callers.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
    });
    for (const [name, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  ${wanted} ← ${name}: ${(us / requests).toFixed(2)} µs/request`);
  }
  const perRequest = (entries: Map<string, number>) =>
    [...entries].map(([key, us]) => [key, us / requests] as [string, number]).sort((a, b) => b[1] - a[1]);
  return { requests, busyUsPerRequest: busy / requests, byFunction: perRequest(byFunction), byPart: perRequest(byPart) };
}

async function profiled(folio: RunningFolio, port: number, credential: { cookie: string; apiKey: string }, urls: string[], work: string): Promise<Summary & { perSecond: number }> {
  const session = await inspector(port);
  try {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 200 });
    await session.send('Profiler.start');
    const origin = new URL(urls[0]!).origin;
    const result = await wrk(work, origin, urls.map((url) => url.slice(origin.length)), CLIENTS, SECONDS, credential.cookie, credential.apiKey);
    const { profile } = await session.send<{ profile: Profile }>('Profiler.stop');
    if (result.errors) throw new Error(`${folio.url}: ${result.errors} failed requests`);
    return { ...summarise(profile, result.requests), perSecond: result.requests / result.seconds };
  } finally {
    session.close();
  }
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function print(label: string, runs: (Summary & { perSecond: number })[]): void {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const merge = (pick: (run: Summary) => [string, number][]) => {
    const total = new Map<string, number>();
    for (const run of runs) for (const [key, us] of pick(run)) total.set(key, (total.get(key) ?? 0) + us * run.requests);
    return [...total].map(([key, us]) => [key, us / requests] as const).sort((a, b) => b[1] - a[1]);
  };
  const busy = runs.reduce((sum, run) => sum + run.busyUsPerRequest * run.requests, 0) / requests;
  console.log(`\n### ${label}: ${runs.map((run) => round(run.perSecond, 0)).join(' / ')} requests/s, main thread busy ${round(busy)} µs per request\n`);
  console.log('| part | µs per request | share |\n| --- | --- | --- |');
  for (const [part, us] of merge((run) => run.byPart).slice(0, TOP)) console.log(`| ${part} | ${round(us)} | ${round((100 * us) / busy, 0)} % |`);
  console.log('\n| function (self time) | µs per request | share |\n| --- | --- | --- |');
  for (const [name, us] of merge((run) => run.byFunction).slice(0, TOP)) console.log(`| \`${name.replace(/\|/g, '\\|')}\` | ${round(us)} | ${round((100 * us) / busy, 0)} % |`);
}

/** Creates a reader restricted by shared library, age and label, signs them in and returns their session cookie. */
async function restrictedReader(folio: RunningFolio, adminCookie: string): Promise<string> {
  const headers = { cookie: adminCookie, 'content-type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
  const libraries = (await (await fetch(`${folio.url}/api/v1/libraries`, { headers })).json()) as { id: string }[];
  const email = 'restricted@example.org';
  const password = 'restricted-password';
  const created = await fetch(`${folio.url}/api/v2/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      email, password, roles: ['PAGE_STREAMING'], sharedLibraries: { all: false, libraryIds: libraries.map((l) => l.id) },
      ageRestriction: { age: 18, restriction: 'EXCLUDE' }, labelsExclude: ['hidden'],
    }),
  });
  if (!created.ok) throw new Error(`restricted user: HTTP ${created.status} ${await created.text()}`);
  const login = await fetch(`${folio.url}/api/v2/users/me`, { headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` } });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('KOMGA-SESSION='));
  if (!cookie) throw new Error('restricted user: no session cookie');
  return cookie.split(';')[0]!;
}

const work = await mkdtemp(join(tmpdir(), 'folio-serving-profile-'));
const checkouts: { name: string; repo?: string; port: number }[] = [{ name: 'current', port: FIRST_PORT }];
if (process.env.PROFILE_BASELINE_REPO) checkouts.push({ name: 'baseline', repo: process.env.PROFILE_BASELINE_REPO, port: FIRST_PORT + 1 });
const running: RunningFolio[] = [];
try {
  const seriesCount = Math.max(1, Math.round(BOOKS / 25));
  const library = await generateLibrary({
    root: join(work, 'serving'), seriesCount, booksPerSeries: Math.ceil(BOOKS / seriesCount), pagesPerBook: 4, pageWidth: 1200, pageHeight: 1800, noise: true,
  });
  const served = [];
  for (const checkout of checkouts) {
    const folio = await startFolio({ checkout: checkout.repo, nodeOptions: [`--inspect=127.0.0.1:${checkout.port}`] });
    running.push(folio);
    const prepared = await prepareServing(folio, library.root, library.books.length);
    let credential = { cookie: prepared.cookie, apiKey: '' };
    if (USER === 'restricted') credential.cookie = await restrictedReader(folio, prepared.cookie);
    if (AUTH === 'apikey') {
      const response = await fetch(`${folio.url}/api/v2/users/me/api-keys`, {
        method: 'POST',
        headers: { cookie: credential.cookie, 'content-type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ comment: 'profile' }),
      });
      if (!response.ok) throw new Error(`API key: HTTP ${response.status}`);
      credential = { cookie: '', apiKey: ((await response.json()) as { key: string }).key };
    }
    served.push({ ...checkout, ...prepared, credential });
  }
  // Every poster drawn and kept once before measuring.
  for (const one of served) for (const url of one.posterUrls) await fetch(url, { headers: { cookie: one.cookie } });
  console.log(`load average at start ${loadavg().map((v) => v.toFixed(1)).join(' / ')}; ${CLIENTS} clients, ${SECONDS} s × ${ROUNDS} rounds, ${USER} user authenticated by ${AUTH}`);
  for (const target of TARGETS) {
    const runs = new Map(served.map((one) => [one.name, [] as (Summary & { perSecond: number })[]]));
    for (let round = 0; round < ROUNDS; round++) {
      // A and B take turns going first (the machine's load drifts).
      const order = round % 2 === 0 ? served : [...served].reverse();
      for (const one of order) {
        const urls = target === 'posters' ? one.posterUrls : one.pageUrls;
        runs.get(one.name)!.push(await profiled(one.folio, one.port, one.credential, urls, work));
      }
    }
    for (const [name, list] of runs) print(`${target}, ${name}`, list);
  }
  console.log(`\nload average at end ${loadavg().map((v) => v.toFixed(1)).join(' / ')}`);
} finally {
  for (const folio of running) await folio.stop();
  await rm(work, { recursive: true, force: true });
}

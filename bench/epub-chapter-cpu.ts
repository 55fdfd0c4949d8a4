/**
 * Main-thread CPU of opening one large chapter in the EPUB reader, paired across checkouts: the
 * wall time of bench/epub-chapters.ts follows the machine's load (on a shared 2-core machine at load
 * 15-20 a 1.7 s open took 5-10 s), the renderer's thread time much less. For each run, each checkout
 * in turn opens the same generated one-chapter book (SIZE bytes of XHTML, 2,000,000 by default) in
 * real Chromium against its own server and built client, traced; printed per checkout: wall ms to the
 * frame host ready, and CPU ms (trace `tdur`) of the renderer main thread's tasks, style
 * recalculations, layouts and pre-paints. Usage: RUNS=4 node bench/epub-chapter-cpu.ts <checkout> <checkout>…
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from '../tests/chromium.ts';
import { createReflowableEpub } from '../tests/fixtures/epub.ts';
import { startFolio } from '../tests/e2e/support/folio-server.ts';
import { waitUntil } from './lib/wait.ts';
import { claimWithLibrary } from './support/claimed-server.ts';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string };
}

const bytes = Number(process.env.SIZE ?? 2_000_000);
let body = '';
for (let i = 0; body.length < bytes; i++) body += i % 40 === 0 ? `<h2 id="s${i}">Section ${i / 40 + 1}</h2>\n` : `<p>It was a dark and stormy night; the rain fell in <em>torrents</em>, except at occasional intervals, when it was checked by a violent gust of wind (paragraph ${i}). The lamps struggled against the darkness.</p>\n`;
const root = await mkdtemp(join(tmpdir(), 'zz-cpu-'));
await createReflowableEpub(join(root, 'B', 'b.epub'), [{ title: 'Only', body: `<h1>Only</h1>${body}` }], { title: 'B' });
const checkouts = process.argv.slice(2);
const servers = await Promise.all(checkouts.map((c) => startFolio({ checkout: c })));
const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs });
const setups: { folio: Awaited<ReturnType<typeof startFolio>>; id: string; context: Awaited<ReturnType<typeof browser.newContext>> }[] = [];
for (const folio of servers) {
  const { auth, call } = await claimWithLibrary(folio.url, root);
  let id = '';
  await waitUntil('ready', async () => { const p = (await (await call('/api/v1/books?media_status=READY')).json()) as { content: { id: string }[] }; id = p.content[0]?.id ?? ''; return !!id; }, 200, 180000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.request.get(`${folio.url}/api/v2/users/me`, { headers: auth });
  setups.push({ folio, id, context });
}
const rows: Record<string, number[]>[] = checkouts.map(() => ({}));
for (let run = 0; run < Number(process.env.RUNS ?? 3); run++) {
  for (let k = 0; k < setups.length; k++) {
    const { folio, id, context } = setups[k]!;
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
    const t0 = Date.now();
    await page.goto(`${folio.url}/book/${id}/read?incognito=true`);
    await page.waitForSelector('[data-testid="epub-frames"][data-ready="true"]', { state: 'attached', timeout: 180000 });
    const wall = Date.now() - t0;
    await cdp.send('Tracing.end'); await done;
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    if (!main) throw new Error('no renderer main thread in the trace');
    const sum = (name: string) => events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.name === name && e.ph === 'X').reduce((s, e) => s + (e.tdur ?? 0) / 1000, 0);
    const r = rows[k]!;
    for (const [key, v] of Object.entries({ wall, cpuTasks: sum('RunTask'), style: sum('UpdateLayoutTree'), layout: sum('Layout'), prePaint: sum('PrePaint') })) (r[key] ??= []).push(Math.round(v));
    await page.close();
  }
}
console.log(`load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, size ${bytes}`);
checkouts.forEach((c, k) => console.log(c, JSON.stringify(rows[k])));
await browser.close(); for (const s of servers) await s.stop();

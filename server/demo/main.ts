import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../http/app.ts';
import { generateDemoLibrary } from './library.ts';

/**
 * `npm run demo`: writes the demo library (once), starts Folio on it, creates the demo account and
 * library through the public API, and prints where to log in.
 *   --dir DIR        where the demo books go (default ./demo/library)
 *   --data-dir DIR   the demo server's data (default ./demo/data)
 *   --port N         default 25600
 */
const DEMO_EMAIL = 'demo@folio.local';
const DEMO_PASSWORD = 'folio-demo';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: './demo/library' },
    'data-dir': { type: 'string', default: './demo/data' },
    'client-dir': { type: 'string', default: './dist' },
    port: { type: 'string', default: process.env.FOLIO_PORT ?? '25600' },
    host: { type: 'string', default: process.env.FOLIO_HOST ?? '0.0.0.0' },
  },
});

const libraryRoot = resolve(values.dir);
console.log(`Writing the demo library to ${libraryRoot}`);
await mkdir(libraryRoot, { recursive: true });
const books = await generateDemoLibrary(libraryRoot, (line) => console.log(line));
console.log(`${books.length} books ready.`);

const app = await buildApp({ dataDir: resolve(values['data-dir']), clientDir: resolve(values['client-dir']), logLevel: 'warn' });
await app.listen({ port: Number(values.port), host: values.host });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : Number(values.port);
const url = `http://127.0.0.1:${port}`;

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${url}${path}`, { ...init, headers: { 'X-Requested-With': 'XMLHttpRequest', ...init.headers } });
}

const claimed = ((await (await call('/api/v1/claim')).json()) as { isClaimed: boolean }).isClaimed;
if (!claimed) {
  const claim = await call('/api/v1/claim', { method: 'POST', headers: { 'X-Komga-Email': DEMO_EMAIL, 'X-Komga-Password': DEMO_PASSWORD } });
  if (!claim.ok) throw new Error(`Could not create the demo account: HTTP ${claim.status}`);
}
const auth = { Authorization: `Basic ${Buffer.from(`${DEMO_EMAIL}:${DEMO_PASSWORD}`).toString('base64')}` };
const libraries = await call('/api/v1/libraries', { headers: auth });
if (libraries.ok) {
  const list = (await libraries.json()) as { root: string }[];
  if (!list.some((library) => resolve(library.root) === libraryRoot)) {
    const created = await call('/api/v1/libraries', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Demo', root: libraryRoot }),
    });
    if (!created.ok) throw new Error(`Could not add the demo library: HTTP ${created.status} ${await created.text()}`);
  }
  console.log(`\nFolio demo running at ${url}\n  email:    ${DEMO_EMAIL}\n  password: ${DEMO_PASSWORD}\n`);
} else {
  console.log(`\nFolio running at ${url}; this data directory belongs to another account, so the demo account was not created.\n`);
}

const shutdown = () => void app.close().then(() => process.exit(0));
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

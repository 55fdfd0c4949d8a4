/**
 * What one Node thread can do at most when serving files, as a second peer next to nginx: node:http
 * and nothing else (no framework, no authentication, no database), each file opened once, its
 * bytes read per request with one positional read into a reused buffer, as Folio reads a stored
 * page. The gap between this and nginx (sendfile, no copy into the process, two worker processes)
 * is what no change inside Folio's one thread can close.
 * With `--processes N`, N such servers share one port through node:cluster, as nginx's workers
 * do: what Folio could reach at most if it served from several processes.
 * Usage: node bench/lib/node-floor-server.ts <folder> [--processes N]; prints "listening on <url>".
 */
import cluster from 'node:cluster';
import { type FileHandle, open } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { ReusableBuffers } from '../../server/media/reusable-buffers.ts';

const root = process.argv[2];
if (!root) throw new Error('usage: node-floor-server.ts <folder> [--processes N]');
const processes = process.argv[3] === '--processes' ? Number(process.argv[4]) : 1;
if (!Number.isInteger(processes) || processes < 1) throw new Error('--processes wants a positive whole number');

if (processes > 1 && cluster.isPrimary) {
  // The workers run this file again; each listens on port 0, which cluster turns into one shared port.
  let announced = false;
  for (let i = 0; i < processes; i++) {
    cluster.fork().on('message', (url: string) => {
      if (announced) return;
      announced = true;
      console.log(`listening on ${url}`);
    });
  }
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  serve(root);
}

function serve(root: string): void {
  const files = new Map<string, Promise<{ handle: FileHandle; size: number }>>();
  const buffers = new ReusableBuffers(512 * 1024 * 1024);

  function openFile(name: string): Promise<{ handle: FileHandle; size: number }> {
    let file = files.get(name);
    if (!file) {
      file = open(join(root, name), 'r').then(async (handle) => ({ handle, size: (await handle.stat()).size }));
      files.set(name, file);
    }
    return file;
  }

  const server = createServer((request, response) => {
    const name = normalize(decodeURIComponent((request.url ?? '/').split('?')[0]!)).replace(/^\/+/, '');
    if (name.startsWith('..')) {
      response.writeHead(400).end();
      return;
    }
    openFile(name)
      .then(async ({ handle, size }) => {
        const buffer = buffers.take(size);
        if (!buffer) throw new Error('over the buffer budget');
        response.once('close', () => buffers.give(buffer));
        await handle.read(buffer, 0, size, 0);
        response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': size });
        response.end(buffer.subarray(0, size));
      })
      .catch((error: unknown) => {
        files.delete(name);
        response.writeHead(404).end(String(error));
      });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (cluster.isWorker) process.send!(url);
    else console.log(`listening on ${url}`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PrefixProxy {
  /** The proxy's address under the prefix, no trailing slash. */
  url: string;
  stop(): Promise<void>;
}

/**
 * A reverse proxy that serves `target` under `prefix` and strips it before forwarding, saying so with
 * X-Forwarded-Prefix (nginx's `location /prefix/ { proxy_pass http://folio/; }` plus the header).
 * Responses, event streams included, are piped through as they come; the Host header is kept.
 */
export async function startPrefixProxy(target: string, prefix: string): Promise<PrefixProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const url = incoming.url ?? '/';
    if (url !== prefix && !url.startsWith(`${prefix}/`) && !url.startsWith(`${prefix}?`)) {
      outgoing.writeHead(404).end();
      return;
    }
    const path = url.slice(prefix.length);
    const call = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: path.startsWith('/') ? path : `/${path}`,
        headers: { ...incoming.headers, 'x-forwarded-prefix': prefix },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    call.on('error', (error) => {
      console.warn(`prefix proxy: ${incoming.method} ${url} failed: ${String(error)}`);
      outgoing.destroy();
    });
    incoming.pipe(call);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    stop: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

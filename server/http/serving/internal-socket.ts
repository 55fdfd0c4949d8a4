import { mkdtempSync, rmSync } from 'node:fs';
import { type Server as NetServer, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server as HttpServer } from 'node:http';

/**
 * The primary's side of serving processes (README "Serving processes"): a unix socket, in a folder
 * only this user can enter, whose connections the primary's own HTTP server answers as any other.
 * Their peer address is SERVING_PEER, which no TCP peer can have; the primary trusts it (and only
 * it) to name the client in X-Forwarded-For (`trustingServingPeer`), so rate limits, login
 * throttles, activity and logs see the client's address, not the serving process's.
 */
export const SERVING_PEER = 'folio-serving-process';

/** The trust-proxy function of a primary with serving processes: theirs is always trusted, one hop. */
export function trustingServingPeer(trusts: (address: string, hop: number) => boolean): (address: string, hop: number) => boolean {
  return (address, hop) => (hop === 0 && address === SERVING_PEER) || (address !== SERVING_PEER && trusts(address, hop));
}

export interface InternalSocket {
  path: string;
  close(): Promise<void>;
}

export async function listenInternally(server: HttpServer): Promise<InternalSocket> {
  const folder = mkdtempSync(join(tmpdir(), 'folio-'));
  const path = join(folder, 'primary.sock');
  const internal: NetServer = createServer((socket: Socket) => {
    Object.defineProperty(socket, 'remoteAddress', { value: SERVING_PEER });
    server.emit('connection', socket);
  });
  await new Promise<void>((resolve, reject) => {
    internal.once('error', reject);
    internal.listen(path, () => {
      internal.off('error', reject);
      resolve();
    });
  });
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        internal.close(() => {
          rmSync(folder, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';

/**
 * Clients that stop reading once a response's headers are in: each GET's response is paused and
 * left unread, so the server holds what it is sending. `closeAll` ends them (call it after each test).
 */
export function stalledClients() {
  const open: ClientRequest[] = [];
  return {
    get(port: number, path: string, headers: Record<string, string>): Promise<IncomingMessage> {
      return new Promise((resolve, reject) => {
        const request = httpRequest({ port, host: '127.0.0.1', path, headers }, (response) => {
          response.pause();
          resolve(response);
        });
        open.push(request);
        request.once('error', reject);
        request.end();
      });
    },
    closeAll(): void {
      for (const request of open.splice(0)) request.destroy();
    },
  };
}

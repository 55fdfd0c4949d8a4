import { request as httpRequest } from 'node:http';
import type { Plugin } from 'vite';

/** Paths the web client sends to the Folio server (everything else is the test page's own). */
const SERVER_PATHS = ['/api/', '/sse/', '/opds/', '/actuator', '/oauth2/', '/login/oauth2/'];

/**
 * The browser tests' page may load from and talk to its own origin only. The API paths of that
 * origin lead to the Folio server the run started (see folio-global-setup.ts); any other origin is
 * refused by the browser (this is the browser project's `server.headers`), and the refusal fails
 * the test (see setup.ts). So no test reaches a
 * server it did not start, whatever runs on this machine's port 25600.
 */
export const CONTENT_SECURITY_POLICY = [
  "connect-src 'self' blob: data:",
  "img-src 'self' blob: data:",
  "media-src 'self' blob: data:",
  "font-src 'self' data:",
  "frame-src 'self' blob: data: about:",
  "worker-src 'self' blob:",
].join('; ');

/** Where the server the run started listens: set by the global setup in this same process. */
export const SERVER_URL_VARIABLE = 'FOLIO_BROWSER_TEST_SERVER';

/**
 * Forwards the client's API calls, as the production server's same origin would answer them, to
 * the Folio server of this run. The Host header is kept, so the server sees the same origin the
 * page has (its cross-site request checks compare the two), and cookies stay on the page's origin.
 */
export function folioTestServer(): Plugin {
  return {
    name: 'folio-browser-test-server',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = req.url ?? '/';
        if (!SERVER_PATHS.some((prefix) => url.startsWith(prefix))) return next();
        const target = process.env[SERVER_URL_VARIABLE];
        if (!target) {
          res.statusCode = 503;
          res.end(`${url}: the browser tests' Folio server is not running (global setup missing?)`);
          return;
        }
        const upstream = httpRequest(new URL(url, target), { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', (error) => {
          server.config.logger.error(`Folio test server: ${req.method} ${url} failed: ${error.message}`);
          if (!res.headersSent) res.statusCode = 502;
          res.end();
        });
        // A closed EventSource or an aborted fetch ends the upstream request too.
        res.on('close', () => upstream.destroy());
        req.pipe(upstream);
      });
    },
  };
}

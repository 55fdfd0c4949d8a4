import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers.ts';

/*
 * A trailing slash on an API or OPDS path (old Paperback extensions asked for `/api/v1/series/`).
 * Komga 1.26 runs on Spring Boot 3.5 (Spring Framework 6.2), where trailing-slash matching is off by
 * default, and Komga turns it back on nowhere (its WebMvcConfiguration sets no path matching and
 * adds no UrlHandlerFilter): such a path matches no handler and is a 404 (401 first without a
 * login, Spring Security guarding every /api and /opds path). Folio answers the same, so a client
 * that works against Folio works against Komga: decided, not changed.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const PATHS = ['/api/v1/series', '/api/v1/books', '/api/v1/libraries', '/api/v2/users/me', '/api/v1/readlists', '/opds/v1.2/catalog', '/opds/v2/catalog'];

describe('a trailing slash on API and OPDS paths, as in Komga', () => {
  it('is not the same address: 404 with a login, where the path without it answers 200', async () => {
    for (const path of PATHS) {
      expect((await server.get(path)).statusCode, path).toBe(200);
      const slashed = await server.get(`${path}/`);
      expect(slashed.statusCode, `${path}/`).toBe(404);
      expect(slashed.headers['content-type'], `${path}/`).toMatch(/^application\/json/);
      expect(slashed.headers.location, `${path}/`).toBeUndefined();
    }
  });

  it('asks for a login first, as Spring Security does before any handler is looked for', async () => {
    for (const path of PATHS) expect((await server.get(`${path}/`, {})).statusCode, `${path}/`).toBe(401);
  });
});

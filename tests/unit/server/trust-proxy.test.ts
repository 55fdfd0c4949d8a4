import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustProxy } from '../../../server/config.ts';
import { readConfig } from '../../../server/config.ts';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addLibrary, basic, startServer, type TestServer } from './helpers.ts';

const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'books.example.org', 'x-forwarded-port': '8443', 'x-forwarded-for': '198.51.100.7' };
const INTERNAL_HOST = 'folio.internal:25600';

async function serverWith(trustProxy: TrustProxy | undefined): Promise<{ server: TestServer; book: BookDto }> {
  const server = await startServer({ trustProxy });
  await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
  const book = (await server.json<Page<BookDto>>('/api/v1/books?sort=name')).content[0]!;
  return { server, book };
}

/** What a Komga client sees: the manifest's self link, the login cookie and the recorded login address. */
async function observe(server: TestServer, book: BookDto, remoteAddress: string) {
  const headers = { ...FORWARDED, host: INTERNAL_HOST };
  const manifest = await server.app.inject({ method: 'GET', url: `/api/v1/books/${book.id}/manifest`, headers: { ...headers, ...server.admin }, remoteAddress });
  const self = (manifest.json() as { links: { rel?: string; href: string }[] }).links.find((l) => l.rel === 'self')!.href;
  const login = await server.app.inject({
    method: 'GET',
    url: '/api/v2/users/me',
    headers: { ...headers, authorization: basic(ADMIN_EMAIL, ADMIN_PASSWORD) },
    remoteAddress,
  });
  const cookie = String(login.headers['set-cookie'] ?? '');
  const activity = await server.json<Page<{ ip: string | null }>>('/api/v2/users/me/authentication-activity?sort=dateTime,desc');
  return { self, secureCookie: /;\s*Secure/i.test(cookie), ip: activity.content[0]?.ip };
}

describe('forwarded headers', () => {
  let off: { server: TestServer; book: BookDto };
  let loopback: { server: TestServer; book: BookDto };
  beforeAll(async () => {
    off = await serverWith(undefined);
    loopback = await serverWith(['loopback']);
  });
  afterAll(async () => {
    await off.server.close();
    await loopback.server.close();
  });

  it('are ignored by default', async () => {
    const seen = await observe(off.server, off.book, '127.0.0.1');
    expect(seen.self).toBe(`http://${INTERNAL_HOST}/api/v1/books/${off.book.id}/manifest`);
    expect(seen.secureCookie).toBe(false);
    expect(seen.ip).toBe('127.0.0.1');
  });

  it('give the client-facing origin, Secure cookies and client address behind a trusted proxy', async () => {
    const seen = await observe(loopback.server, loopback.book, '127.0.0.1');
    expect(seen.self).toBe(`https://books.example.org:8443/api/v1/books/${loopback.book.id}/manifest`);
    expect(seen.secureCookie).toBe(true);
    expect(seen.ip).toBe('198.51.100.7');
  });

  it('are ignored when the peer is not a trusted proxy', async () => {
    const seen = await observe(loopback.server, loopback.book, '203.0.113.9');
    expect(seen.self).toBe(`http://${INTERNAL_HOST}/api/v1/books/${loopback.book.id}/manifest`);
    expect(seen.secureCookie).toBe(false);
    expect(seen.ip).toBe('203.0.113.9');
  });

  it('leave out a default port and keep a port the forwarded host names', async () => {
    const { server, book } = loopback;
    const self = async (headers: Record<string, string>) => {
      const response = await server.app.inject({ method: 'GET', url: `/api/v1/books/${book.id}/manifest`, headers: { ...server.admin, host: INTERNAL_HOST, ...headers } });
      return (response.json() as { links: { rel?: string; href: string }[] }).links.find((l) => l.rel === 'self')!.href;
    };
    expect(await self({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'books.example.org', 'x-forwarded-port': '443' })).toMatch(/^https:\/\/books\.example\.org\/api/);
    expect(await self({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'books.example.org:9000', 'x-forwarded-port': '443' })).toMatch(/^https:\/\/books\.example\.org:9000\/api/);
  });
});

describe('the trust-proxy setting', () => {
  it('reads off, on, and lists of addresses, ranges and names', () => {
    expect(readConfig([], {}).trustProxy).toBe(false);
    expect(readConfig(['--trust-proxy', 'true'], {}).trustProxy).toBe(true);
    expect(readConfig([], { FOLIO_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(readConfig([], { FOLIO_TRUST_PROXY: 'loopback, 10.0.0.0/8,192.168.1.4' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '192.168.1.4']);
    expect(() => readConfig(['--trust-proxy', '2'], {})).toThrow(/hop counts/);
  });
});

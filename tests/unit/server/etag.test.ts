import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
});
afterAll(async () => {
  await server.close();
});

describe('ETag on API GETs', () => {
  it('tags JSON answers with "0<md5>" and answers a matching If-None-Match with 304', async () => {
    const first = await server.get('/api/v1/series');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"0[0-9a-f]{32}"$/);
    const again = await server.get('/api/v1/series', { ...server.admin, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const weak = await server.get('/api/v1/series', { ...server.admin, 'if-none-match': `"other", W/${etag}` });
    expect(weak.statusCode).toBe(304);
  });

  it('changes the ETag when the content changes', async () => {
    const books = await server.json<Page<BookDto>>('/api/v1/books');
    const id = books.content[0]!.id;
    const before = await server.get(`/api/v1/books/${id}`);
    await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${id}/read-progress`, headers: server.admin, payload: { page: 1 } });
    const after = await server.get(`/api/v1/books/${id}`, { ...server.admin, 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('keeps the ETag a route set itself (a poster served from memory is not hashed again), and 304s on it', async () => {
    const books = await server.json<Page<BookDto>>('/api/v1/books');
    const url = `/api/v1/books/${books.content[0]!.id}/thumbnail`;
    const first = await server.get(url);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    // The poster's own ETag names the file (path, date, size), not an MD5 of the bytes sent.
    const { createHash } = await import('node:crypto');
    expect(etag).not.toBe(`"0${createHash('md5').update(first.rawPayload).digest('hex')}"`);
    const again = await server.get(url, { ...server.admin, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('does not tag errors or non-GET answers', async () => {
    expect((await server.get('/api/v1/books/nope')).headers.etag).toBeUndefined();
    const post = await server.app.inject({ method: 'POST', url: '/api/v1/books/list', headers: server.admin, payload: {} });
    expect(post.headers.etag).toBeUndefined();
  });
});

import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { BookDto, LibraryDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { createSampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/** A real server with the sample library (Alpha: 2 books, Beta: 1, Broken: 1), as Komga's clients find it. */
export interface CompatServer {
  server: TestServer;
  library: LibraryDto;
  series: SeriesDto[];
  books: BookDto[];
  /**
   * Sends a request the way a Komga client does: `body` is sent byte for byte (a string) or as JSON
   * (anything else); `contentType` is sent as given, even with no body.
   */
  send(method: string, url: string, options?: { contentType?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
}

export async function startCompatServer(): Promise<CompatServer> {
  const server = await startServer();
  const library = await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
  const series = (await server.json<Page<SeriesDto>>('/api/v1/series?sort=metadata.titleSort,asc&unpaged=true')).content;
  const books = (await server.json<Page<BookDto>>('/api/v1/books?sort=metadata.numberSort,asc&sort=name&unpaged=true')).content;
  return {
    server,
    library,
    series,
    books,
    send(method, url, options = {}) {
      const headers: Record<string, string> = { ...server.admin, ...options.headers };
      if (options.contentType !== undefined) headers['content-type'] = options.contentType;
      const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      return server.app.inject({ method: method as 'GET', url, headers, payload });
    },
  };
}

/** The ids of a paged answer, failing with the body when the status is not 200. */
export function ids(response: LightMyRequestResponse): string[] {
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
  return (response.json() as Page<{ id: string }>).content.map((item) => item.id);
}

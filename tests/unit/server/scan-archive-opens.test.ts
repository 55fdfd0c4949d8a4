// A scanned book's file is opened once for its analysis, its poster and its barcode search: the
// analysis keeps its handle in the archive pool (server/media/archive-pool.ts, withCurrentHandle).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookDto, LibraryDto, Page } from '../../../src/api/types.ts';
import { openByContent } from '../../../server/media/analyse-container.ts';
import { BLUE, GREEN, RED, createCbz } from '../../fixtures/index.ts';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer | undefined;
afterEach(async () => server?.close());

const pages = [RED, GREEN, BLUE].map((color) => ({ width: 40, height: 60, color, format: 'png' as const }));

describe('background work after a scan', () => {
  it('opens each book once for its analysis, poster and barcode search, and reads a changed book afresh', async () => {
    const opens: string[] = [];
    server = await startServer({
      archivePool: {
        open: async (path) => {
          opens.push(path.split('/').pop()!);
          return openByContent(path);
        },
      },
    });
    const root = join(server.dir, 'library');
    for (const name of ['One', 'Two', 'Three']) await createCbz(join(root, 'S', `${name}.cbz`), pages);
    const created = await server.app.inject({ method: 'POST', url: '/api/v1/libraries', headers: server.admin, payload: { name: 'Comics', root } });
    expect(created.statusCode).toBe(200);
    await server.app.folio.tasks.idle();
    const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    expect(books.map((b) => b.media.status)).toEqual(['READY', 'READY', 'READY']);
    // Every book got its poster and was searched for a barcode (the option is on by default)...
    for (const book of books) expect((await server.json<unknown[]>(`/api/v1/books/${book.id}/thumbnails`)).length).toBe(1);
    const searches = await server.json<{ measurements: { statistic: string; value: number }[] }>('/actuator/metrics/komga.tasks.execution?tag=type:RefreshBookMetadata');
    expect(searches.measurements.find((m) => m.statistic === 'COUNT')?.value).toBe(3);
    // ...through the one handle its analysis opened.
    expect(opens.sort()).toEqual(['One.cbz', 'Three.cbz', 'Two.cbz']);

    // A book rewritten with another page: its next analysis reads the new file, not the kept handle.
    const two = books.find((b) => b.name === 'Two')!;
    await createCbz(join(root, 'S', 'Two.cbz'), [...pages, { width: 40, height: 60, color: RED, format: 'png' }]);
    const library = (await server.json<LibraryDto[]>('/api/v1/libraries'))[0]!;
    expect((await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/scan?deep=true`, headers: server.admin })).statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    expect((await server.json<BookDto>(`/api/v1/books/${two.id}`)).media.pagesCount).toBe(4);
  });
});

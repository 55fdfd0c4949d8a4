import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page, PageDto } from '../../../src/api/types.ts';
import { createSampleLibrary, type SampleLibrary } from '../../fixtures/index.ts';
import { addLibrary, rescan, startServer, type TestServer } from './helpers.ts';

/*
 * A book's file that is not there when its analysis opens it has been moved or removed: that is
 * the scan's to find out (a moved book keeps its id, its progress and its analysis; a removed one
 * goes to the trash). The analysis used to record it as unreadable (ERROR ERR_1000) and drop its
 * pages, so a book moved while it was being analysed came back, at its new place, as a broken book
 * with no pages until some later scan looked at it again.
 */

let server: TestServer;
let sample: SampleLibrary;
beforeEach(async () => {
  server = await startServer();
  sample = await createSampleLibrary(join(server.dir, 'library'));
});
afterEach(async () => {
  await server.close();
});

const bookNamed = async (name: string) =>
  (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content.find((b) => b.name === name)!;

describe('a book file moved away before its analysis reads it', () => {
  it('keeps its analysis, and the next scan finds it at its new place, readable', async () => {
    const library = await addLibrary(server, sample.root);
    const before = await bookNamed('Alpha 01');
    expect(before.media).toMatchObject({ status: 'READY', pagesCount: 3 });
    await server.app.inject({ method: 'PATCH', url: `/api/v1/books/${before.id}/read-progress`, headers: server.admin, payload: { page: 2 } });

    await mkdir(join(sample.root, 'Gamma'));
    await rename(sample.series[0]!.books[0]!.path, join(sample.root, 'Gamma', 'Alpha 01.cbz'));
    const analyse = await server.app.inject({ method: 'POST', url: `/api/v1/books/${before.id}/analyze`, headers: server.admin });
    expect(analyse.statusCode).toBe(202);
    await server.app.folio.tasks.idle();
    // The file is gone from where the book was: nothing is known of its content, nothing recorded.
    expect((await bookNamed('Alpha 01')).media).toMatchObject({ status: 'READY', pagesCount: 3, comment: '' });

    await rescan(server, library.id);
    const moved = await bookNamed('Alpha 01');
    expect(moved.id).toBe(before.id);
    expect(moved.url).toBe(join(sample.root, 'Gamma', 'Alpha 01.cbz'));
    expect(moved.media).toMatchObject({ status: 'READY', pagesCount: 3, comment: '' });
    expect(moved.readProgress?.page).toBe(2);
    const pages = await server.json<PageDto[]>(`/api/v1/books/${moved.id}/pages`);
    expect(pages).toHaveLength(3);
    expect((await server.get(`/api/v1/books/${moved.id}/pages/2`)).statusCode).toBe(200);
  });
});

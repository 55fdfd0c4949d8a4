import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page, SeriesDto } from '../../../src/api/types.ts';
import { MAGENTA, createSampleLibrary, renderPage } from '../../fixtures/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { addLibrary, basic, insertUser, startServer, type TestServer, multipartFile } from './helpers.ts';

let server: TestServer;
let book: BookDto;
let series: SeriesDto;
let upload: Buffer;

beforeAll(async () => {
  server = await startServer();
  await addLibrary(server, (await createSampleLibrary(join(server.dir, 'library'))).root);
  book = (await server.json<Page<BookDto>>('/api/v1/books?sort=name')).content[0]!;
  series = await server.json<SeriesDto>(`/api/v1/series/${book.seriesId}`);
  upload = await renderPage({ width: 40, height: 60, color: MAGENTA, format: 'png' });
});
afterAll(async () => {
  await server.close();
});


const post = (url: string, file: Buffer, headers = server.admin) => {
  const body = multipartFile(file);
  return server.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...headers, ...body.headers } });
};

describe('background poster generation', () => {
  it('draws posters of analysed books without being asked', async () => {
    const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    for (const b of books) {
      const row = server.app.folio.repos.thumbnails.findSelectedForBook(b.id);
      if (b.media.status === 'READY') expect(row?.type, b.name).toBe('GENERATED');
      else expect(row, b.name).toBeUndefined();
    }
  });
});

describe('book posters', () => {
  it('lists the generated poster, takes an upload, switches and deletes', async () => {
    const generated = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(generated.headers['content-type']).toBe('image/jpeg');
    const list = await server.json<{ id: string; type: string; selected: boolean; bookId: string }[]>(`/api/v1/books/${book.id}/thumbnails`);
    expect(list).toMatchObject([{ type: 'GENERATED', selected: true, bookId: book.id }]);

    const uploaded = await post(`/api/v1/books/${book.id}/thumbnails`, upload);
    expect(uploaded.statusCode).toBe(200);
    const dto = uploaded.json();
    expect(dto).toMatchObject({ bookId: book.id, type: 'USER_UPLOADED', selected: true, mediaType: 'image/png', width: 40, height: 60, fileSize: upload.length });
    const now = await server.get(`/api/v1/books/${book.id}/thumbnail`);
    expect(now.rawPayload.equals(upload)).toBe(true);
    expect((await server.get(`/api/v1/books/${book.id}/thumbnails/${dto.id}`)).rawPayload.equals(upload)).toBe(true);

    const select = await server.app.inject({ method: 'PUT', url: `/api/v1/books/${book.id}/thumbnails/${list[0]!.id}/selected`, headers: server.admin });
    expect(select.statusCode).toBe(202);
    expect((await server.get(`/api/v1/books/${book.id}/thumbnail`)).headers['content-type']).toBe('image/jpeg');

    const del = await server.app.inject({ method: 'DELETE', url: `/api/v1/books/${book.id}/thumbnails/${dto.id}`, headers: server.admin });
    expect(del.statusCode).toBe(202);
    expect(await server.json<unknown[]>(`/api/v1/books/${book.id}/thumbnails`)).toHaveLength(1);
  });

  it('rejects files that are not images, and uploads by non-admins', async () => {
    expect((await post(`/api/v1/books/${book.id}/thumbnails`, Buffer.from('not an image'))).statusCode).toBe(400);
    await insertUser(server, 'poster-reader@example.org', 'pw', []);
    const reader = { authorization: basic('poster-reader@example.org', 'pw') };
    expect((await post(`/api/v1/books/${book.id}/thumbnails`, upload, reader)).statusCode).toBe(403);
    expect((await server.get(`/api/v1/books/${book.id}/thumbnails`, reader)).statusCode).toBe(200);
    expect((await post('/api/v1/books/unknown/thumbnails', upload)).statusCode).toBe(404);
  });
});

describe('series, collection and read list posters', () => {
  it('an uploaded series poster replaces the first book cover', async () => {
    const response = await post(`/api/v1/series/${series.id}/thumbnails`, upload);
    expect(response.json()).toMatchObject({ seriesId: series.id, selected: true });
    expect((await server.get(`/api/v1/series/${series.id}/thumbnail`)).rawPayload.equals(upload)).toBe(true);
  });

  it('an uploaded collection or read list poster replaces the mosaic', async () => {
    const collection = (
      await server.app.inject({ method: 'POST', url: '/api/v1/collections', headers: server.admin, payload: { name: 'C', ordered: false, seriesIds: [series.id] } })
    ).json();
    expect((await server.get(`/api/v1/collections/${collection.id}/thumbnail`)).rawPayload.equals(upload)).toBe(false);
    expect((await post(`/api/v1/collections/${collection.id}/thumbnails`, upload)).json()).toMatchObject({ collectionId: collection.id });
    expect((await server.get(`/api/v1/collections/${collection.id}/thumbnail`)).rawPayload.equals(upload)).toBe(true);

    const list = (
      await server.app.inject({ method: 'POST', url: '/api/v1/readlists', headers: server.admin, payload: { name: 'R', ordered: true, bookIds: [book.id] } })
    ).json();
    expect((await post(`/api/v1/readlists/${list.id}/thumbnails`, upload)).json()).toMatchObject({ readListId: list.id });
    expect((await server.get(`/api/v1/readlists/${list.id}/thumbnail`)).rawPayload.equals(upload)).toBe(true);
  });
});

describe('uploads as komga-webui and komga-client (Komelia, komf) send them', () => {
  it('a `selected=false` field that arrives after the file is read: the upload does not take over the poster', async () => {
    const base = new URL(await server.app.listen({ port: 0, host: '127.0.0.1' }));
    let received = 0;
    server.app.server.on('connection', (socket: Socket) => socket.on('data', (chunk: Buffer) => (received += chunk.length)));
    const books = (await server.json<Page<BookDto>>('/api/v1/books?sort=name&unpaged=true')).content;
    const target = books.find((b) => b.id !== book.id && b.media.status === 'READY')!;
    const before = server.app.folio.repos.thumbnails.findSelectedForBook(target.id);
    // The file part first, then the field (the order of komga-webui's FormData and of komga-client);
    // the field's value reaches the server only once the whole file part has, as on a slow link.
    const boundary = 'folio-upload-boundary';
    const head = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=file; filename="cover"\r\n\r\n`),
      upload,
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name=selected\r\n\r\n`),
    ]);
    const tail = Buffer.from(`false\r\n--${boundary}--\r\n`);
    const request = httpRequest({
      host: base.hostname,
      port: base.port,
      method: 'POST',
      path: `/api/v1/books/${target.id}/thumbnails`,
      headers: { ...server.admin, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + tail.length },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.on('error', reject);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString() }));
      });
    });
    request.write(head);
    await pollUntil('the server to receive the file part', () => received >= head.length);
    request.end(tail);
    const { status, body } = await answer;
    expect(status, body).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ type: 'USER_UPLOADED', selected: false, fileSize: upload.length });
    expect(server.app.folio.repos.thumbnails.findSelectedForBook(target.id)?.id).toBe(before?.id);
  });
});

describe('local artwork', () => {
  it('uses cover.jpg in a series folder and <book>.png beside a book as SIDECAR posters', async () => {
    const { writeFile, rm } = await import('node:fs/promises');
    const { createCbz, RED, BLUE, GREEN } = await import('../../fixtures/index.ts');
    const root = join(server.dir, 'artwork');
    await createCbz(join(root, 'Saga', 'Saga 1.cbz'), [{ width: 30, height: 30, color: RED, format: 'png' }]);
    const seriesCover = await renderPage({ width: 20, height: 30, color: BLUE, format: 'jpeg' });
    const bookCover = await renderPage({ width: 22, height: 33, color: GREEN, format: 'png' });
    await writeFile(join(root, 'Saga', 'cover.jpg'), seriesCover);
    await writeFile(join(root, 'Saga', 'Saga 1.png'), bookCover);
    const library = await addLibrary(server, root, 'Artwork');
    const saga = (await server.json<Page<SeriesDto>>(`/api/v1/series?library_id=${library.id}`)).content[0]!;
    const sagaBook = (await server.json<Page<BookDto>>(`/api/v1/series/${saga.id}/books`)).content[0]!;
    expect((await server.get(`/api/v1/series/${saga.id}/thumbnail`)).rawPayload.equals(seriesCover)).toBe(true);
    expect((await server.get(`/api/v1/books/${sagaBook.id}/thumbnail`)).rawPayload.equals(bookCover)).toBe(true);
    expect(await server.json(`/api/v1/series/${saga.id}/thumbnails`)).toMatchObject([{ type: 'SIDECAR', selected: true, width: 20, height: 30 }]);

    // Removing the file drops the sidecar; the series falls back to its first book.
    await rm(join(root, 'Saga', 'cover.jpg'));
    await server.app.inject({ method: 'POST', url: `/api/v1/libraries/${library.id}/scan`, headers: server.admin });
    await server.app.folio.tasks.idle();
    expect(await server.json(`/api/v1/series/${saga.id}/thumbnails`)).toEqual([]);
    expect((await server.get(`/api/v1/series/${saga.id}/thumbnail`)).rawPayload.equals(bookCover)).toBe(true);
  });
});

describe('poster files follow their owners', () => {
  it('deleting a collection, a read list or a library removes the poster files the server stored', async () => {
    const { readdir } = await import('node:fs/promises');
    const { createSampleLibrary: sampleLibrary } = await import('../../fixtures/index.ts');
    const files = async (kind: string) => readdir(join(server.dataDir, 'thumbnails', kind)).catch(() => [] as string[]);
    const library = await addLibrary(server, (await sampleLibrary(join(server.dir, 'cleanup'))).root, 'Cleanup');
    const seriesOfLibrary = (await server.json<Page<SeriesDto>>(`/api/v1/series?library_id=${library.id}`)).content;
    const bookOfLibrary = (await server.json<Page<BookDto>>(`/api/v1/books?library_id=${library.id}&sort=name`)).content[0]!;
    await post(`/api/v1/series/${seriesOfLibrary[0]!.id}/thumbnails`, upload);
    const collection = (
      await server.app.inject({ method: 'POST', url: '/api/v1/collections', headers: server.admin, payload: { name: 'Tmp', ordered: false, seriesIds: [seriesOfLibrary[0]!.id] } })
    ).json();
    const list = (
      await server.app.inject({ method: 'POST', url: '/api/v1/readlists', headers: server.admin, payload: { name: 'TmpList', ordered: true, bookIds: [bookOfLibrary.id] } })
    ).json();
    await post(`/api/v1/collections/${collection.id}/thumbnails`, upload);
    await post(`/api/v1/readlists/${list.id}/thumbnails`, upload);
    const mine = (names: string[], id: string) => names.filter((n) => n.startsWith(id));
    expect(mine(await files('collections'), collection.id)).toHaveLength(1);
    expect(mine(await files('readlists'), list.id)).toHaveLength(1);

    await server.app.inject({ method: 'DELETE', url: `/api/v1/collections/${collection.id}`, headers: server.admin });
    await server.app.inject({ method: 'DELETE', url: `/api/v1/readlists/${list.id}`, headers: server.admin });
    expect(mine(await files('collections'), collection.id)).toHaveLength(0);
    expect(mine(await files('readlists'), list.id)).toHaveLength(0);

    expect(mine(await files('series'), seriesOfLibrary[0]!.id)).toHaveLength(1);
    expect(await files('books')).toContain(`${bookOfLibrary.id}.jpg`);
    await server.app.inject({ method: 'DELETE', url: `/api/v1/libraries/${library.id}`, headers: server.admin });
    expect(mine(await files('series'), seriesOfLibrary[0]!.id)).toHaveLength(0);
    expect(await files('books')).not.toContain(`${bookOfLibrary.id}.jpg`);
  });
});

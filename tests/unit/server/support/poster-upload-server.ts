import { join } from 'node:path';
import { GREEN, MAGENTA, createCbz, renderPage } from '../../../fixtures/index.ts';
import { addLibrary, startServer, type TestServer } from '../helpers.ts';

/** A server holding one single-page book in one series, and an image to upload as a poster. */
export interface PosterUploadServer {
  server: TestServer;
  bookId: string;
  seriesId: string;
  /** A 40×60 magenta PNG: unlike any drawn poster of the green book. */
  upload: Buffer;
}

export async function startPosterUploadServer(options: Parameters<typeof startServer>[0] = {}): Promise<PosterUploadServer> {
  const server = await startServer(options);
  const root = join(server.dir, 'library');
  await createCbz(join(root, 'Series', 'A.cbz'), [{ width: 20, height: 30, color: GREEN, format: 'png' }]);
  const library = await addLibrary(server, root);
  const book = server.app.folio.repos.books.findByLibrary(library.id)[0]!;
  const upload = await renderPage({ width: 40, height: 60, color: MAGENTA, format: 'png' });
  return { server, bookId: book.id, seriesId: book.seriesId, upload };
}

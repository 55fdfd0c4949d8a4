import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisThreads } from '../../../server/domain/analysis/analysis-threads.ts';
import { analyseContainer } from '../../../server/media/analyse-container.ts';
import { MediaError } from '../../../server/media/book-reader.ts';
import { isTransientFailure } from '../../../server/media/transient-errors.ts';
import { BLUE, GREEN, RED, createBrokenCbz, createCbz, lyingPng } from '../../fixtures/index.ts';
import { createImageEpub } from '../../fixtures/epub.ts';
import { writeRar5 } from '../../fixtures/rar.ts';
import { renderPage } from '../../fixtures/comics.ts';
import { addLibrary, startServer } from './helpers.ts';

/*
 * Zip-based books are analysed in threads of their own (synchronous reads there, none of yauzl's
 * work on the main thread). What a thread finds must be exactly what the main thread's path finds,
 * failures included, and the thread must apply the same symlink containment.
 */

let dir: string;
let library: string;
let threads: AnalysisThreads;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-analysis-threads-'));
  library = join(dir, 'library');
  await mkdir(library, { recursive: true });
  threads = new AnalysisThreads(2);
});

afterAll(async () => {
  await threads.close();
  await rm(dir, { recursive: true, force: true });
});

/** The thread's analysis next to the main thread's, without the reader object. */
async function bothWays(path: string, withDimensions = true) {
  const inThread = await threads.analyse({ filePath: path, libraryRoots: [library], withDimensions });
  const { reader, ...here } = await analyseContainer(path, withDimensions);
  return { inThread, here: { ...here, mediaType: reader.mediaType } };
}

/** The error a promise rejects with (failing the test when it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('analysis threads', () => {
  it('find in a CBZ, deflated or stored, with a bad page and a non-image, what the main thread finds', async () => {
    const stored = await createCbz(join(library, 'Stored.cbz'), [
      { width: 40, height: 60, color: RED, format: 'jpeg' },
      { width: 30, height: 20, color: GREEN, format: 'png' },
    ], { comicInfo: { title: 'Stored' }, extraEntries: [{ name: 'z-bad.png', data: lyingPng() }] });
    const deflated = await createCbz(join(library, 'Deflated.cbz'), [
      { width: 50, height: 70, color: BLUE, format: 'webp' },
    ], { compress: true });
    for (const path of [stored.path, deflated.path]) {
      const { inThread, here } = await bothWays(path);
      expect(inThread).toEqual(here);
    }
    const { inThread } = await bothWays(stored.path);
    expect(inThread?.mediaType).toBe('application/zip');
    expect(inThread?.pages.map((p) => [p.width, p.height])).toEqual([[40, 60], [30, 20], [null, null]]);
    expect(inThread?.failedEntries).toEqual(['z-bad.png']);
    // Without dimensions, as a library that does not analyse them asks.
    const without = await bothWays(stored.path, false);
    expect(without.inThread).toEqual(without.here);
  });

  it('find in an EPUB what the main thread finds', async () => {
    const epub = await createImageEpub(join(library, 'Images.epub'), [
      { width: 30, height: 45, color: RED, format: 'png' },
      { width: 32, height: 48, color: GREEN, format: 'jpeg' },
    ]);
    const { inThread, here } = await bothWays(epub.path);
    expect(inThread).toEqual(here);
    expect(inThread?.mediaType).toBe('application/epub+zip');
  });

  it('hand a .cbz whose content is another format back to the main thread', async () => {
    const path = await writeRar5(join(library, 'Really a RAR.cbz'), [
      { name: 'page-1.png', data: await renderPage({ width: 10, height: 10, color: RED, format: 'png' }) },
    ]);
    expect(await threads.analyse({ filePath: path, libraryRoots: [library], withDimensions: true })).toBeUndefined();
  });

  it('fail a broken file with the code the main thread gives it', async () => {
    const path = await createBrokenCbz(join(library, 'Broken.cbz'));
    const inThread = await failureOf(threads.analyse({ filePath: path, libraryRoots: [library], withDimensions: true }));
    const here = await failureOf(analyseContainer(path));
    expect(inThread).toBeInstanceOf(MediaError);
    expect((inThread as MediaError).code).toBe((here as MediaError).code);
    // A truncated zip: it starts like one, its directory is gone.
    const real = await createCbz(join(dir, 'whole.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    const bytes = await readFile(real.path);
    const truncated = join(library, 'Truncated.cbz');
    await writeFile(truncated, bytes.subarray(0, bytes.length - 30));
    const cut = await failureOf(threads.analyse({ filePath: truncated, libraryRoots: [library], withDimensions: true }));
    expect((cut as MediaError).code).toBe(((await failureOf(analyseContainer(truncated))) as MediaError).code);
    expect(isTransientFailure(cut)).toBe(false);
  });

  it('refuse a book that is a link out of its library, before opening it (ERR_1000)', async () => {
    const outside = await createCbz(join(dir, 'outside', 'Secret.cbz'), [{ width: 10, height: 10, color: RED, format: 'png' }]);
    const link = join(library, 'Link.cbz');
    await symlink(outside.path, link);
    const refused = await failureOf(threads.analyse({ filePath: link, libraryRoots: [library], withDimensions: true }));
    expect(refused).toBeInstanceOf(MediaError);
    expect((refused as MediaError).code).toBe('ERR_1000');
    expect((refused as MediaError).message).toMatch(/not inside the library/);
  });

  it('keep a missing file a file failure, and an errno under it visible to the transient check', async () => {
    const missing = await failureOf(threads.analyse({ filePath: join(library, 'Gone.cbz'), libraryRoots: [library], withDimensions: true }));
    expect((missing as MediaError).code).toBe('ERR_1000');
    // ENOENT is the file's fault, not the server's: recorded, not retried.
    expect(isTransientFailure(missing)).toBe(false);
    expect(((missing as MediaError).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});

describe('a scan', () => {
  it('analyses its zip-based books in the analysis threads and the others on the main thread', async () => {
    const server = await startServer();
    try {
      const root = join(server.dir, 'comics');
      await createCbz(join(root, 'Series', 'One.cbz'), [{ width: 20, height: 30, color: RED, format: 'png' }]);
      await createCbz(join(root, 'Series', 'Two.cbz'), [{ width: 20, height: 30, color: GREEN, format: 'jpeg' }]);
      await createImageEpub(join(root, 'Series', 'Three.epub'), [{ width: 20, height: 30, color: BLUE, format: 'png' }]);
      await writeRar5(join(root, 'Series', 'Four.cbr'), [
        { name: 'page-1.png', data: await renderPage({ width: 20, height: 30, color: RED, format: 'png' }) },
      ]);
      const created = await addLibrary(server, root);
      const books = server.app.folio.repos.books.findByLibrary(created.id);
      expect(books.map((b) => server.app.folio.repos.media.findByBookId(b.id)?.status)).toEqual(['READY', 'READY', 'READY', 'READY']);
      // Three zip-based books went to the threads; the RAR was read on the main thread's path.
      expect(server.app.folio.analysisThreads.analysed).toBe(3);
    } finally {
      await server.close();
    }
  });
});

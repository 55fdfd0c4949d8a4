/**
 * What the first WebPub manifest of an EPUB costs once the book's archive handle is no longer
 * open (a scan of other books since, or many readers: the archive pool keeps a bounded number):
 * the manifest opens the book again and, unless the package document parsed at analysis is kept,
 * parses it again. Books of `CHAPTERS` chapters (a 1,000-chapter package is ~150 KB, parsed in the
 * XML worker), each analysed into a pool of one handle, so every first manifest opens its book
 * afresh; the book's JSON (one row) measured in the same run is the floor.
 * In-process real server (buildApp, real SQLite). Environment: BENCH_BOOKS (8), CHAPTERS (1000).
 * Prints a table and the load average; writes nothing.
 */
import { mkdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createReflowableEpub } from '../tests/fixtures/epub.ts';
import { addLibrary, startServer } from '../tests/unit/server/helpers.ts';
import type { BookDto, Page } from '../src/api/types.ts';
import { median, percentile, round } from './lib/stats.ts';

const BOOKS = Number(process.env.BENCH_BOOKS ?? 8);
const CHAPTERS = Number(process.env.CHAPTERS ?? 1000);

const server = await startServer({ archivePool: { capacity: 1 } });
try {
  const root = join(server.dir, 'library');
  for (let b = 0; b < BOOKS; b++) {
    await mkdir(join(root, `Long ${b}`), { recursive: true });
    await createReflowableEpub(
      join(root, `Long ${b}`, `Long ${b}.epub`),
      Array.from({ length: CHAPTERS }, (_, i) => ({ title: `Part ${i + 1}`, body: `<h1>Part ${i + 1}</h1><p>Words ${b}.</p>` })),
      { title: `Long ${b}` },
    );
  }
  await addLibrary(server, root);
  const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
  if (books.length !== BOOKS || books.some((book) => book.media.status !== 'READY')) throw new Error('books not analysed');
  const timed = async (url: string) => {
    const started = performance.now();
    const response = await server.get(url);
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
    return performance.now() - started;
  };
  const first: number[] = [];
  const floor: number[] = [];
  // Each book's first manifest, in the order opposite to analysis: its handle is long gone.
  for (const book of books.reverse()) {
    floor.push(await timed(`/api/v1/books/${book.id}`));
    first.push(await timed(`/api/v1/books/${book.id}/manifest/epub`));
  }
  const base = median(floor);
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${BOOKS} books of ${CHAPTERS} chapters, archive pool of 1 handle`);
  console.log('| request | median ms | p95 ms | median / floor |');
  console.log('| --- | --- | --- | --- |');
  console.log(`| first manifest, handle closed | ${round(median(first), 1)} | ${round(percentile(first, 95), 1)} | ${round(median(first) / base, 1)} |`);
  console.log(`| book JSON (floor) | ${round(base, 1)} | ${round(percentile(floor, 95), 1)} | 1 |`);
} finally {
  await server.close();
  await rm(server.dir, { recursive: true, force: true });
}

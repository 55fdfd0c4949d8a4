import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContainerAnalysis, analyseContainer, detectReader } from '../../../../server/media/analyse-container.ts';
import { MediaError, type OpenedBook } from '../../../../server/media/book-reader.ts';
import { readAhead } from '../../../../server/domain/pages/entry-body.ts';
import { type ReadiumReads, readComicInfoLikeImport, readLikeReadium } from './book-reads.ts';
import { CASE_MEMORY_BOUND, fuzzOptions, mutate, mutationsArbitrary, withinMemory, withinTime } from './mutations.ts';
import { type FuzzSeed, writeSeeds } from './seeds.ts';

/*
 * Every archive reader against damaged copies of real books the test writes (seeds.ts): analysis,
 * reading every page, and what the server reads besides (ComicInfo.xml, an EPUB's package,
 * navigation, cover and resources) either succeed or fail with a MediaError (a Komga error code).
 * No other exception, no hang; each case's peak memory stays under CASE_MEMORY_BOUND, and the
 * whole run's growth bounded.
 */

let dir: string;
const seeds = new Map<string, FuzzSeed>();
const CASE_MS = 15_000;
const MEMORY_GROWTH_BOUND = 512 * 1024 * 1024;
const SIGNATURE_BYTES = 8;
const SEED_NAMES = ['zip', 'rar4', 'rar5', 'pdf', 'epub-images', 'epub-text', '7z'];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-fuzz-'));
  for (const seed of await writeSeeds(dir)) seeds.set(seed.name, seed);
  expect([...seeds.keys()]).toEqual(SEED_NAMES);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Analyses a file, reads what the server reads besides its pages (book-reads.ts) and the pages it
 * lists as the page route does (readPage). Each fails only with a MediaError, and nothing may
 * escape as an uncaught exception — vitest fails the run on one.
 */
async function exercise(file: string): Promise<Exercised | undefined> {
  let analysis;
  try {
    analysis = await analyseContainer(file);
  } catch (error) {
    if (error instanceof MediaError) return undefined;
    throw error;
  }
  const book = await analysis.reader.open(file);
  try {
    const done: Exercised = { analysis, comicInfo: await readComicInfoLikeImport(book), pagesRead: 0 };
    if (analysis.reader.mediaProfile === 'EPUB') done.readium = await readLikeReadium(book);
    for (const page of analysis.pages.slice(0, 8)) {
      try {
        await readPage(book, page);
        done.pagesRead++;
      } catch (error) {
        if (!(error instanceof MediaError)) throw error;
      }
    }
    return done;
  } finally {
    book.close();
  }
}

/** Largest page read whole here, as the archive pool's budget would let one be. */
const WHOLE_PAGE_BYTES = 16 * 1024 * 1024;

/**
 * A page read as the page route reads it (page-content.ts: servedPage): drawn (PDF), else whole
 * into a buffer of its listed size where the format can, else streamed through readAhead. Each
 * fails only with a MediaError: what the route answers with a code, or a cut response names.
 */
async function readPage(book: OpenedBook, page: ContainerAnalysis['pages'][number]): Promise<void> {
  if (book.renderPage) {
    await book.renderPage(page.fileName, { format: 'jpeg', maxWidth: 64, maxHeight: 64 });
    return;
  }
  if (book.readWhole && page.fileSize !== null && page.fileSize <= WHOLE_PAGE_BYTES) {
    if (await book.readWhole(page.fileName, Buffer.allocUnsafe(page.fileSize))) return;
  }
  const body = await readAhead(await book.openEntry(page.fileName), `page ${page.fileName}`);
  for await (const chunk of body.stream) void chunk;
}

/** What exercise() read of a book: the undamaged seeds must be read whole, or the fuzz is blind. */
interface Exercised {
  analysis: ContainerAnalysis;
  comicInfo: Awaited<ReturnType<typeof readComicInfoLikeImport>>;
  readium?: ReadiumReads;
  pagesRead: number;
}

it('reads the undamaged seeds whole: every part the fuzz damages is one the server reads', async () => {
  const read = new Map<string, Exercised | undefined>();
  for (const name of SEED_NAMES) read.set(name, await exercise(await writeCase(seeds.get(name)!, seeds.get(name)!.bytes)));
  for (const name of SEED_NAMES) {
    expect(read.get(name)?.analysis.failedEntries, name).toEqual([]);
    expect(read.get(name)?.pagesRead, name).toBe(read.get(name)?.analysis.pages.length);
  }
  expect(read.get('zip')?.comicInfo?.book.title).toBe('Seed');
  expect(read.get('pdf')?.analysis.pages).toHaveLength(2);
  expect(read.get('epub-images')?.analysis.epubDivinaCompatible).toBe(true);
  const text = read.get('epub-text')!;
  expect(text.analysis.epubDivinaCompatible).toBe(false);
  expect(text.analysis.pageCount).toBeGreaterThan(3);
  expect(text.readium?.readingOrder).toEqual(['OEBPS/text/cover.xhtml', 'OEBPS/text/ch1.xhtml', 'OEBPS/text/ch2.xhtml', 'OEBPS/text/ch3.xhtml']);
  expect(text.readium?.navigation.toc.map((link) => link.title)).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
  expect(text.readium?.navigation.landmarks).toHaveLength(2);
  expect(text.readium?.navigation.pageList).toHaveLength(3);
  expect(text.readium?.problems).toEqual([]);
  expect(text.readium?.cover).toBeGreaterThan(0);
  expect(text.readium?.resources).toHaveLength(8);
});

describe.each(SEED_NAMES)('fuzzing the %s reader', (name) => {
  it('survives damaged files: a MediaError or a result, never a crash, a hang or unbounded memory', async () => {
    const seed = seeds.get(name)!;
    // The undamaged seed is read as the format it is.
    await exercise(await writeCase(seed, seed.bytes));
    const rssBefore = process.memoryUsage().rss;
    let n = 0;
    await fc.assert(
      fc.asyncProperty(mutationsArbitrary, async (mutations) => {
        // The signature is put back: damage anywhere else must reach the format's own reader, which
        // a broken first byte would turn away at detection (ERR_1001) before it reads anything.
        const damaged = mutate(seed.bytes, mutations);
        seed.bytes.copy(damaged, 0, 0, Math.min(SIGNATURE_BYTES, damaged.length));
        const file = await writeCase(seed, damaged, n++);
        await withinTime(CASE_MS, `${name} case ${n}`, () => withinMemory(CASE_MEMORY_BOUND, `${name} case ${n}`, () => exercise(file)));
        await rm(file, { force: true });
      }),
      fuzzOptions(seed.share),
    );
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(MEMORY_GROWTH_BOUND);
  }, 120_000 + fuzzOptions().numRuns * 2_000);
});

async function writeCase(seed: FuzzSeed, bytes: Buffer, n = 0): Promise<string> {
  const file = join(dir, `case-${seed.name}-${n}.${seed.extension}`);
  await writeFile(file, bytes);
  return file;
}

it('detects the seed formats by content', async () => {
  const detected = await Promise.all(SEED_NAMES.map((name) => detectReader(join(dir, `seed-${name}.${seeds.get(name)!.extension}`))));
  expect(detected.map((reader) => reader.mediaType)).toEqual([
    'application/zip',
    'application/x-rar-compressed; version=4',
    'application/x-rar-compressed; version=5',
    'application/pdf',
    'application/epub+zip',
    'application/epub+zip',
    'application/x-7z-compressed',
  ]);
});

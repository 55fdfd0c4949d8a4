import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseContainer, detectReader } from '../../../../server/media/analyse-container.ts';
import { MediaError } from '../../../../server/media/book-reader.ts';
import { createImageEpub } from '../../../fixtures/epub.ts';
import { createCbz, renderPage } from '../../../fixtures/index.ts';
import { writePdf } from '../../../fixtures/pdf.ts';
import { writeRar4, writeRar5 } from '../../../fixtures/rar.ts';
import { writeSevenZip } from '../../../fixtures/sevenzip.ts';
import { CASE_MEMORY_BOUND, FUZZ_RUNS, mutate, mutationsArbitrary, withinMemory, withinTime } from './mutations.ts';

/*
 * Every archive reader against damaged copies of real books the test writes: analysis and reading
 * every page either succeed or fail with a MediaError (a Komga error code). No other exception, no
 * hang; each case's peak memory stays under CASE_MEMORY_BOUND, and the whole run's growth bounded.
 */

let dir: string;
const seeds = new Map<string, Buffer>();
const CASE_MS = 15_000;
const MEMORY_GROWTH_BOUND = 512 * 1024 * 1024;
const SIGNATURE_BYTES = 8;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-fuzz-'));
  const png = await renderPage({ width: 24, height: 36, color: [200, 40, 40], format: 'png' });
  const jpeg = await renderPage({ width: 24, height: 36, color: [40, 200, 40], format: 'jpeg' });
  const pages = [
    { width: 24, height: 36, color: [200, 40, 40] as [number, number, number], format: 'png' as const },
    { width: 24, height: 36, color: [40, 200, 40] as [number, number, number], format: 'jpeg' as const },
  ];
  await createCbz(join(dir, 'seed.cbz'), pages, { comicInfo: { title: 'Seed', series: 'Fuzz', number: '1' }, compress: true });
  seeds.set('zip', await readFile(join(dir, 'seed.cbz')));
  await writeRar4(join(dir, 'seed4.cbr'), [{ name: '001.png', data: png }, { name: '002.jpg', data: jpeg }]);
  seeds.set('rar4', await readFile(join(dir, 'seed4.cbr')));
  await writeRar5(join(dir, 'seed5.cbr'), [{ name: '001.png', data: png }, { name: '002.jpg', data: jpeg }]);
  seeds.set('rar5', await readFile(join(dir, 'seed5.cbr')));
  await writePdf(join(dir, 'seed.pdf'), [{ width: 200, height: 300, color: [1, 0, 0] }, { width: 300, height: 200, color: [0, 0, 1] }]);
  seeds.set('pdf', await readFile(join(dir, 'seed.pdf')));
  await createImageEpub(join(dir, 'seed.epub'), pages);
  seeds.set('epub', await readFile(join(dir, 'seed.epub')));
  await writeSevenZip(join(dir, 'seed.cb7'), [{ name: '001.png', data: png }, { name: '002.jpg', data: jpeg }]);
  seeds.set('7z', await readFile(join(dir, 'seed.cb7')));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const EXTENSIONS: Record<string, string> = { zip: 'cbz', rar4: 'cbr', rar5: 'cbr', pdf: 'pdf', epub: 'epub', '7z': 'cb7' };

/**
 * Analyses a file and reads every page it lists. Analysis and opening fail only with a MediaError;
 * a page's stream may end in an error (a damaged entry: the client sees a cut download), but
 * nothing may escape as an uncaught exception — vitest fails the run on one.
 */
async function exercise(file: string): Promise<void> {
  let analysis;
  try {
    analysis = await analyseContainer(file);
  } catch (error) {
    if (error instanceof MediaError) return;
    throw error;
  }
  const book = await analysis.reader.open(file);
  try {
    for (const page of analysis.pages.slice(0, 8)) {
      try {
        if (book.renderPage) await book.renderPage(page.fileName, { format: 'jpeg', maxWidth: 64, maxHeight: 64 });
        else for await (const chunk of await book.openEntry(page.fileName)) void chunk;
      } catch (error) {
        if (!(error instanceof Error)) throw error;
      }
    }
  } finally {
    book.close();
  }
}

describe.each(['zip', 'rar4', 'rar5', 'pdf', 'epub', '7z'])('fuzzing the %s reader', (format) => {
  it('survives damaged files: a MediaError or a result, never a crash, a hang or unbounded memory', async () => {
    const seed = seeds.get(format)!;
    // The undamaged seed is read as the format it is.
    await exercise(await writeCase(format, seed));
    const rssBefore = process.memoryUsage().rss;
    let n = 0;
    await fc.assert(
      fc.asyncProperty(mutationsArbitrary, async (mutations) => {
        // The signature is put back: damage anywhere else must reach the format's own reader, which
        // a broken first byte would turn away at detection (ERR_1001) before it reads anything.
        const damaged = mutate(seed, mutations);
        seed.copy(damaged, 0, 0, Math.min(SIGNATURE_BYTES, damaged.length));
        const file = await writeCase(format, damaged, n++);
        await withinTime(CASE_MS, `${format} case ${n}`, () => withinMemory(CASE_MEMORY_BOUND, `${format} case ${n}`, () => exercise(file)));
        await rm(file, { force: true });
      }),
      { numRuns: FUZZ_RUNS, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(MEMORY_GROWTH_BOUND);
  }, 120_000 + FUZZ_RUNS * 2_000);
});

async function writeCase(format: string, bytes: Buffer, n = 0): Promise<string> {
  const file = join(dir, `case-${format}-${n}.${EXTENSIONS[format]}`);
  await writeFile(file, bytes);
  return file;
}

it('detects the seed formats by content', async () => {
  expect((await detectReader(join(dir, 'seed.cbz'))).mediaType).toBe('application/zip');
});

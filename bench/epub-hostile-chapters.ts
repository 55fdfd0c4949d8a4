/**
 * What hostile EPUB chapters cost the server: a book of a 50 MB stylesheet, a chapter of 50 MB of
 * inline CSS, one of 1,000,000 elements, one of SVG nested 100,000 deep and a `<use>` reference
 * bomb (10^6 instances). Analysis reads at most 256 KiB of each reading-order document (image-only
 * check) and nothing of stylesheets; resources are streamed as stored, never parsed. Printed: the
 * analysis's wall time and the process's peak RSS growth, then each resource served (wall ms,
 * bytes), against a 10-chapter ordinary book analysed in the same run (the floor).
 * In-process real server (buildApp, real SQLite). Prints a table and the load average.
 */
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { opfXml, writeEpub } from '../tests/fixtures/epub.ts';
import { createReflowableEpub } from '../tests/fixtures/epub.ts';
import { addLibrary, startServer } from '../tests/unit/server/helpers.ts';
import type { BookDto, Page } from '../src/api/types.ts';
import { round } from './lib/stats.ts';

const xhtml = (style: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title>${style}</head><body>${body}</body></html>`;
function useBomb(levels: number, fan: number): string {
  let defs = '<g id="l0"><rect width="1" height="1"/></g>';
  for (let l = 1; l <= levels; l++) defs += `<g id="l${l}">${Array.from({ length: fan }, () => `<use href="#l${l - 1}"/>`).join('')}</g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs>${defs}</defs><use href="#l${levels}"/></svg>`;
}
const chapters: [string, string][] = [
  ['css-inline.xhtml', xhtml(`<style>${'.a{color:red}\n'.repeat(50_000_000 / 14)}</style>`, '<p>x</p>')],
  ['elements.xhtml', xhtml('', '<p>x</p>'.repeat(1_000_000))],
  ['svg-deep.xhtml', xhtml('', `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(100_000)}${'</g>'.repeat(100_000)}</svg>`)],
  ['use-bomb.xhtml', xhtml('', useBomb(6, 10))],
];

const server = await startServer();
try {
  const root = join(server.dir, 'library');
  const manifest = [
    ...chapters.map(([name], i) => ({ id: `c${i}`, href: name, mediaType: 'application/xhtml+xml' })),
    { id: 'css', href: 'big.css', mediaType: 'text/css' },
  ];
  await writeEpub(join(root, 'Hostile', 'Hostile.epub'), [
    ...chapters.map(([name, data]) => ({ name: `OEBPS/${name}`, data })),
    { name: 'OEBPS/big.css', data: '.b{color:blue}\n'.repeat(50_000_000 / 15) },
    { name: 'OEBPS/content.opf', data: opfXml({ metadata: '<dc:title>Hostile</dc:title>', manifest, spine: chapters.map((_, i) => `c${i}`) }) },
  ]);
  await createReflowableEpub(join(root, 'Plain', 'Plain.epub'), Array.from({ length: 10 }, (_, i) => ({ title: `Part ${i}`, body: '<p>Words.</p>'.repeat(200) })), { title: 'Plain' });
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  await addLibrary(server, root);
  const analysisMs = performance.now() - started;
  clearInterval(sampler);
  const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
  const hostile = books.find((book) => book.name === 'Hostile')!;
  const plain = books.find((book) => book.name === 'Plain')!;
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`analysis of both books: ${round(analysisMs, 0)} ms, peak RSS +${round((peak - rssBefore) / 1e6, 0)} MB; hostile ${hostile.media.status} ${hostile.media.comment || '(no comment)'} ${hostile.media.pagesCount} pages`);
  console.log('| resource | bytes | wall ms | status |');
  console.log('| --- | --- | --- | --- |');
  const serve = async (id: string, path: string) => {
    const t0 = performance.now();
    const response = await server.get(`/api/v1/books/${id}/resource/${path}`);
    console.log(`| ${path} | ${response.rawPayload.length} | ${round(performance.now() - t0, 1)} | ${response.statusCode} |`);
  };
  await serve(plain.id, 'OEBPS/text/ch0001.xhtml');
  for (const [name] of chapters) await serve(hostile.id, `OEBPS/${name}`);
  await serve(hostile.id, 'OEBPS/big.css');
  const m0 = performance.now();
  const manifestResponse = await server.get(`/api/v1/books/${hostile.id}/manifest`);
  console.log(`manifest of the hostile book: ${manifestResponse.statusCode} in ${round(performance.now() - m0, 1)} ms`);
} finally {
  await server.close();
  await rm(server.dir, { recursive: true, force: true });
}

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { analysisBounds } from '../../../server/media/analysis-bounds.ts';
import { sevenZip } from '../../../server/media/sevenzip-client.ts';
import { opfXml } from '../../fixtures/epub.ts';
import { oddZip } from '../../fixtures/odd-zip.ts';
import { sevenZipPayload } from '../../fixtures/zip-methods.ts';
import { addLibrary, startServer, type TestServer } from './helpers.ts';

/*
 * A hostile EPUB whose navigation document is stored with BZIP2 (the zip reader takes it, the
 * EPUB format does not): 7-Zip unpacks it in its pool, within the pool's time limit. Read for a
 * Readium reader, it gets a request's bounds, as a page does: one 7-Zip call, 503 when it runs out
 * of time, and the publication is not kept with an empty table of contents. (It got analysis's:
 * every time-out made again up to the book's bound on 7-Zip's time, about 6 minutes, then an
 * empty table of contents, cached.)
 */

let server: TestServer;
const defaultLimit = sevenZip.timeLimitMs;
const defaultWorkMs = analysisBounds.workMs;

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;
const NAV = `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body>
<nav epub:type="toc"><ol><li><a href="ch1.xhtml">First</a></li><li><a href="ch2.xhtml">Second</a></li></ol></nav>
</body></html>`;
const chapter = (n: number) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>C${n}</title></head><body><p>${'Words of a chapter. '.repeat(100)}</p></body></html>`;

async function writeBzip2NavEpub(path: string): Promise<void> {
  const opf = opfXml({
    metadata: '    <dc:title>Packed</dc:title>\n    <dc:identifier id="uid">urn:uuid:packed</dc:identifier>',
    manifest: [
      { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' },
      { id: 'c1', href: 'ch1.xhtml', mediaType: 'application/xhtml+xml' },
      { id: 'c2', href: 'ch2.xhtml', mediaType: 'application/xhtml+xml' },
    ],
    spine: ['c1', 'c2'],
  });
  const nav = Buffer.from(NAV);
  const packed = await sevenZipPayload(nav, 'BZip2');
  await writeFile(
    path,
    oddZip([
      { name: 'mimetype', data: Buffer.from('application/epub+zip', 'latin1'), utf8: false },
      { name: 'META-INF/container.xml', data: Buffer.from(CONTAINER) },
      { name: 'OEBPS/content.opf', data: Buffer.from(opf) },
      { name: 'OEBPS/nav.xhtml', data: nav, method: packed.method, payload: packed.payload },
      { name: 'OEBPS/ch1.xhtml', data: Buffer.from(chapter(1)) },
      { name: 'OEBPS/ch2.xhtml', data: Buffer.from(chapter(2)) },
    ]),
  );
}

beforeEach(async () => {
  server = await startServer();
  const root = join(server.dir, 'library');
  for (const series of ['Control', 'Slow']) {
    await mkdir(join(root, series), { recursive: true });
    await writeBzip2NavEpub(join(root, series, `${series.toLowerCase()}.epub`));
  }
  await addLibrary(server, root);
});
afterEach(async () => {
  Object.defineProperty(sevenZip, 'timeLimitMs', { configurable: true, writable: true, enumerable: true, value: defaultLimit });
  analysisBounds.workMs = defaultWorkMs;
  await server.close();
});

/** Every 7-Zip call from now on gets a 1 ms limit (a fresh worker is slower than that to start). */
function timeOutEveryCall(): void {
  Object.defineProperty(sevenZip, 'timeLimitMs', { configurable: true, get: () => 1 });
}

const books = async () => (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;

describe('an EPUB navigation document stored with BZIP2, read for a reader', () => {
  it('runs out of time once: 503 after one 7-Zip call, refused at once after that, never kept with an empty table of contents', async () => {
    const all = await books();
    expect(all.map((b) => [b.name, b.media.status])).toEqual([
      ['control', 'READY'],
      ['slow', 'READY'],
    ]);
    const [control, slow] = all;
    // The same book read in time: its table of contents comes out of the BZIP2 entry.
    const readable = await server.json<{ toc: { title: string }[] }>(`/api/v1/books/${control!.id}/manifest`);
    expect(readable.toc.map((l) => l.title)).toEqual(['First', 'Second']);

    await sevenZip.stop();
    // Analysis's bound on 7-Zip's time made tiny: a read that went by it would end at once (empty table of contents) rather than after minutes.
    analysisBounds.workMs = 3;
    timeOutEveryCall();
    const calls = sevenZip.calls;
    const timedOut = await server.get(`/api/v1/books/${slow!.id}/manifest`);
    expect(timedOut.statusCode).toBe(503);
    expect(timedOut.headers['retry-after']).toBeDefined();
    expect(sevenZip.calls - calls).toBe(1);

    // Not kept: the next reader is refused at once (the entry ran out of time lately), without 7-Zip.
    const again = await server.get(`/api/v1/books/${slow!.id}/manifest`);
    expect(again.statusCode).toBe(503);
    expect(sevenZip.calls - calls).toBe(1);
  });
});

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { MalformedComicInfoError, readComicInfo } from '../../../server/domain/metadata/comicinfo.ts';
import { INLINE_MAX_CHARS } from '../../../server/media/xml-parsing.ts';
import { opfXml, writeEpub } from '../../fixtures/epub.ts';
import { addLibrary, loggedLines, startServer, type TestServer } from './helpers.ts';

/*
 * Entities a DOCTYPE declares. Plain text ones are expanded (as Komga's Woodstox does); external
 * ones are never read; ones defined by other entities (the "billion laughs") are never expanded,
 * and the document is refused saying so, rather than imported with "&lol9;" as its title.
 */
const LAUGHS =
  '<!ENTITY lol "lol">' +
  Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('');

const comicInfo = (doctype: string, title: string, padding = '') =>
  `<?xml version="1.0"?><!DOCTYPE ComicInfo [${doctype}]><ComicInfo><Title>${title}</Title><Series>Laughs</Series><Summary>${padding}</Summary></ComicInfo>`;

describe('ComicInfo.xml with a DOCTYPE', () => {
  it('expands an entity of plain text', async () => {
    const patch = await readComicInfo(comicInfo('<!ENTITY pub "Dawn Press">', '&pub; Annual'), 'ComicInfo.xml');
    expect(patch?.book.title).toBe('Dawn Press Annual');
  });

  // Small documents are parsed where they are read, large ones in the XML worker: the same refusal.
  for (const [where, padding] of [
    ['parsed inline', ''],
    ['parsed in the XML worker', 'x'.repeat(INLINE_MAX_CHARS)],
  ] as const) {
    it(`refuses entities defined by other entities, naming one (${where})`, async () => {
      const read = readComicInfo(comicInfo(LAUGHS, '&lol9;', padding), 'ComicInfo.xml');
      await expect(read).rejects.toBeInstanceOf(MalformedComicInfoError);
      await expect(read).rejects.toThrow("ComicInfo.xml is not read: its DOCTYPE defines the entity 'lol1' by other entities, which are not expanded");
    });
  }
});

describe('an EPUB package document with a DOCTYPE', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ logLevel: 'warn' });
    const root = join(server.dir, 'lib');
    const chapter = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>Words.</p></body></html>';
    const manifest = [{ id: 'one', href: 'one.xhtml', mediaType: 'application/xhtml+xml' }];
    const opf = (title: string, doctype: string) =>
      opfXml({ metadata: `<dc:title>${title}</dc:title>`, manifest, spine: ['one'] }).replace('<package', `<!DOCTYPE package [${doctype}]>\n<package`);
    await writeEpub(join(root, 'Plain', 'Plain.epub'), [
      { name: 'OEBPS/one.xhtml', data: chapter },
      { name: 'OEBPS/content.opf', data: opf('&t; Tales', '<!ENTITY t "Tall">') },
    ]);
    await writeEpub(join(root, 'Laughs', 'Laughs.epub'), [
      { name: 'OEBPS/one.xhtml', data: chapter },
      { name: 'OEBPS/content.opf', data: opf('&lol9;', LAUGHS) },
    ]);
    await addLibrary(server, root, 'Novels');
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads a plain entity, and refuses a chain of entities with the reason in the media comment', async () => {
    const books = (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content;
    const plain = books.find((b) => b.url.endsWith('Plain.epub'))!;
    const laughs = books.find((b) => b.url.endsWith('Laughs.epub'))!;
    expect(plain.media.status).toBe('READY');
    expect(plain.metadata.title).toBe('Tall Tales');
    expect(laughs.metadata.title).not.toContain('&lol');
    expect(laughs.media.status).toBe('ERROR');
    expect(laughs.media.comment).toBe('ERR_1008');
    // The reason is logged (the comment is Komga's error code).
    expect((await loggedLines(server)).join('\n')).toMatch(/the package document is not read: its DOCTYPE defines the entity 'lol1' by other entities/);
  });
});

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookDto, Page } from '../../../src/api/types.ts';
import { opfXml, writeEpub } from '../../fixtures/epub.ts';
import { addLibrary, loggedLines, startServer, type TestServer } from './helpers.ts';

/*
 * Character references in an EPUB's titles. EPUB 2 documents declare the XHTML 1.1 DTD, which names
 * the HTML 4 characters (&eacute; &nbsp; &mdash;); the DTD is never read, so those names come from
 * a fixed table. Before, navigation (nav, NCX) titles kept them as written ("&eacute;t&eacute;"),
 * package titles kept numeric references too ("Caf&#233;"). Decoding is one pass: "&amp;eacute;"
 * is the text "&eacute;". Entities a navigation document's own DOCTYPE declares get what the
 * package document's get: plain ones expanded (within a bound), chains refused, never left as text.
 */
const LAUGHS =
  '<!ENTITY lol "lol">' + Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('');
const XHTML11 = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd"';
const NCX_DOCTYPE = '<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd"';
const TITLE = '&Eacute;t&eacute;&nbsp;&mdash; Caf&#233; &amp;eacute; &bogus;';
/** What TITLE reads as: &bogus; is nobody's, so it stays as written. */
const READ = 'Été\u00a0— Café &eacute; &bogus;';

const chapter = `<?xml version="1.0"?>\n${XHTML11}>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body><p>Words.</p></body></html>`;

const nav = (doctype: string, title: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Nav</title></head><body><nav epub:type="toc"><ol><li><a href="one.xhtml">${title}</a></li><li><a href="two.xhtml">Two</a></li></ol></nav></body></html>`;

const ncx = (doctype: string, title: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n${doctype}\n<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap><navPoint id="n1" playOrder="1"><navLabel><text>${title}</text></navLabel><content src="one.xhtml"/></navPoint><navPoint id="n2" playOrder="2"><navLabel><text>Two</text></navLabel><content src="two.xhtml"/></navPoint></navMap></ncx>`;

async function writeBook(path: string, kind: 'nav' | 'ncx', document: string, bookTitle = 'Book'): Promise<void> {
  const manifest = [
    { id: 'one', href: 'one.xhtml', mediaType: 'application/xhtml+xml' },
    { id: 'two', href: 'two.xhtml', mediaType: 'application/xhtml+xml' },
    kind === 'nav'
      ? { id: 'nav', href: 'nav.xhtml', mediaType: 'application/xhtml+xml', properties: 'nav' }
      : { id: 'ncx', href: 'toc.ncx', mediaType: 'application/x-dtbncx+xml' },
  ];
  await writeEpub(path, [
    { name: 'OEBPS/one.xhtml', data: chapter },
    { name: 'OEBPS/two.xhtml', data: chapter },
    { name: kind === 'nav' ? 'OEBPS/nav.xhtml' : 'OEBPS/toc.ncx', data: document },
    { name: 'OEBPS/content.opf', data: opfXml({ metadata: `<dc:title>${bookTitle}</dc:title>`, manifest, spine: ['one', 'two'], version: kind === 'nav' ? '3.0' : '2.0' }) },
  ]);
}

let server: TestServer;
const books = new Map<string, BookDto>();

beforeAll(async () => {
  server = await startServer({ logLevel: 'warn' });
  const root = join(server.dir, 'lib');
  await writeBook(join(root, 'NavNamed', 'NavNamed.epub'), 'nav', nav(`${XHTML11}>`, TITLE), TITLE);
  await writeBook(join(root, 'NcxNamed', 'NcxNamed.epub'), 'ncx', ncx(`${NCX_DOCTYPE}>`, TITLE));
  await writeBook(join(root, 'NavPlain', 'NavPlain.epub'), 'nav', nav('<!DOCTYPE html [<!ENTITY t "Tall">]>', '&t; Tales'));
  await writeBook(join(root, 'NcxLaughs', 'NcxLaughs.epub'), 'ncx', ncx(`<!DOCTYPE ncx [${LAUGHS}]>`, '&lol9;'));
  await writeBook(join(root, 'NavLaughs', 'NavLaughs.epub'), 'nav', nav(`<!DOCTYPE html [${LAUGHS}]>`, '&lol9;'));
  // A 1,000-character entity named 200 times: 200,000 characters of titles from a 5 KB document.
  await writeBook(join(root, 'NavBlowUp', 'NavBlowUp.epub'), 'nav', nav(`<!DOCTYPE html [<!ENTITY w "${'w'.repeat(1000)}">]>`, '&w;'.repeat(200)));
  await addLibrary(server, root, 'Novels');
  for (const book of (await server.json<Page<BookDto>>('/api/v1/books?unpaged=true')).content) books.set(book.name, book);
});
afterAll(async () => {
  await server.close();
});

const tocOf = async (name: string) => (await server.json<{ toc: { title: string }[] }>(`/api/v1/books/${books.get(name)!.id}/manifest`)).toc.map((link) => link.title);

describe('XHTML named characters', () => {
  it('are decoded once in a nav document\'s titles', async () => {
    expect(await tocOf('NavNamed')).toEqual([READ.replace('\u00a0', ' '), 'Two']);
  });

  it('are decoded once in an NCX\'s titles', async () => {
    expect(await tocOf('NcxNamed')).toEqual([READ.replace('\u00a0', ' '), 'Two']);
  });

  it('and numeric references are decoded once in the package\'s title', () => {
    expect(books.get('NavNamed')!.media.status).toBe('READY');
    expect(books.get('NavNamed')!.metadata.title).toBe(READ);
  });
});

describe('a navigation document\'s own DOCTYPE entities', () => {
  it('of plain text are expanded in its titles', async () => {
    expect(await tocOf('NavPlain')).toEqual(['Tall Tales', 'Two']);
  });

  it.each(['NcxLaughs', 'NavLaughs'])('defined by other entities refuse the document (%s): no table of contents, never "&lol9;", the reason logged', async (name) => {
    const book = books.get(name)!;
    expect(book.media.status).toBe('READY');
    expect(await tocOf(name)).toEqual([]);
    const logged = (await loggedLines(server)).join('\n');
    expect(logged).toMatch(/navigation document OEBPS\/(toc\.ncx|nav\.xhtml) is not read: its DOCTYPE defines the entity 'lol1' by other entities/);
  });

  it('expanding past the bound refuse the document: no table of contents, the reason logged', async () => {
    expect(await tocOf('NavBlowUp')).toEqual([]);
    expect((await loggedLines(server)).join('\n')).toMatch(/its DOCTYPE's entities expand to more than 100000 characters/);
  });
});

import sax from 'sax';
import { XmlTooComplex, parseXml } from '../../media/xml-parsing.ts';
import { decodeXmlText } from '../../media/xml-text.ts';

/** One <Book> of a ComicRack reading list: only the attributes matching uses, trimmed. */
export interface ComicRackBook {
  series: string;
  number: string;
  volume: string;
}

export type ComicRackList = { name: string; books: ComicRackBook[] } | { errorCode: 'ERR_1015' };

/**
 * Reads a ComicRack reading list (.cbl) from the bytes uploaded. Parsed by the policy every XML
 * document follows (media/xml-parsing.ts): a list over 16 KiB (any real one: a 5 MB list of ~40,000
 * books costs the parser about a second) goes to the XML worker, so no request waits behind it.
 * `fileName` names the list in the error of a parse that overran its time limit.
 */
export async function readComicRackList(bytes: Buffer, fileName: string): Promise<ComicRackList> {
  // Decoded as its bytes say (UTF-16 with a mark, a declared encoding), as ComicInfo.xml is.
  const xml = decodeXmlText(bytes).replace(/^\uFEFF/, '');
  try {
    return await parseXml({ module: import.meta.url, name: 'parseComicRackList', parse: parseComicRackList }, `the ComicRack reading list ${fileName}`, xml);
  } catch (error) {
    // A list too complex to parse in time is as unreadable as a malformed one; a busy server is not.
    if (error instanceof XmlTooComplex) return { errorCode: 'ERR_1015' };
    throw error;
  }
}

/**
 * A ComicRack reading list's text to its name and books, with a streaming XML parser: no document
 * tree is built, only the list's name and each book's series, number and volume are kept. The
 * parser is strict (not well-formed → ERR_1015, as Komga's XML reader refuses it) and never resolves
 * entities beyond XML's five, so no DTD tricks apply. Synchronous: the XML worker calls it.
 */
export function parseComicRackList(xml: string): ComicRackList {
  const parser = sax.parser(true, { trim: false });
  const path: string[] = [];
  let name: string | undefined;
  let nameText = '';
  let malformed = false;
  let sawList = false;
  const books: ComicRackBook[] = [];
  const attribute = (attributes: Record<string, string>, key: string) => (attributes[key] ?? '').trim();

  parser.onerror = () => {
    malformed = true;
  };
  parser.onopentag = (tag) => {
    path.push(tag.name);
    if (path.length === 1) sawList = tag.name === 'ReadingList';
    if (path.length === 3 && path[0] === 'ReadingList' && path[1] === 'Books' && tag.name === 'Book') {
      const attributes = tag.attributes as Record<string, string>;
      books.push({ series: attribute(attributes, 'Series'), number: attribute(attributes, 'Number'), volume: attribute(attributes, 'Volume') });
    }
  };
  parser.ontext = (text) => {
    if (name === undefined && path.length === 2 && path[0] === 'ReadingList' && path[1] === 'Name') nameText += text;
  };
  parser.onclosetag = () => {
    if (name === undefined && path.length === 2 && path[0] === 'ReadingList' && path[1] === 'Name') name = nameText.trim();
    path.pop();
  };

  parser.write(xml);
  // Only while well-formed so far: sax throws its recorded error on any later call.
  if (!malformed) parser.close();
  if (malformed || !sawList) return { errorCode: 'ERR_1015' };
  return { name: name ?? '', books };
}

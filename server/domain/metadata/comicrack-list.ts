import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import sax from 'sax';

/** One <Book> of a ComicRack reading list: only the attributes matching uses, trimmed. */
export interface ComicRackBook {
  series: string;
  number: string;
  volume: string;
}

export type ComicRackList = { name: string; books: ComicRackBook[] } | { errorCode: 'ERR_1015' };

/**
 * Reads a ComicRack reading list (.cbl) as it arrives, with a streaming XML parser: no document
 * tree is built, only the list's name and each book's series, number and volume are kept (a 5 MB
 * list of ~40,000 books costs a few MB, not the hundreds a full tree did). The parser is strict
 * (not well-formed → ERR_1015, as Komga's XML reader refuses it) and never resolves entities
 * beyond XML's five, so no DTD tricks apply. A failure of the stream itself (the upload over its
 * size limit) is thrown, not turned into a code.
 */
export async function readComicRackList(input: Readable): Promise<ComicRackList> {
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

  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const chunk of input) {
    if (malformed) continue; // drain the upload; the answer is already known
    let text = decoder.write(chunk as Buffer);
    if (first && text.length > 0) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    parser.write(text);
  }
  // Each step only while well-formed so far: sax throws its recorded error on any later call.
  if (!malformed) parser.write(decoder.end());
  if (!malformed) parser.close();
  if (malformed || !sawList) return { errorCode: 'ERR_1015' };
  return { name: name ?? '', books };
}

import { collectPrefix, MediaError, type OpenedBook } from '../../../../server/media/book-reader.ts';
import { type EpubNavigation, readNavigation } from '../../../../server/media/epub-navigation.ts';
import { readingOrder } from '../../../../server/media/epub-opf.ts';
import { readPackage } from '../../../../server/media/epub-reader.ts';
import { decodeXmlText } from '../../../../server/media/xml-text.ts';
import { type ComicInfoPatch, MalformedComicInfoError, readComicInfo } from '../../../../server/domain/metadata/comicinfo.ts';
import { readAhead } from '../../../../server/domain/pages/entry-body.ts';

/**
 * What the server reads of a book after analysis, besides its pages, done as the server does it,
 * for the archive fuzz. Each read either gives its result or fails with the error the server
 * turns into an answer or a log line (a MediaError with a Komga code; MalformedComicInfoError).
 */

/** Drains a stream: how many bytes it gave. */
async function drain(stream: NodeJS.ReadableStream): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Buffer).length;
  return bytes;
}

/** Runs `read`, letting through only the errors the server expects from a damaged book (undefined then). */
async function expected<T>(read: () => Promise<T>, ...allowed: (abstract new (...args: never[]) => Error)[]): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof MediaError || allowed.some((type) => error instanceof type)) return undefined;
    throw error;
  }
}

/**
 * ComicInfo.xml at the root, as metadata import reads it (metadata-import.ts: readBookComicInfo).
 * Its bytes come from the entry's stream, which may end in an error for a damaged entry (import
 * logs it and goes on, as for a page); what it parses to is a patch, null or MalformedComicInfoError.
 */
export async function readComicInfoLikeImport(book: OpenedBook): Promise<ComicInfoPatch | null | undefined> {
  const entry = book.entries().find((e) => e.name.toLowerCase() === 'comicinfo.xml');
  if (!entry) return undefined;
  let bytes: Buffer;
  try {
    bytes = await collectPrefix(await book.openEntry(entry.name), 1024 * 1024 + 1);
  } catch (error) {
    if (error instanceof Error) return undefined;
    throw error;
  }
  return expected(() => readComicInfo(decodeXmlText(bytes), 'ComicInfo.xml of a fuzz case'), MalformedComicInfoError);
}

/** What readLikeReadium got from a book (the undamaged seed's is checked whole). */
export interface ReadiumReads {
  readingOrder: string[];
  navigation: EpubNavigation;
  problems: string[];
  cover: number | undefined;
  resources: string[];
}

/**
 * An EPUB as the Readium routes read it (epub-publication.ts, readium-routes.ts): its package, the
 * reading order, the navigation (which never fails for a damaged book: it reports what it lost),
 * the cover, and every manifest resource through readAhead, as the resource route sends it.
 */
export async function readLikeReadium(book: OpenedBook): Promise<ReadiumReads | undefined> {
  const pkg = await expected(() => readPackage(book));
  if (!pkg) return undefined;
  const names = new Set(book.entries().filter((e) => !e.isDirectory).map((e) => e.name));
  const reads: ReadiumReads = { readingOrder: readingOrder(pkg, names).map((item) => item.path), navigation: { toc: [], landmarks: [], pageList: [] }, problems: [], cover: undefined, resources: [] };
  reads.navigation = await readNavigation(book, pkg, reads.problems);
  const cover = book.cover && (await expected(() => book.cover!()));
  // Read as a page is (posters: a failure is logged and no poster drawn).
  if (cover) reads.cover = await drain(cover).catch((error: unknown) => {
    if (error instanceof Error) return undefined;
    throw error;
  });
  for (const item of pkg.manifest.slice(0, 16)) {
    if (!names.has(item.path)) continue;
    const read = await expected(async () => drain((await readAhead(await book.openEntry(item.path), `resource ${item.path}`)).stream));
    if (read !== undefined) reads.resources.push(item.path);
  }
  return reads;
}

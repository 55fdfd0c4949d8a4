import { exactLength } from './exact-length.ts';
import { LruMap } from '../lru-map.ts';
import type { FileHandle } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OutsideLibraryError, openInsideItsLibrary } from '../domain/library/library-paths.ts';
import { HttpError, notFound } from './errors.ts';
import { isUnusablePath, rethrowUnless } from '../fs-errors.ts';
import { fileSlots } from '../media/file-slots.ts';

/** A byte range, both ends inclusive, within a file of known size. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a `Range: bytes=...` header against a file size (RFC 9110 §14.1.2).
 * - undefined: no usable range, send the whole file (absent header, other unit, several ranges:
 *   a server may ignore Range, and one stream is all a download client needs);
 * - 'unsatisfiable': a single well-formed range that lies outside the file (answer 416);
 * - a range otherwise, clamped to the file.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined; // malformed: ignore, as RFC allows
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** `attachment` disposition with an ASCII fallback and the exact UTF-8 name (RFC 6266/8187). */
export function attachmentDisposition(fileName: string): string {
  return disposition('attachment', fileName);
}

/** Content-Disposition for a response shown in place (pages, EPUB resources) named `fileName`. */
export function inlineDisposition(fileName: string): string {
  // Every page request names its page: three regular expressions and an encoding, about a
  // microsecond, for the same few names a reader asks for in turn (a pure function: never stale).
  let value = recentInline.get(fileName);
  if (value === undefined) {
    value = disposition('inline', fileName);
    recentInline.set(fileName, value);
  }
  return value;
}

const recentInline = new LruMap<string, string>(4096);

/** An ASCII fallback name (anything else replaced by _) and the exact name in RFC 5987 form. */
function disposition(kind: 'attachment' | 'inline', fileName: string): string {
  // encodeURIComponent throws on a lone UTF-16 surrogate: names read back from SQLite or the disk
  // never hold one, but a name built in memory from a request might; it becomes U+FFFD instead.
  fileName = fileName.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Streams a file from disk as an attachment, honouring a single byte range (206, or 416 when it
 * lies outside the file) so interrupted downloads of large books can resume. `If-Range` with a
 * date older than the file's modification time falls back to the whole file, as the RFC asks.
 * A file whose real path leaves its library (a symlink) is not found (`libraryRoots`).
 */
export async function sendAttachment(
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
  mediaType: string,
  fileName: string,
  libraryRoots: string[],
  /** The downloading user: their downloads share a part of the request-held files (file-slots.ts). */
  owner?: string,
) {
  // The file read is the one checked to lie inside its library (no link swapped in meanwhile).
  let file: FileHandle;
  try {
    file = await fileSlots.openHandle(() => openInsideItsLibrary(libraryRoots, path), owner);
  } catch (error) {
    rethrowUnless(error, (e) => isUnusablePath(e) || e instanceof OutsideLibraryError);
    throw notFound('File not found');
  }
  try {
    return await sendOpened(request, reply, file, mediaType, fileName, path);
  } catch (error) {
    await file.close();
    throw error;
  }
}

/** sendAttachment once the file is open; the handle is closed by the stream it hands to the reply. */
async function sendOpened(request: FastifyRequest, reply: FastifyReply, file: FileHandle, mediaType: string, fileName: string, path: string) {
  const info = await file.stat();
  if (!info.isFile()) throw notFound('File not found');
  const size = info.size;
  const mtime = info.mtime;
  const lastModified = new Date(Math.floor(mtime.getTime() / 1000) * 1000);
  reply.header('Accept-Ranges', 'bytes');

  let range = parseRange(request.headers.range, size);
  const ifRange = [request.headers['if-range']].flat()[0];
  if (range && ifRange) {
    const since = Date.parse(ifRange);
    // An entity tag (we send none for files) or a stale date: the client's partial copy is not ours.
    if (Number.isNaN(since) || since < lastModified.getTime()) range = undefined;
  }
  if (range === 'unsatisfiable') {
    reply.header('Content-Range', `bytes */${size}`);
    throw new HttpError(416, 'Requested range not satisfiable');
  }
  reply
    .type(mediaType)
    .header('Last-Modified', lastModified.toUTCString())
    .header('Content-Disposition', attachmentDisposition(fileName));
  if (!range) {
    // Never more than the size announced, even when the file grows meanwhile (see exactLength).
    if (size === 0) {
      await file.close();
      return reply.header('Content-Length', 0).send(Buffer.alloc(0));
    }
    return reply.header('Content-Length', size).send(exactLength(file.createReadStream({ start: 0, end: size - 1 }), size, path));
  }
  const length = range.end - range.start + 1;
  return reply
    .code(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    .header('Content-Length', length)
    .send(exactLength(file.createReadStream({ start: range.start, end: range.end }), length, path));
}

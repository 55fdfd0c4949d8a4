import { Readable } from 'node:stream';
import { MediaError } from '../../media/book-reader.ts';

/**
 * An archive entry's bytes ready to be sent: the stream, and how many bytes it yields when that is
 * known for certain. The size an archive declares for an entry is a claim, not a fact (a deflated
 * entry may inflate to more or less, a RAR header may say anything): sent as Content-Length, a
 * wrong one leaves the client waiting for bytes that never come, or makes it read the rest as the
 * next response. So the length is only ever one that was counted.
 */
export interface EntryBody {
  stream: Readable;
  /** Exactly what `stream` yields, or null when only reading to the end will tell (send it chunked). */
  length: number | null;
}

/**
 * How much of an entry is read before answering. Entries this small (the usual EPUB resource,
 * many pages) and entries a format hands out in one piece (RAR and 7z members are unpacked whole)
 * are then read to their end: a damaged one fails before any byte is sent, with an error code,
 * and the others go out with their counted length. Larger streamed ones are checked while sent
 * (the zip reader stops a stream whose bytes differ from its header).
 */
const READ_AHEAD_BYTES = 64 * 1024;

/**
 * Reads the start of `stream` (see READ_AHEAD_BYTES), so that a damaged entry fails here, while
 * the route can still answer with an error, instead of after a 200 went out. `what` names the
 * entry in errors. Destroying the returned stream destroys the entry's stream (and so releases the
 * archive handle).
 */
export async function readAhead(stream: Readable, what: string): Promise<EntryBody> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let total = 0;
  let ended = false;
  const pull = async () => {
    const next = await chunks.next();
    if (next.done) ended = true;
    else {
      head.push(next.value);
      total += next.value.length;
    }
  };
  try {
    while (!ended && total < READ_AHEAD_BYTES) await pull();
    // One read past the bound tells an entry that ends right there (a member handed out whole)
    // from a longer one.
    if (!ended) await pull();
  } catch (error) {
    stream.destroy();
    throw asMediaError(error, what);
  }
  if (ended) {
    const bytes = head.length === 1 ? head[0]! : Buffer.concat(head, total);
    return { stream: Readable.from([bytes], { objectMode: false }), length: bytes.length };
  }
  async function* rest(): AsyncGenerator<Buffer> {
    // Handed on one by one, so that what was sent is not held until the end.
    for (let chunk = head.shift(); chunk; chunk = head.shift()) yield chunk;
    try {
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    } catch (error) {
      // The response is cut (it went out chunked, so the client sees it incomplete); the log
      // line the HTTP server writes for it names the entry.
      throw asMediaError(error, what);
    }
  }
  const output = Readable.from(rest(), { objectMode: false });
  output.once('close', () => stream.destroy());
  return { stream: output, length: null };
}

function asMediaError(error: unknown, what: string): MediaError {
  return error instanceof MediaError ? error : new MediaError('ERR_1007', `${what} cannot be read: ${String(error)}`, { cause: error });
}

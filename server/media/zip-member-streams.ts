import type { Readable } from 'node:stream';
import type yazl from 'yazl';

/** What yazl's addReadStreamLazy hands a member's stream to. */
type MemberCallback = (error: Error | null, stream: Readable) => void;

/**
 * yazl pipes each member into its zip's output and never ends a member when that output is
 * destroyed (a file write that failed, a client that left or lost access): the member's stream
 * stayed open, and with it its file, its slot of request-held files, or the source archive's
 * descriptor (yauzl closes it only once its last entry stream is done). The function given back
 * hands a member's stream to yazl and destroys it once `zip`'s output closes; one opened after that
 * is destroyed at once, as nobody will read it.
 */
export function memberStreamsEndingWithOutput(zip: yazl.ZipFile): (stream: Readable, callback: MemberCallback) => void {
  const reading = new Set<Readable>();
  let outputClosed = false;
  (zip.outputStream as Readable).once('close', () => {
    outputClosed = true;
    for (const stream of reading) stream.destroy();
  });
  return (stream, callback) => {
    if (outputClosed) {
      stream.destroy();
      return;
    }
    reading.add(stream);
    stream.once('close', () => reading.delete(stream));
    callback(null, stream);
  };
}

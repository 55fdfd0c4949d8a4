import { type Readable, Transform, pipeline } from 'node:stream';

/**
 * `source` held to the `length` sent as Content-Length. A file on disk can change between the stat
 * that gave its length and the end of the read (a book being copied in, a poster replaced): bytes
 * past the length would be read by a keep-alive client as the start of the next response, and a
 * body ending short leaves it waiting for the rest. Either way the body fails instead (the response
 * is cut and the server logs it, `what` naming the file). Destroying the returned stream (a client
 * that left) destroys `source`, releasing its descriptor.
 */
export function exactLength(source: Readable, length: number, what: string): Readable {
  let seen = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > length) done(new Error(`${what} grew past the ${length} bytes announced while it was sent`));
      else done(null, chunk);
    },
    flush(done) {
      done(seen === length ? null : new Error(`${what} ended after ${seen} of the ${length} bytes announced`));
    },
  });
  // Errors reach the response through `check` (the HTTP layer logs and cuts it); nothing to add here.
  return pipeline(source, check, () => undefined);
}

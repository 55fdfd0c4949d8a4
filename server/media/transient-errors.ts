/** errno codes that say "not now" rather than "this file is bad". */
const TRANSIENT_CODES = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'ETIMEDOUT', 'EINTR', 'ENOMEM']);

/** No archive handle or image worker came free in time: the caller should try again shortly. */
export class ServerBusy extends Error {
  readonly retryAfterSeconds: number;
  constructor(what = 'too many books are being read at once', retryAfterSeconds = 2) {
    super(`${what}; try again shortly`);
    this.name = 'ServerBusy';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The book's file changed under a read in flight (written over in place: same inode, new bytes):
 * what was read may mix its former bytes with its new ones, so it is dropped, never sent or
 * stored. Nothing is wrong with the book; the next read opens the file as it is now.
 */
export class FileChangedWhileRead extends ServerBusy {
  constructor(path: string) {
    super(`${path} changed while it was being read`, 1);
    this.name = 'FileChangedWhileRead';
  }
}

/** A time limit ran out (a decode, a worker); retrying later may well succeed. */
export class OperationTimeout extends Error {
  /** The limit that ran out: the work held its worker for that long. */
  readonly limitMs: number;
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms} ms`);
    this.name = 'OperationTimeout';
    this.limitMs = ms;
  }
}

/**
 * Work on an input that ran out of its time limit lately, refused at once rather than given a
 * worker for another whole limit (timed-out-inputs.ts). Still a time-out (never recorded against
 * the book); `retryAfterSeconds`: until the input is tried again.
 */
export class RecentlyTimedOut extends OperationTimeout {
  readonly retryAfterSeconds: number;
  /** `justNow`: the time-out is this very call's (`cause`), and the refusal starts with it. */
  constructor(what: string, ms: number, retryAfterSeconds: number, options: { justNow?: boolean; cause?: unknown } = {}) {
    super(options.justNow ? `${what} (refused for ${retryAfterSeconds} s from now)` : `${what} (ran out of time lately)`, ms);
    this.name = 'RecentlyTimedOut';
    this.retryAfterSeconds = retryAfterSeconds;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * True when a failure comes from the server being busy or short of resources (descriptors, memory,
 * a time limit) rather than from the file: such a failure must never be recorded against a book.
 * Looks through `cause` chains, since media errors wrap the errno that produced them.
 */
export function isTransientFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof ServerBusy || current instanceof OperationTimeout) return true;
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  }
  return false;
}

/** errno codes of a process (EMFILE) or system (ENFILE) out of file descriptors. */
const DESCRIPTOR_CODES = new Set(['EMFILE', 'ENFILE']);

/**
 * True when a failure is a shortage of something shared that frees itself as other work ends: file
 * descriptors, archive handles, worker slots (ServerBusy). Work that met one is worth running again
 * unchanged shortly. Unlike a time-out (OperationTimeout), it says nothing about the input, so
 * running it again cannot loop on a bad file. Looks through `cause` chains.
 */
export function isResourceShortage(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof ServerBusy) return true;
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && DESCRIPTOR_CODES.has(code)) return true;
  }
  return false;
}

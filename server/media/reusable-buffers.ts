/**
 * Buffers for entries read whole (page bytes on their way to a client), lent out and given back
 * instead of allocated per request: a fresh megabyte-sized buffer per page made the garbage
 * collector run constantly (a quarter of the serving thread's time) for memory the next request
 * needs again at once.
 *
 * - Buffers come in size classes (four per power of two, so at most a quarter is unused), and a
 *   returned buffer serves the next request of its class.
 * - At most `budget` bytes are lent at once: past it `take` says no and the caller streams the entry
 *   instead (stream buffers bound that path), so memory stays bounded however many clients read
 *   and however slowly they receive. At most `keepIdle` bytes wait unused for the next request.
 * - A buffer must be given back only when nothing reads it any more (the response carrying it has
 *   closed): the next borrower overwrites it.
 */
export class ReusableBuffers {
  readonly budget: number;
  private readonly keepIdle: number;
  private readonly idle = new Map<number, Buffer[]>();
  private lentBytes = 0;
  private idleBytes = 0;
  private readonly lent = new WeakSet<Buffer>();

  constructor(budget: number, keepIdle = Math.min(budget, 64 * 1024 * 1024)) {
    this.budget = budget;
    this.keepIdle = keepIdle;
  }

  /** Bytes lent out and not given back yet. */
  get lentOut(): number {
    return this.lentBytes;
  }

  /** A buffer of at least `size` bytes (its own length is its size class), or undefined past the budget. */
  take(size: number): Buffer | undefined {
    const length = sizeClass(size);
    if (this.lentBytes + length > this.budget) return undefined;
    const free = this.idle.get(length);
    let buffer = free?.pop();
    if (buffer) this.idleBytes -= length;
    else buffer = Buffer.allocUnsafeSlow(length);
    this.lentBytes += length;
    this.lent.add(buffer);
    return buffer;
  }

  /** Gives a buffer from `take` back; giving it twice, or a buffer not lent, is a programming error. */
  give(buffer: Buffer): void {
    if (!this.lent.delete(buffer)) throw new Error('buffer given back twice or never lent');
    this.lentBytes -= buffer.length;
    if (this.idleBytes + buffer.length > this.keepIdle) return;
    const free = this.idle.get(buffer.length);
    if (free) free.push(buffer);
    else this.idle.set(buffer.length, [buffer]);
    this.idleBytes += buffer.length;
  }
}

/** The smallest of 2^k, 1.25·2^k, 1.5·2^k, 1.75·2^k (at least 4 KiB) that holds `size` bytes. */
export function sizeClass(size: number): number {
  if (size <= 4096) return 4096;
  const power = 2 ** Math.floor(Math.log2(size));
  const step = power / 4;
  return power + Math.ceil((size - power) / step) * step;
}

import { type ReadStream, createReadStream } from 'node:fs';
import type { EventEmitter } from 'node:events';
import type { FileHandle } from 'node:fs/promises';
import { fileReadBudget } from './descriptor-budget.ts';
import { ServerBusy } from './transient-errors.ts';

/** How long a request waits for a free slot before it is answered "busy" (503), as the archive pool does. */
const DEFAULT_WAIT_MS = 15_000;

/**
 * The descriptors requests may hold on files of their own (a book download, a poster or drawn page
 * streamed from disk, a cached thumbnail read or written), apart from the sockets and the archive
 * pool's handles. Every such file is opened through here: past `capacity` the request waits for
 * one to be closed (up to `waitMs`, then ServerBusy), so a crowd of clients costs one descriptor
 * each (its socket) instead of two, and the process never runs out of them. A slot is given back
 * once the descriptor is closed, not when the work merely stops using it.
 */
export class FileSlots {
  readonly capacity: number;
  private readonly waitMs: number;
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  /**
   * Slots one owner may hold at once: a quarter. Owners are the users whose downloads are paced by
   * their client (a book file, a series or read-list zip read slowly holds its file for as long as it
   * likes); without a share, one account's few dozen stalled downloads held every slot and everyone
   * else's downloads, posters read from disk and thumbnails waited, then got 503. Past its share an
   * owner's next download waits for one of its own to end (up to `waitMs`, then ServerBusy), so a
   * burst from one account (devices sharing it, a client fetching a series) is still served in turn.
   */
  readonly perOwner: number;
  private readonly owners = new Map<string, number>();
  private readonly ownerWaiting = new Map<string, (() => void)[]>();

  constructor(capacity: number, waitMs = DEFAULT_WAIT_MS) {
    this.capacity = Math.max(1, capacity);
    this.perOwner = Math.max(1, Math.floor(this.capacity / 4));
    this.waitMs = waitMs;
  }

  /** Slots taken right now (for tests and load figures). */
  get inUse(): number {
    return this.used;
  }

  /** Runs `work`, which opens and closes files itself (readFile, writeFile), holding one slot. */
  async withSlot<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /**
   * createReadStream once a slot is free; the slot is given back when the stream has closed its
   * descriptor (read to the end, failed, or destroyed because the client left).
   */
  async openReadStream(path: string, options?: { start?: number; end?: number }): Promise<ReadStream> {
    await this.acquire();
    let stream: ReadStream;
    try {
      stream = createReadStream(path, options);
    } catch (error) {
      this.release();
      throw error;
    }
    stream.once('close', () => this.release());
    return stream;
  }

  /**
   * A file `open` opens once a slot is free (a library file checked by what was opened, see
   * openInsideItsLibrary); the slot is given back when the handle is closed, by the caller or by a
   * read stream made from it (`createReadStream` closes it at its end).
   */
  async openHandle(open: () => Promise<FileHandle>, owner?: string): Promise<FileHandle> {
    // Over its share an owner waits for its own downloads, not for everyone's slots.
    const leave = owner === undefined ? () => undefined : await this.enter(owner);
    try {
      await this.acquire();
    } catch (error) {
      leave();
      throw error;
    }
    let file: FileHandle;
    try {
      file = await open();
    } catch (error) {
      this.release();
      leave();
      throw error;
    }
    // A FileHandle is an EventEmitter that says 'close' (Node ≥ 15.4), closed by whoever closes it;
    // @types/node does not declare it.
    (file as unknown as EventEmitter).once('close', () => {
      this.release();
      leave();
    });
    return file;
  }

  /**
   * Counts one more slot for `owner`, first waiting while its share is held by its own downloads;
   * the function given back uncounts it, once, or hands it straight to the owner's next in line.
   */
  private async enter(owner: string): Promise<() => void> {
    const held = this.owners.get(owner) ?? 0;
    if (held < this.perOwner) this.owners.set(owner, held + 1);
    else await this.waitForShare(owner);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const queue = this.ownerWaiting.get(owner);
      const next = queue?.shift();
      if (queue?.length === 0) this.ownerWaiting.delete(owner);
      if (next) return next();
      const now = (this.owners.get(owner) ?? 1) - 1;
      if (now > 0) this.owners.set(owner, now);
      else this.owners.delete(owner);
    };
  }

  /** Resolves when one of `owner`'s slots passes to it (its count stays taken); ServerBusy after `waitMs`. */
  private waitForShare(owner: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const queue = this.ownerWaiting.get(owner) ?? [];
      this.ownerWaiting.set(owner, queue);
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = queue.indexOf(grant);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && this.ownerWaiting.get(owner) === queue) this.ownerWaiting.delete(owner);
        reject(new ServerBusy('too many of your downloads are running at once', 5));
      }, this.waitMs);
      queue.push(grant);
    });
  }

  private async acquire(): Promise<void> {
    if (this.used < this.capacity) {
      this.used++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new ServerBusy('too many files are being read at once'));
      }, this.waitMs);
      this.waiting.push(grant);
    });
  }

  private release(): void {
    // The slot passes straight to the next in line (its count stays taken), so none can overtake it.
    const next = this.waiting.shift();
    if (next) next();
    else this.used--;
  }
}

/** The one budget of request-held files for this process (descriptors are per process). */
export const fileSlots = new FileSlots(fileReadBudget());

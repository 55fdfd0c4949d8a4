import type { Readable } from 'node:stream';
import type { BookEntry, BookReader, DescribedBook, OpenedBook, PageRenderRequest } from './book-reader.ts';
import { openByContent } from './analyse-container.ts';
import type { OpfPackage } from './epub-opf.ts';
import { archiveHandleBudget } from './descriptor-budget.ts';
import { fileIdentity } from './file-identity.ts';
import { ReusableBuffers, sizeClass } from './reusable-buffers.ts';
import { FileChangedWhileRead, ServerBusy } from './transient-errors.ts';
import { BACKGROUND_CALLER, type MediaWork } from './work-callers.ts';

/** How often a cached handle's path is compared with the file it opened (see stillTheSameFile). */
const FILE_CHECK_MS = 1_000;
/** How long a caller waits for a free handle before the server answers "busy" (503). */
const DEFAULT_WAIT_MS = 15_000;
/**
 * How long a reader's request waits for its book to be opened (a RAR or 7z listing runs in a
 * worker, behind other calls, within a 30–60 s limit) before it is answered 503 with Retry-After.
 * The open goes on and stays cached, so asking again soon finds the book open.
 */
const DEFAULT_OPEN_WAIT_MS = 10_000;
/** Seconds a request that gave up waiting for an open is told to wait before asking again. */
const OPENING_RETRY_AFTER_SECONDS = 5;
/**
 * Bytes of entries read whole (see PooledBook.readWhole) that may be held at once, until the
 * responses carrying them are done; past it, entries are streamed (bounded by stream buffers).
 */
const DEFAULT_WHOLE_READ_BYTES = 256 * 1024 * 1024;
/**
 * How long a handed-out entry stream may keep its archive while another caller waits for one (a
 * client reading a streamed page slowly enough never trips the stalled-connection limit).
 */
const DEFAULT_STREAM_LEASE_MS = 60_000;
/** How often a caller waiting for an archive looks for streams past their lease. */
const OVERDUE_CHECK_MS = 1_000;
/** Larger entries are always streamed. */
const MAX_WHOLE_ENTRY_BYTES = 32 * 1024 * 1024;

/** A book opened from disk together with the reader that recognised its content. */
export interface Handle {
  reader: BookReader;
  book: OpenedBook;
  /**
   * The file's identity (file-identity.ts) read through the descriptor it was recognised by, right
   * after the open and before any of its bytes were (openByContent): what the handle's listing
   * describes. Openers that do not say (tests' own) have the path looked at before the open instead.
   */
  identity?: string;
}

interface Slot {
  key: string;
  path: string;
  opening: Promise<Handle>;
  /** The handle once `opening` has given it: what is compared without waiting for an open under way. */
  handle?: Handle;
  /** Operations (and streams handed out) currently using the handle. */
  users: number;
  /** Forgotten or displaced: closed as soon as the last user is done. */
  retired: boolean;
  closed: boolean;
  /** Entry streams handed out on this handle, with when each was. */
  streams: Map<Readable, number>;
  /** The file's identity (inode, size, time) when it was opened, and when that was last compared. */
  identity: Promise<string>;
  checkedAt: number;
}

interface Waiter {
  wake(): void;
}

export interface ArchivePoolOptions {
  /** Most archives open at once (each holds a file descriptor); default from the process limit. */
  capacity?: number;
  /** Longest wait for a free handle before ServerBusy. */
  waitMs?: number;
  /** Longest wait of a request (not the background) for its book's open before ServerBusy (default 10 s). */
  openWaitMs?: number;
  /** Opens a book (tests may count or slow this); default: by content signature. */
  open?: (filePath: string, work?: MediaWork) => Promise<Handle>;
  /**
   * Whether `open` gives each handle its identity as opened (Handle.identity), as openByContent
   * does; by default, when `open` is not given. Otherwise the path is looked at before each open.
   */
  openGivesIdentity?: boolean;
  /** Bytes of whole-read entries held at once (default 256 MiB). */
  wholeReadBytes?: number;
  /** How long an entry stream keeps its archive once another caller waits for one (default 60 s). */
  streamLeaseMs?: number;
}

/** An entry read whole; `release` gives its bytes back to the pool's budget once they have been sent. */
export interface WholeEntry {
  bytes: Buffer;
  release(): void;
}

/** The default way to open a book: by its content's signature. */
export { openByContent };

/**
 * The one owner of open archives. Recently used books stay open (keyed by path plus a version
 * such as size/mtime, so a changed file is reopened) so serving page after page does not re-read a
 * central directory, but the number of open archives never exceeds `capacity`:
 *
 * - Callers never hold a handle. `get` returns a facade; each of its operations leases the handle
 *   for exactly as long as it runs (a handed-out entry stream holds its lease until it closes), so
 *   a handle is never closed under a read in flight, and an idle one can be closed at once.
 * - When a new book is needed and every slot is taken, the least recently used idle handle is
 *   closed; when none is idle the caller waits (back-pressure) up to `waitMs`, then gets
 *   ServerBusy, which the HTTP layer answers 503 with Retry-After, never a 404.
 * - `forget` retires a path's handles: they leave the cache at once and close when their last
 *   user is done.
 */
export class ArchivePool {
  readonly capacity: number;
  private readonly waitMs: number;
  private readonly openWaitMs: number;
  private readonly streamLeaseMs: number;
  /** Every slot holding (or opening) a descriptor, cached or retired: where streams are looked for. */
  private readonly liveSlots = new Set<Slot>();
  private readonly openHandle: (filePath: string, work?: MediaWork) => Promise<Handle>;
  private readonly opensWithIdentity: boolean;
  /** Cached slots in least-recently-used order (Map keeps insertion order). */
  private readonly slots = new Map<string, Slot>();
  /**
   * The keys of `slots` by file path, so that `forget` (called by every analysis) finds a path's
   * handles without walking the cache: a scan keeps each analysed book's handle, so the cache
   * holds thousands and a walk per book made a scan quadratic in its size.
   */
  private readonly keysByPath = new Map<string, Set<string>>();
  /** Slots holding (or opening) a descriptor, cached or retired. */
  private live = 0;
  private readonly waiters: Waiter[] = [];
  /** Callers waiting for bytes of the whole-read budget to be given back (see takeBuffer). */
  private readonly byteWaiters: Waiter[] = [];
  private shuttingDown = false;
  /** Where entries read whole are put (see PooledBook.readWholeEntry). */
  readonly buffers: ReusableBuffers;

  constructor(options: ArchivePoolOptions = {}) {
    this.capacity = Math.max(1, options.capacity ?? archiveHandleBudget());
    this.waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
    this.openWaitMs = options.openWaitMs ?? DEFAULT_OPEN_WAIT_MS;
    this.streamLeaseMs = options.streamLeaseMs ?? DEFAULT_STREAM_LEASE_MS;
    this.openHandle = options.open ?? ((filePath, work) => openByContent(filePath, undefined, work));
    this.opensWithIdentity = options.openGivesIdentity ?? options.open === undefined;
    this.buffers = new ReusableBuffers(options.wholeReadBytes ?? DEFAULT_WHOLE_READ_BYTES);
  }

  /** Archives open right now (for tests and the load benchmark's figures). */
  get openCount(): number {
    return this.live;
  }

  /** Bytes of whole-read entries lent out and not released yet. */
  get heldWholeBytes(): number {
    return this.buffers.lentOut;
  }

  /**
   * The book at `filePath`, read through pooled handles; its listing is read once here. Its reads
   * (and an open they need) are done for `work.caller` (work-callers.ts; default the background).
   */
  async get(filePath: string, version: string, work: MediaWork = {}): Promise<PooledBook> {
    const key = cacheKey(filePath, version);
    const caller = work.caller ?? BACKGROUND_CALLER;
    return this.use(key, filePath, ({ reader, book }) => new PooledBook(this, key, filePath, reader, book, caller), caller);
  }

  /**
   * Runs `work` on a handle of its own, opened fresh and closed afterwards (analysis must read the
   * file as it is now, not a cached listing), counted against the same capacity.
   */
  async withFreshHandle<T>(filePath: string, work: (handle: Handle) => Promise<T>): Promise<T> {
    const slot = await this.reserve('', filePath, false);
    try {
      return await work(await slot.opening);
    } finally {
      this.release(slot);
    }
  }

  /**
   * Runs `work` on a handle of the file as it is now (analysis), and keeps that handle cached under
   * `version` for what follows: handles cached for the path before are retired first, so none
   * opened on earlier content is read through again. A scan's analysis is followed within moments
   * by the book's poster and barcode search, which then read through this handle instead of
   * opening the file, checking where it lies and reading its directory a second time.
   */
  async withCurrentHandle<T>(filePath: string, version: string, work: (handle: Handle) => Promise<T>): Promise<T> {
    this.forget(filePath);
    return this.use(cacheKey(filePath, version), filePath, work);
  }

  /** Leases the handle of `key` for the duration of `work`; opening it, if need be, is `caller`'s work. */
  async use<T>(key: string, filePath: string, work: (handle: Handle) => T | Promise<T>, caller?: string): Promise<T> {
    const slot = await this.acquire(key, filePath, caller);
    try {
      const handle = await this.opened(slot, caller);
      let result: T;
      try {
        result = await work(handle);
      } catch (error) {
        // A read that failed on bytes changing under it (mupdf, unrar, 7-Zip parsing a mix) is the
        // change's doing, not a damaged book's.
        await this.checkUnchanged(slot, handle);
        throw error;
      }
      await this.checkUnchanged(slot, handle);
      return result;
    } finally {
      this.release(slot);
    }
  }

  /**
   * The slot's handle once open. The background waits for it as long as it takes; a reader's
   * request at most openWaitMs, then ServerBusy (503 with Retry-After), the open going on for
   * whoever asks next (a slow listing was a request hanging for up to 90 s).
   */
  private opened(slot: Slot, caller: string | undefined): Promise<Handle> {
    if (caller === undefined || caller === BACKGROUND_CALLER) return slot.opening;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServerBusy(`${slot.path} is still being opened`, OPENING_RETRY_AFTER_SECONDS)), this.openWaitMs);
    });
    return Promise.race([slot.opening, late]).finally(() => clearTimeout(timer));
  }

  /**
   * Throws FileChangedWhileRead (and retires the handle) when the file under it was written over
   * in place while `work` read it: a page read whole, drawn or unpacked may then mix the file's
   * former bytes with its new ones, and is dropped rather than sent or cached. One fstat.
   */
  private async checkUnchanged(slot: Slot, handle: Handle): Promise<void> {
    if (slot.identity === NOT_COMPARED || !handle.book.descriptorIdentity) return;
    if (handle.book.descriptorIdentity() === (await slot.identity)) return;
    this.retire(slot);
    throw new FileChangedWhileRead(slot.path);
  }

  /** Leases the handle of `key` until the stream `work` returns has closed. */
  async useStream<S extends Readable | undefined>(key: string, filePath: string, work: (handle: Handle) => Promise<S>, caller?: string): Promise<S> {
    const slot = await this.acquire(key, filePath, caller);
    let stream: S;
    try {
      const handle = await this.opened(slot, caller);
      stream = await work(handle).catch(async (error: unknown) => {
        await this.checkUnchanged(slot, handle);
        throw error;
      });
      await this.checkUnchanged(slot, handle).catch((error: unknown) => {
        stream?.destroy();
        throw error;
      });
    } catch (error) {
      this.release(slot);
      throw error;
    }
    if (!stream || stream.closed || stream.destroyed) {
      this.release(slot);
      return stream;
    }
    slot.streams.set(stream, Date.now());
    stream.once('close', () => {
      slot.streams.delete(stream);
      this.release(slot);
    });
    return stream;
  }

  /**
   * A buffer of at least `size` bytes from the whole-read budget, waiting up to `waitMs` for bytes
   * to be given back when it is spent; then ServerBusy. For entries that exist only in memory
   * (RAR, 7z), which have no stream to fall back on.
   */
  async takeBuffer(size: number): Promise<Buffer> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const buffer = this.buffers.take(size);
      if (buffer) return buffer;
      const remaining = deadline - Date.now();
      if (this.shuttingDown || remaining <= 0 || sizeClass(size) > this.buffers.budget) throw new ServerBusy('too many pages are being sent at once');
      await this.waitIn(this.byteWaiters, remaining);
    }
  }

  /** Gives a buffer from take/takeBuffer back, waking whoever waits for bytes. */
  giveBuffer(buffer: Buffer): void {
    this.buffers.give(buffer);
    // Each waiter looks again; those it still does not fit wait on.
    for (const waiter of this.byteWaiters.splice(0)) waiter.wake();
  }

  /** Drops every cached handle of a path (the file changed or went away). */
  forget(filePath: string): void {
    const keys = this.keysByPath.get(filePath);
    if (!keys) return;
    for (const key of [...keys]) {
      const slot = this.slots.get(key);
      if (slot) this.retire(slot);
    }
  }

  /** Closes every idle handle now and the others as their users finish (server shutdown). */
  closeAll(): void {
    this.shuttingDown = true;
    for (const slot of [...this.slots.values()]) this.retire(slot);
    for (const waiter of [...this.waiters.splice(0), ...this.byteWaiters.splice(0)]) waiter.wake();
  }

  private async acquire(key: string, filePath: string, caller: string | undefined): Promise<Slot> {
    const cached = this.slots.get(key);
    if (cached && !cached.retired) {
      cached.users++;
      // Most recently used goes last.
      this.slots.delete(key);
      this.slots.set(key, cached);
      if (await this.stillTheSameFile(cached)) return cached;
      // Rewritten in place (or replaced) since it was opened (same path, same recorded version
      // until the next scan): its cached listing would point into the new bytes, so it is opened again.
      this.retire(cached);
      this.release(cached);
      return this.reserve(key, filePath, true, caller);
    }
    return this.reserve(key, filePath, true, caller);
  }

  /**
   * Whether the file under a cached handle is still the one it opened. Its own descriptor is
   * looked at on every use (one fstat, ~1.5 µs against ~500 µs of work per page): a file rewritten
   * in place (same inode, new bytes) is seen at once, before a read goes through the listing of its
   * former bytes. Its path (one stat) at most every FILE_CHECK_MS: a file renamed over the path
   * leaves the descriptor on the old one, which still reads whole and consistent until then.
   * Both are compared with the identity the handle was opened with (read through its descriptor
   * before any of its bytes, or the path's from before the open), so a change racing the open is
   * seen too.
   */
  private async stillTheSameFile(slot: Slot): Promise<boolean> {
    // A handle still opening was opened a moment ago; its identity comes with it (openByContent) and
    // is not waited for here, for the reason below: its users compare after their work.
    if (slot.handle === undefined && this.opensWithIdentity) return true;
    const opened = await slot.identity;
    // Not waited for while under way: a request waits for an open at most openWaitMs (`opened`),
    // and waiting here made every request after the first wait for the whole open (a RAR listing:
    // up to 90 s). A handle not open yet has no descriptor to compare; its users compare it after
    // their work (checkUnchanged), and a failed open is theirs to see through `opening`.
    const handle = slot.handle;
    if (handle?.book.descriptorIdentity && handle.book.descriptorIdentity() !== opened) return false;
    const now = Date.now();
    if (now - slot.checkedAt < FILE_CHECK_MS) return true;
    slot.checkedAt = now;
    return opened === (await fileIdentity(slot.path));
  }

  /** Makes room for one more open archive (waiting if need be) and starts opening it. */
  private async reserve(key: string, filePath: string, cache: boolean, caller?: string): Promise<Slot> {
    const deadline = Date.now() + this.waitMs;
    while (!this.makeRoom()) {
      if (this.shuttingDown) throw new ServerBusy();
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ServerBusy();
      // Streams held past their lease give their archive up to this caller (their handle is
      // released as they close, which wakes a waiter); looked at again every second of the wait,
      // as more of them come of age.
      this.cutOverdueStreams();
      await this.waitForRoom(Math.min(remaining, OVERDUE_CHECK_MS));
      // Another caller may have opened the same book meanwhile.
      const cached = cache ? this.slots.get(key) : undefined;
      if (cached && !cached.retired) return this.acquire(key, filePath, caller);
    }
    // Only cached handles are ever compared with their identity; a fresh one skips it. The identity is
    // the one the opener read through the new descriptor before reading anything (openByContent's
    // fstat, which it makes anyway): a file changed before that is read whole as it then was, and a
    // change after it shows when the descriptor is compared. An opener that does not give one has
    // the path looked at before the open starts, so a change racing the open is seen as one. (The
    // path's own stat was one more trip through libuv's pool for every book a scan analyses.)
    const pathBefore = cache && !this.opensWithIdentity ? fileIdentity(filePath) : undefined;
    const opening = this.openHandle(filePath, { caller });
    const identity = !cache
      ? NOT_COMPARED
      : (pathBefore ?? opening.then((handle) => handle.identity ?? fileIdentity(filePath), () => 'gone:not opened'));
    const slot: Slot = { key, path: filePath, opening, users: 1, retired: !cache, closed: false, streams: new Map(), identity, checkedAt: Date.now() };
    this.live++;
    this.liveSlots.add(slot);
    if (cache) this.cache(slot);
    slot.opening.then(
      (handle) => {
        slot.handle = handle;
      },
      () => undefined,
    );
    slot.opening.catch(() => {
      // A failed open holds no descriptor; its callers see the error through `opening`.
      this.uncache(slot);
      slot.retired = true;
      if (!slot.closed) {
        slot.closed = true;
        this.live--;
        this.liveSlots.delete(slot);
        this.wakeOne();
      }
    });
    return slot;
  }

  /**
   * Cuts the streams of one archive whose every user is a stream handed out longer than the lease
   * ago (a slow client's page), so that its handle can go to a caller waiting for one. The cut
   * client sees its response incomplete, and may ask again. True when streams were cut (the
   * handle is released as they close).
   */
  private cutOverdueStreams(): boolean {
    const now = Date.now();
    for (const slot of this.liveSlots) {
      if (slot.streams.size === 0 || slot.streams.size !== slot.users) continue;
      const streams = [...slot.streams];
      // Streams already cut are on their way out: their handle is about to be released.
      if (streams.some(([stream, since]) => stream.destroyed || now - since < this.streamLeaseMs)) continue;
      for (const [stream] of streams) {
        stream.destroy(new ServerBusy(`an entry of ${slot.path} was sent for longer than ${this.streamLeaseMs} ms while others waited for an archive`));
      }
      return true;
    }
    return false;
  }

  /** True when one more archive may be opened, closing the least recently used idle one if needed. */
  private makeRoom(): boolean {
    if (this.live < this.capacity) return true;
    for (const slot of this.slots.values()) {
      if (slot.users === 0) {
        this.retire(slot);
        return this.live < this.capacity;
      }
    }
    return false;
  }

  private waitForRoom(timeoutMs: number): Promise<void> {
    return this.waitIn(this.waiters, timeoutMs);
  }

  /** Waits in `queue` until woken or `timeoutMs` has passed. */
  private waitIn(queue: Waiter[], timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        wake: () => {
          clearTimeout(timer);
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, timeoutMs);
      queue.push(waiter);
    });
  }

  private wakeOne(): void {
    this.waiters[0]?.wake();
  }

  private release(slot: Slot): void {
    slot.users--;
    if (slot.users > 0) return;
    if (slot.retired) this.close(slot);
    // An idle cached handle can be displaced: whoever waits for room may take it.
    else this.wakeOne();
  }

  /** Puts a slot in the cache under its key (most recently used). */
  private cache(slot: Slot): void {
    this.slots.set(slot.key, slot);
    let keys = this.keysByPath.get(slot.path);
    if (!keys) this.keysByPath.set(slot.path, (keys = new Set()));
    keys.add(slot.key);
  }

  /** Takes a slot out of the cache, if it is the one cached under its key. */
  private uncache(slot: Slot): void {
    if (this.slots.get(slot.key) !== slot) return;
    this.slots.delete(slot.key);
    const keys = this.keysByPath.get(slot.path);
    keys?.delete(slot.key);
    if (keys?.size === 0) this.keysByPath.delete(slot.path);
  }

  private retire(slot: Slot): void {
    this.uncache(slot);
    slot.retired = true;
    if (slot.users === 0) this.close(slot);
  }

  private close(slot: Slot): void {
    if (slot.closed) return;
    slot.closed = true;
    this.liveSlots.delete(slot);
    // Counted free now: the descriptor goes as soon as the open settles, which is this tick for
    // any idle handle (an idle handle was opened by a caller that has finished).
    this.live--;
    this.wakeOne();
    slot.opening.then(
      ({ book }) => book.close(),
      () => undefined,
    );
  }
}

/**
 * What callers of ArchivePool.get hold: the book's listing, and operations that each lease the
 * pooled handle while they run (reopening it if it was closed in between).
 */
export class PooledBook implements OpenedBook {
  readonly reader: BookReader;
  private readonly pool: ArchivePool;
  private readonly key: string;
  private readonly path: string;
  private readonly list: readonly BookEntry[];
  /** Whom this facade's reads are for (work-callers.ts). */
  private readonly work: MediaWork;
  describe?: (withDimensions: boolean) => Promise<DescribedBook>;
  renderPage?: (fileName: string, request: PageRenderRequest) => Promise<Buffer>;
  rawPage?: (fileName: string) => Promise<{ bytes: Buffer; mediaType: string }>;
  cover?: () => Promise<Readable | undefined>;
  package?: () => Promise<OpfPackage>;

  private readonly canReadWhole: boolean;
  /** Entries of this format exist only in memory (see OpenedBook.entriesInMemory). */
  readonly entriesInMemory: boolean;
  /** The entries that exist only in memory in a format whose others stream (OpenedBook.entryInMemory). */
  private readonly inMemoryNames: ReadonlySet<string> | undefined;
  /** Why the listing ended early (OpenedBook.damage). */
  readonly damage: string | undefined;

  constructor(pool: ArchivePool, key: string, path: string, reader: BookReader, opened: OpenedBook, caller: string) {
    this.pool = pool;
    this.work = { caller };
    this.key = key;
    this.path = path;
    this.reader = reader;
    this.list = opened.entries();
    this.canReadWhole = opened.readWhole !== undefined;
    this.entriesInMemory = opened.entriesInMemory === true;
    this.damage = opened.damage;
    const inMemory = opened.entryInMemory?.bind(opened);
    this.inMemoryNames = inMemory ? new Set(this.list.filter((entry) => inMemory(entry.name)).map((entry) => entry.name)) : undefined;
    // Optional capabilities exist on the facade exactly when the format has them.
    if (opened.describe) this.describe = (withDimensions) => this.run((book) => book.describe!(withDimensions));
    if (opened.renderPage) this.renderPage = (fileName, request) => this.run((book) => book.renderPage!(fileName, request, this.work));
    if (opened.rawPage) this.rawPage = (fileName) => this.run((book) => book.rawPage!(fileName, this.work));
    if (opened.cover) {
      this.cover = () => this.pool.useStream(this.key, this.path, ({ book }) => book.cover!(this.work), this.work.caller);
    }
    // EPUB: the package document its handles keep parsed (epub-reader.ts bookPackage).
    if ((opened as WithPackage).package) this.package = () => this.run((book) => (book as WithPackage).package!());
  }

  entries(): readonly BookEntry[] {
    return this.list;
  }

  /** This entry is read into memory whole whatever way it is read: read it through readWholeEntry, within the budget. */
  isInMemory(name: string): boolean {
    return this.entriesInMemory || (this.inMemoryNames?.has(name) ?? false);
  }

  openEntry(name: string): Promise<Readable> {
    return this.pool.useStream(this.key, this.path, ({ book }) => book.openEntry(name, this.work), this.work.caller);
  }

  readPrefix(name: string, maxBytes: number): Promise<Buffer> {
    return this.run((book) => book.readPrefix(name, maxBytes, this.work));
  }

  /**
   * The entry in one buffer when the format reads it directly, it is at most `size` bytes (its
   * size as analysed) and that fits the pool's budget of bytes held; undefined otherwise (then
   * stream it with `openEntry`). The bytes count against the budget until `release` is called,
   * however long the client takes to receive them.
   */
  async readWholeEntry(name: string, size: number): Promise<WholeEntry | undefined> {
    if (!this.canReadWhole) return undefined;
    // An entry that exists only in memory is held whatever its size: it waits for its bytes in
    // the budget (or is told to try again) rather than being held outside it.
    const inMemory = this.isInMemory(name);
    if (!inMemory && size > MAX_WHOLE_ENTRY_BYTES) return undefined;
    const target = inMemory ? await this.pool.takeBuffer(size) : this.pool.buffers.take(size);
    if (!target) return undefined;
    let bytes: Buffer | undefined;
    try {
      bytes = await this.run((book) => book.readWhole!(name, target.subarray(0, size), this.work));
    } finally {
      if (!bytes) this.pool.giveBuffer(target);
    }
    if (!bytes) return undefined;
    let released = false;
    return {
      bytes,
      release: () => {
        if (released) return;
        released = true;
        this.pool.giveBuffer(target);
      },
    };
  }

  /** The pool owns the handle; there is nothing for a caller to close. */
  close(): void {}

  private run<T>(work: (book: OpenedBook) => Promise<T>): Promise<T> {
    return this.pool.use(this.key, this.path, ({ book }) => work(book), this.work.caller);
  }
}

/** An opened book that keeps its package document parsed (EPUB). */
type WithPackage = OpenedBook & { package?(): Promise<OpfPackage> };

/** Where a file's handle is cached: its path under the version of it the caller knows (size and date). */
function cacheKey(filePath: string, version: string): string {
  return `${version}\u0000${filePath}`;
}

/** The identity of a handle opened fresh (withFreshHandle), which is never compared. */
const NOT_COMPARED = Promise.resolve('not compared');


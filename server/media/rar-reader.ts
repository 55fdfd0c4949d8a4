import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { AnalysisBudget, listForCaller } from './analysis-bounds.ts';
import { type BookEntry, type BookReader, MAX_ARCHIVE_ENTRIES, MediaError, type OpenedBook } from './book-reader.ts';
import { type CheckedFile, describeChecked, openForReading, releaseChecked } from './checked-file.ts';
import { descriptorIdentity } from './file-identity.ts';
import { joinDamage, withoutLongNames } from './entry-names.ts';
import { withoutCutRarNames } from './rar-entry-names.ts';
import { extractRarMeasured, extractRarPage, extractRarPrefixes, listRar, rarWorker } from './rar-client.ts';
import type { RarMember } from './rar-protocol.ts';
import { OperationTimeout } from './transient-errors.ts';
import type { MediaWork } from './work-callers.ts';

/*
 * CBR/RAR books through unrar (node-unrar-js: the official unrar library compiled to wasm), run in
 * a worker thread by rar-client.ts: every unrar call is synchronous and lasts as long as unrar
 * takes, so none runs on the main thread, and each has a time limit. The worker reads the book
 * through the descriptor its signature was read from (openFile; for a library's book the one
 * checked to lie inside the library), held open until the book is closed: it never opens the
 * book again by path.
 *
 * RAR has no central directory: finding a member walks the headers from the start, but members
 * that are not wanted are seeked over, never read or unpacked. A page read collects only the member
 * asked for, up to the bytes asked for; analysis reads the first bytes of every member, in walks of
 * the archive in its own order or member by member, whichever costs less (see
 * ANALYSIS_PREFIX_BYTES). Bounds: at most MAX_ARCHIVE_ENTRIES entries (ERR_1008); a page is at most
 * MAX_BUFFERED_MEMBER_BYTES, declared and actual (ERR_1007).
 */

const RAR4_SIGNATURE = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00];
const RAR5_SIGNATURE = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x01, 0x00];

const startsWith = (head: Buffer, signature: number[]) =>
  head.length >= signature.length && signature.every((byte, i) => head[i] === byte);

/** Largest member read into memory to serve as a page (RAR members cannot be streamed here). */
export const MAX_BUFFERED_MEMBER_BYTES = 128 * 1024 * 1024;
/**
 * Analysis reads the first bytes of every member (its first look at an entry is 64 KiB; smaller
 * members are read whole) in walks of the archive in its own order, each keeping the prefixes of
 * the members after the one asked for. Read one by one, each member walked every header before it:
 * N members cost N²/2 header reads (4,000 one-byte members, a 200 KB file, took 65 s; 100,000
 * would take hours). A walk keeps at most WALK_KEPT_BYTES (memory held until analysis has looked
 * at them) and ends at the next member after WALK_SLICE_MS, so that other books' page reads,
 * queued behind it for a RAR worker, wait seconds, not minutes; the next walk goes on from
 * there.
 */
const ANALYSIS_PREFIX_BYTES = 64 * 1024;
const WALK_KEPT_BYTES = 32 * 1024 * 1024;
const WALK_SLICE_MS = 5_000;

/**
 * But a walk unpacks every member whole, and a book of a few big pages costs far less read member
 * by member, each read stopping soon after its prefix (rar-worker.ts extractMember). So analysis
 * estimates both in unrar's time and walks only when that is cheaper (walksAreCheaper):
 *  - member by member: the i-th member (archive order) walks the i headers before it, N²/2 header
 *    steps for N members, plus one call each, plus what each unpacks: a stored member stops one
 *    read past its prefix; a compressed one only at unrar's first write, 4 MiB of output
 *    (UNPACK_MAX_WRITE), or its end if smaller;
 *  - walks: every member's declared size unpacked, N header steps, one call per WALK_KEPT_BYTES kept.
 * Constants measured by bench/rar-costs.ts (stored members; medians of 7 in five runs, this 2-core
 * machine at load 7.2-9.9 from other work): a header step 7.9-42 µs (1,500 members of 65 KiB), one
 * call 0.55-3.8 ms wall, unpacking 0.7-2.4 ns/byte. The load scales them alike; what decides is
 * their ratio, a header step costing as much as unpacking 12-17 KB in every run. Compressed data unpacks
 * slower per byte (entropy decoding and a window, not a copy), which we cannot measure here (no
 * tool writes compressed RARs); the stored rate undercounts the unpacking both sides do (a
 * compressed page under 4 MiB is unpacked whole either way, so such books are walked), so when
 * in doubt the model walks, whose cost grows linearly (and is bounded: analysis-bounds.ts), rather
 * than reading member by member, whose cost grows with N².
 */
const rarCosts = { headerStepMs: 0.025, callMs: 1, unpackMsPerByte: 2e-6 };
const STORED_PREFIX_UNPACKED = ANALYSIS_PREFIX_BYTES + 1;
const COMPRESSED_PREFIX_UNPACKED = 4 * 1024 * 1024;

/** Whether walks cost less than reading these members (in archive order) one by one. */
function walksAreCheaper(members: readonly RarMember[]): boolean {
  const { headerStepMs, callMs, unpackMsPerByte } = rarCosts;
  let walks = 0;
  let alone = 0;
  let kept = 0;
  for (const [i, member] of members.entries()) {
    const prefix = Math.min(member.size, member.stored ? STORED_PREFIX_UNPACKED : COMPRESSED_PREFIX_UNPACKED);
    alone += callMs + i * headerStepMs + prefix * unpackMsPerByte;
    walks += headerStepMs + member.size * unpackMsPerByte;
    kept += Math.min(member.size, ANALYSIS_PREFIX_BYTES);
  }
  walks += Math.ceil(kept / WALK_KEPT_BYTES) * callMs;
  return walks <= alone;
}

/** Takes the descriptor over: it is closed with the book, or at once when the book cannot be opened. */
async function openRarFile(file: FileHandle, filePath: string, work: MediaWork = {}): Promise<OpenedBook> {
  try {
    const { checked, size, mtimeMs } = await describeChecked(file, filePath);
    const key = `${checked.dev}:${checked.ino}\u0000${size}:${mtimeMs}`;
    const listed = await listForCaller(`RAR book ${filePath}`, key, work.caller, rarWorker.timeLimitMs, () =>
      listRar(checked, MAX_ARCHIVE_ENTRIES, work.caller),
    );
    const uncut = withoutCutRarNames(listed.members);
    const { kept: members, leftOut } = withoutLongNames(uncut.kept);
    const damage = joinDamage(listed.damage, uncut.leftOut, leftOut);
    // Cut short or broken past some whole members, the book keeps them (its analysis says
    // ERR_1007 for the rest); with none whole before the damage there is nothing to read.
    if (damage !== undefined && !members.some((member) => !member.isDirectory && member.damaged === undefined)) {
      throw new MediaError('ERR_1008', `cannot list RAR entries: ${damage}`);
    }
    return new OpenedRar(checked, `${size}:${mtimeMs}`, members, damage, () => releaseChecked(file, filePath));
  } catch (error) {
    releaseChecked(file, filePath);
    throw error;
  }
}

class OpenedRar implements OpenedBook {
  readonly entriesInMemory = true;
  private readonly file: CheckedFile;
  private readonly version: string;
  private readonly release: () => void;
  private readonly list: BookEntry[] = [];
  private readonly sizes = new Map<string, number>();
  /** Members the listing ended at, whose data the file does not hold whole: why each cannot be read. */
  private readonly damaged = new Map<string, string>();
  /** Why the listing ended early (OpenedBook.damage). */
  readonly damage: string | undefined;
  /** Members analysis may read in walks (see ANALYSIS_PREFIX_BYTES), in archive order, and where each is in it. */
  private readonly walkOrder: string[] = [];
  private readonly walkIndex = new Map<string, number>();
  /** Members whose walk is over: read in one, or left to be read on their own. */
  private readonly walked = new Set<string>();
  /** Prefixes from the last walk, until each is asked for (one walk's are held at a time). */
  private prefixes = new Map<string, Buffer>();
  private walking: Promise<void> | undefined;
  /** What analysis has cost so far, against the bounds for one book (analysis-bounds.ts). */
  private readonly budget: AnalysisBudget;

  constructor(file: CheckedFile, version: string, members: readonly RarMember[], damage: string | undefined, release: () => void) {
    this.file = file;
    this.version = version;
    this.damage = damage;
    this.release = release;
    this.budget = new AnalysisBudget(`RAR book ${file.path}`, 'unrar');
    const walkable: RarMember[] = [];
    for (const member of members) {
      // First occurrence wins when an archive repeats a name (unrar extracts the first match too).
      if (this.sizes.has(member.name)) continue;
      this.sizes.set(member.name, member.size);
      this.list.push({ name: member.name, uncompressedSize: member.size, isDirectory: member.isDirectory });
      // Never handed to unrar: its read would end at the same damage, in a walk or alone.
      if (member.damaged !== undefined) {
        this.damaged.set(member.name, member.damaged);
        continue;
      }
      // A member over the page limit is never unpacked whole: it is a bad page, and one declaring
      // terabytes would hold a walk past its time limit on every retry. Its prefix is read alone.
      if (!member.isDirectory && member.size > 0 && member.size <= MAX_BUFFERED_MEMBER_BYTES) walkable.push(member);
    }
    // Otherwise every member is read alone.
    if (!walksAreCheaper(walkable)) return;
    for (const member of walkable) {
      this.walkIndex.set(member.name, this.walkOrder.length);
      this.walkOrder.push(member.name);
    }
  }

  entries(): readonly BookEntry[] {
    return this.list;
  }

  /** A listed member's declared size; ERR_1007 for the member the listing ended at (its data is not all there). */
  private declaredSize(name: string): number {
    const size = this.sizes.get(name);
    if (size === undefined) throw new MediaError('ERR_1033', `entry not found: ${name}`);
    const damaged = this.damaged.get(name);
    if (damaged !== undefined) throw new MediaError('ERR_1007', `RAR member ${name} cannot be read: ${damaged}`);
    return size;
  }

  async openEntry(name: string, work: MediaWork = {}): Promise<Readable> {
    return Readable.from([await this.member(name, work.caller)], { objectMode: false });
  }

  /** The member copied into `target`; ERR_1007 when it unpacks to more than `target` holds (its declared size). */
  async readWhole(name: string, target: Buffer, work: MediaWork = {}): Promise<Buffer> {
    const bytes = await this.member(name, work.caller);
    if (bytes.length > target.length) throw new MediaError('ERR_1007', `RAR member ${name} unpacks to ${bytes.length} bytes, more than the ${target.length} it declares`);
    bytes.copy(target);
    return target.subarray(0, bytes.length);
  }

  /** A member's bytes: unrar hands them out in one piece, up to the limit for one page. */
  private async member(name: string, caller: string | undefined): Promise<Buffer> {
    // A member declaring more than that bound is refused rather than unpacked into memory.
    const size = this.declaredSize(name);
    if (size > MAX_BUFFERED_MEMBER_BYTES) {
      throw new MediaError('ERR_1007', `RAR member ${name} is ${size} bytes, over the ${MAX_BUFFERED_MEMBER_BYTES}-byte limit for one page`);
    }
    // One byte past the limit tells a member that unpacks to more than it declared from one that fits.
    const limit = MAX_BUFFERED_MEMBER_BYTES + 1;
    const bytes = await extractRarPage(this.file, this.version, name, limit, size + 1, caller);
    if (bytes.length > MAX_BUFFERED_MEMBER_BYTES) {
      throw new MediaError('ERR_1007', `RAR member ${name} unpacks to more than the ${MAX_BUFFERED_MEMBER_BYTES}-byte limit for one page`);
    }
    return bytes;
  }

  /** A walk's prefixes serve whichever read asks next, so walks are the background's work; a read alone is the caller's. */
  async readPrefix(name: string, maxBytes: number, work: MediaWork = {}): Promise<Buffer> {
    const size = this.declaredSize(name);
    const limit = Math.max(1, maxBytes);
    if (limit <= ANALYSIS_PREFIX_BYTES) {
      const prefix = await this.walkedPrefix(name);
      if (prefix && (prefix.length >= limit || prefix.length >= size)) return prefix.subarray(0, limit);
    }
    // Deeper headers (a huge EXIF block), a member a walk left out, or a book read member by member.
    for (;;) {
      try {
        const { bytes, unpacked, workMs } = await extractRarMeasured(this.file, name, limit, Math.min(limit, size), work.caller);
        this.budget.spend(unpacked, workMs);
        return bytes;
      } catch (error) {
        // Out of time: counted as the whole limit and made again at once (a loaded machine gets
        // another chance), until the bound ends a file that always runs out (analysis-bounds.ts).
        // Put off instead, the next attempt would start the count afresh, for ever.
        if (!(error instanceof OperationTimeout)) throw error;
        this.budget.spendTimeOut(error.limitMs);
      }
    }
  }

  /** A member's prefix from a walk with the members after it; undefined once it was offered (or never walked). */
  private async walkedPrefix(name: string): Promise<Buffer | undefined> {
    while (this.walking && !this.prefixes.has(name)) await this.walking;
    const read = this.prefixes.get(name);
    if (read) {
      this.prefixes.delete(name);
      return read;
    }
    const at = this.walkIndex.get(name);
    if (at === undefined || this.walked.has(name)) return undefined;
    // This member and the unwalked ones after it in the archive (ones before it were passed already).
    const batch: string[] = [];
    let kept = 0;
    for (const other of this.walkOrder.slice(at)) {
      if (this.walked.has(other)) continue;
      const keeps = Math.min(this.sizes.get(other)!, ANALYSIS_PREFIX_BYTES);
      if (batch.length > 0 && kept + keeps > WALK_KEPT_BYTES) break;
      batch.push(other);
      kept += keeps;
    }
    const walk = extractRarPrefixes(this.file, batch, { prefixBytes: ANALYSIS_PREFIX_BYTES, maxBytes: kept, maxMs: WALK_SLICE_MS }).then(
      ({ members, unpacked, workMs, stopped }) => {
        this.prefixes = members;
        for (const got of members.keys()) this.walked.add(got);
        // A walk that ended early at a member (unpacking more than declared, or not at all) leaves
        // it to be read, and fail, on its own; those after it go to the next walk. One that ran out
        // of time just goes on from where it stopped.
        if (!stopped) {
          const failed = batch.find((other) => !members.has(other));
          if (failed) this.walked.add(failed);
        }
        this.budget.spend(unpacked, workMs);
      },
      (error: unknown) => {
        this.prefixes = new Map();
        if (error instanceof OperationTimeout) {
          // One member of the batch held unrar past the limit (a walk ends between members after
          // WALK_SLICE_MS): counted, and the batch is read member by member, each read stopping
          // soon after its prefix, rather than walked into the same member again.
          this.budget.spendTimeOut(error.limitMs);
          for (const other of batch) this.walked.add(other);
          return;
        }
        // A damaged archive is the file's doing: this member is then read (and fails) on its own.
        // Anything else (a busy server, the worker stopped) is passed on, to be retried later.
        if (!(error instanceof MediaError)) throw error;
        this.walked.add(name);
      },
    );
    this.walking = walk;
    try {
      await walk;
    } finally {
      if (this.walking === walk) this.walking = undefined;
    }
    const got = this.prefixes.get(name);
    this.prefixes.delete(name);
    return got;
  }

  descriptorIdentity(): string {
    return descriptorIdentity(this.file.fd);
  }

  close(): void {
    // Each unrar call opens and closes its own descriptor (checked-file.ts): none outlives this one.
    this.release();
  }
}

/** RAR 4.x archives (signature "Rar!\x1A\x07\x00"). */
export const rar4Reader: BookReader = {
  mediaType: 'application/x-rar-compressed; version=4',
  mediaProfile: 'DIVINA',
  extensions: ['cbr', 'rar'],
  matchesSignature: (head) => startsWith(head, RAR4_SIGNATURE),
  open: async (filePath, work) => openRarFile(await openForReading(filePath), filePath, work),
  openFile: (file, filePath, _size, work) => openRarFile(file, filePath, work),
};

/** RAR 5 archives (signature "Rar!\x1A\x07\x01\x00"). */
export const rar5Reader: BookReader = {
  mediaType: 'application/x-rar-compressed; version=5',
  mediaProfile: 'DIVINA',
  extensions: ['cbr', 'rar'],
  matchesSignature: (head) => startsWith(head, RAR5_SIGNATURE),
  open: async (filePath, work) => openRarFile(await openForReading(filePath), filePath, work),
  openFile: (file, filePath, _size, work) => openRarFile(file, filePath, work),
};

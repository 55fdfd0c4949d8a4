import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { AnalysisBudget, listForCaller } from './analysis-bounds.ts';
import { AnalysisTooCostly, type BookEntry, type BookReader, MAX_ARCHIVE_ENTRIES, MediaError, type OpenedBook } from './book-reader.ts';
import { type CheckedFile, describeChecked, openForReading, releaseChecked } from './checked-file.ts';
import { descriptorIdentity } from './file-identity.ts';
import { staysInsideArchive, withoutLongNames } from './entry-names.ts';
import type { MediaWork } from './work-callers.ts';
import { extractSevenZipMeasured, extractSevenZipPage, listSevenZip, sevenZip } from './sevenzip-client.ts';
import { sevenZipCutShort } from './sevenzip-cut-short.ts';
import { cacheMember, memberKey, takeCachedMember } from './sevenzip-page-cache.ts';
import type { SevenZipMember } from './sevenzip-protocol.ts';
import { OperationTimeout } from './transient-errors.ts';

/*
 * CB7/7z books through 7-Zip itself (7z-wasm, run in a worker by sevenzip-client.ts). The worker
 * reads the book through the descriptor its signature was read from (openFile; for a library's
 * book the one checked to lie inside the library), held open until the book is closed: it never
 * opens the book, or mounts its folder, by path.
 *
 * Pages of a solid block are served with the next few members of the block unpacked in the same
 * pass and kept in a shared, byte-bounded cache (sevenzip-page-cache.ts), so turning pages does not
 * unpack the block from its start every time.
 *
 * Bounds: at most MAX_ARCHIVE_ENTRIES entries; coders that declare more working memory than
 * MAX_CODER_MEMORY (LZMA/LZMA2 dictionary, PPMd model) are refused before anything is unpacked;
 * a page is at most MAX_MEMBER_BYTES (declared and actual: unpacking past it keeps nothing more);
 * entry names that would escape the archive are never asked for. Every call has the client's
 * time limit and queue bound.
 *
 * 7z has no per-member random access inside a solid block: a member is unpacked by unpacking the
 * block up to it. Analysis therefore asks for the first bytes of every member in ONE call (one
 * pass over each block, ANALYSIS_PREFIX_BYTES per member) instead of one call per member, which
 * would unpack a solid block once per page. A pass keeps at most sevenZipAnalysisPass.keptBytes
 * (1,024 members); a book with more members takes more passes, each over the members after the
 * last one kept (each unpacks its solid block from the start again: two passes for 2,000 pages,
 * not 1,000 reads of the members one pass could not keep).
 *
 * When that pass fails (a damaged member) or runs out of time, members are read one by one, and
 * then a hostile book (many members each slow to unpack, or a solid block every read unpacks
 * again) could hold the one 7-Zip worker for hours. So analysis counts its work against the
 * bounds for one book (analysis-bounds.ts, as for RAR): what each call unpacks, known before
 * the call from the listing (a solid block is unpacked from its start up to the last member
 * asked for; a call that would go past the bound is not made), and how long 7-Zip ran, a call
 * ended by its time limit counting as the whole limit. Past a bound the book is ERROR
 * (AnalysisTooCostly). A call that ran out of time is not put off for a later attempt, which
 * would start the count afresh and let a file that always runs out of time be tried for ever,
 * never ERROR: it is made again at once (a loaded machine gets another chance) until the bound
 * on 7-Zip's time ends it.
 */

const SIGNATURE = [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c];
/** Largest member served as a page, as for RAR: pages are held in memory one at a time. */
export const MAX_7Z_MEMBER_BYTES = 128 * 1024 * 1024;
/** Largest dictionary / model a coder may ask for (7-Zip's own -mx9 uses 64 MiB). */
const MAX_CODER_MEMORY = 256 * 1024 * 1024;
const ANALYSIS_PREFIX_BYTES = 64 * 1024;
/** Prefix bytes one analysis pass keeps (memory held until analysis has looked at them). Tests lower it. */
export const sevenZipAnalysisPass = { keptBytes: 64 * 1024 * 1024 };
/** Members of the same solid block unpacked past the one asked for, kept for the next page turns. */
const AHEAD_MEMBERS = 8;
const AHEAD_MEMBER_MAX_BYTES = 16 * 1024 * 1024;
const AHEAD_TOTAL_BYTES = 32 * 1024 * 1024;

/** "24" is 2^24 bytes; "384k", "64m", "1g" are sizes with a unit. */
function sizeParameter(text: string): number {
  const match = /^(\d+)([bkmg]?)$/i.exec(text);
  if (!match) return 0;
  const value = Number(match[1]);
  const unit = match[2]!.toLowerCase();
  if (!unit) return value < 64 ? 2 ** value : value;
  return value * { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[unit as 'b' | 'k' | 'm' | 'g'];
}

/** Working memory the coders of a member declare (`Method = LZMA2:24`, `PPMD:o6:mem23`, …). */
export function declaredCoderMemory(method: string): number {
  let largest = 0;
  for (const coder of method.split(/\s+/)) {
    const [name = '', ...parameters] = coder.split(':');
    const kind = name.toUpperCase();
    if (kind === 'LZMA' || kind === 'LZMA2') largest = Math.max(largest, sizeParameter(parameters[0] ?? ''));
    if (kind === 'PPMD') {
      const memory = parameters.find((p) => p.toLowerCase().startsWith('mem'));
      if (memory) largest = Math.max(largest, sizeParameter(memory.slice(3)));
    }
  }
  return largest;
}

/** Takes the descriptor over: it is closed with the book, or at once when the book cannot be opened. */
async function openSevenZipFile(file: FileHandle, filePath: string, work: MediaWork = {}): Promise<OpenedBook> {
  try {
    const { checked, size, mtimeMs } = await describeChecked(file, filePath);
    // The page cache's key: the file itself (device, inode) as it was when opened.
    const fileKey = `${checked.dev}:${checked.ino}\u0000${size}\u0000${mtimeMs}`;
    const members = await listForCaller(`7z book ${filePath}`, fileKey, work.caller, sevenZip.timeLimitMs, () => listSevenZip(checked, MAX_ARCHIVE_ENTRIES, work.caller)).catch(
      async (error: unknown) => {
        // 7-Zip's refusal of a file cut short does not say so: the start header tells (sevenzip-cut-short.ts).
        const cut = error instanceof MediaError && error.code === 'ERR_1008' ? await sevenZipCutShort(file, size) : undefined;
        throw cut === undefined ? error : new MediaError('ERR_1008', cut, { cause: error });
      },
    );
    const { kept, leftOut } = withoutLongNames(members);
    if (members.some((m) => m.encrypted)) throw new MediaError('ERR_1008', 'encrypted 7z archives are not supported');
    const greedy = members.find((m) => declaredCoderMemory(m.method) > MAX_CODER_MEMORY);
    if (greedy) {
      throw new MediaError('ERR_1008', `7z coder ${greedy.method} needs more than the ${MAX_CODER_MEMORY}-byte limit`);
    }
    return new OpenedSevenZip(checked, fileKey, kept, leftOut, () => releaseChecked(file, filePath));
  } catch (error) {
    releaseChecked(file, filePath);
    throw error;
  }
}

/** Names that can be asked for by name: one line each in 7-Zip's list file, inside the archive. */
const requestable = (entry: BookEntry) => !entry.isDirectory && !/[\r\n]/.test(entry.name) && staysInsideArchive(entry.name);

class OpenedSevenZip implements OpenedBook {
  readonly entriesInMemory = true;
  /** Members left out of the listing (OpenedBook.damage): names past MAX_ENTRY_NAME_BYTES. */
  readonly damage?: string;
  private readonly list: BookEntry[] = [];
  /** Members analysis reads (see passPrefix), in archive order, where each is in it, and their sizes. */
  private readonly analysed: string[] = [];
  private readonly analysedIndex = new Map<string, number>();
  private readonly sizes = new Map<string, number>();
  /** Prefixes from the last pass, the members some pass was asked for, and the pass running. */
  private pass = new Map<string, Buffer>();
  private readonly passed = new Set<string>();
  private passing: Promise<void> | undefined;

  private readonly file: CheckedFile;
  private readonly fileKey: string;
  private readonly release: () => void;
  /** Solid block of each member (-1: none listed), in archive order, which is unpacking order. */
  private readonly blocks: { name: string; block: number; size: number }[] = [];
  private readonly blockIndex = new Map<string, number>();
  /** What analysis has cost so far, against the bounds for one book. */
  private readonly budget: AnalysisBudget;

  constructor(file: CheckedFile, fileKey: string, members: SevenZipMember[], damage: string | undefined, release: () => void) {
    if (damage !== undefined) this.damage = damage;
    this.file = file;
    this.fileKey = fileKey;
    this.release = release;
    this.budget = new AnalysisBudget(`7z book ${file.path}`, '7-Zip');
    const seen = new Set<string>();
    for (const member of members) {
      // First occurrence wins when an archive repeats a name (7-Zip would unpack both to one file).
      if (seen.has(member.name)) continue;
      seen.add(member.name);
      this.list.push({ name: member.name, uncompressedSize: member.size, isDirectory: member.isDirectory });
      if (!member.isDirectory) {
        this.blockIndex.set(member.name, this.blocks.length);
        this.blocks.push({ name: member.name, block: member.block, size: member.size });
      }
    }
    for (const entry of this.list) {
      if (entry.uncompressedSize === 0 || !requestable(entry)) continue;
      this.analysedIndex.set(entry.name, this.analysed.length);
      this.analysed.push(entry.name);
      this.sizes.set(entry.name, entry.uncompressedSize);
    }
  }

  /**
   * Bytes 7-Zip unpacks to hand out these members: each solid block from its start up to the last
   * member asked for in it (its earlier members are unpacked and dropped); a member of no listed
   * block, itself. Sizes are the listing's, which 7-Zip holds each member to.
   */
  private unpackCost(names: readonly string[]): number {
    const lastInBlock = new Map<number, number>();
    let cost = 0;
    for (const name of names) {
      const at = this.blockIndex.get(name);
      if (at === undefined) continue;
      const { block, size } = this.blocks[at]!;
      if (block < 0) cost += size;
      else lastInBlock.set(block, Math.max(at, lastInBlock.get(block) ?? -1));
    }
    for (const [block, last] of lastInBlock) {
      for (let i = last; i >= 0 && this.blocks[i]!.block === block; i--) cost += this.blocks[i]!.size;
    }
    return cost;
  }

  /**
   * An analysis call, counted against the book's bounds: refused before it starts when what it
   * unpacks would go past them. A failed call counts what it was asked to unpack (7-Zip may have
   * unpacked up to the failure; we are not told how far). One that ran out of time counts the
   * whole limit and is made again (`again`), or, without `again`, gives nothing (undefined).
   */
  private async analysisCall(names: string[], keepPerMember: number, keepTotal: number, again: boolean): Promise<Map<string, Buffer> | undefined> {
    const cost = this.unpackCost(names);
    for (;;) {
      this.budget.checkUnpack(cost);
      try {
        const { members, workMs } = await extractSevenZipMeasured(this.file, names, keepPerMember, keepTotal);
        this.budget.spend(cost, workMs);
        return members;
      } catch (error) {
        if (error instanceof OperationTimeout) {
          this.budget.spendTimeOut(error.limitMs);
          if (again) continue;
          return undefined;
        }
        if (error instanceof MediaError && !(error instanceof AnalysisTooCostly)) this.budget.spend(cost, 0);
        throw error;
      }
    }
  }

  /** Members that follow `name` in its solid block: unpacking them costs only their own bytes. */
  private membersAhead(name: string): string[] {
    const at = this.blocks.findIndex((m) => m.name === name);
    const block = this.blocks[at]?.block ?? -1;
    if (block < 0) return [];
    const ahead: string[] = [];
    for (const member of this.blocks.slice(at + 1)) {
      if (member.block !== block || ahead.length >= AHEAD_MEMBERS) break;
      const entry = this.list.find((e) => e.name === member.name);
      if (entry && requestable(entry) && member.size > 0 && member.size <= AHEAD_MEMBER_MAX_BYTES) ahead.push(member.name);
    }
    return ahead;
  }

  entries(): readonly BookEntry[] {
    return this.list;
  }

  private requireMember(name: string): number {
    const entry = this.list.find((e) => e.name === name);
    if (!entry || !requestable(entry)) throw new MediaError('ERR_1033', `entry not found: ${name}`);
    return entry.uncompressedSize;
  }

  async openEntry(name: string, work: MediaWork = {}): Promise<Readable> {
    return Readable.from([await this.member(name, work.caller)], { objectMode: false });
  }

  /** The member copied into `target`; ERR_1007 when it unpacks to more than `target` holds (its declared size). */
  async readWhole(name: string, target: Buffer, work: MediaWork = {}): Promise<Buffer> {
    const bytes = await this.member(name, work.caller);
    if (bytes.length > target.length) throw new MediaError('ERR_1007', `7z member ${name} unpacks to ${bytes.length} bytes, more than the ${target.length} it declares`);
    bytes.copy(target);
    return target.subarray(0, bytes.length);
  }

  /** A member's bytes: 7-Zip hands them out whole, up to the limit for one page. */
  private async member(name: string, caller: string | undefined): Promise<Buffer> {
    const size = this.requireMember(name);
    if (size > MAX_7Z_MEMBER_BYTES) {
      throw new MediaError('ERR_1007', `7z member ${name} is ${size} bytes, over the ${MAX_7Z_MEMBER_BYTES}-byte limit for one page`);
    }
    const cached = takeCachedMember(memberKey(this.fileKey, name));
    if (cached) return cached;
    // One byte past the limit tells a member that unpacks to more than the limit from one that fits.
    const ahead = this.membersAhead(name);
    const unpacked = await extractSevenZipPage(this.file, this.fileKey, [name, ...ahead], MAX_7Z_MEMBER_BYTES + 1, size + 1 + AHEAD_TOTAL_BYTES, caller);
    for (const other of ahead) {
      const bytes = unpacked.get(other);
      // Only members kept whole; one cut by the total bound is unpacked again when asked for.
      if (bytes && bytes.length === this.list.find((e) => e.name === other)?.uncompressedSize) cacheMember(memberKey(this.fileKey, other), bytes);
    }
    const bytes = unpacked.get(name);
    if (bytes && bytes.length > MAX_7Z_MEMBER_BYTES) {
      throw new MediaError('ERR_1007', `7z member ${name} unpacks to more than the ${MAX_7Z_MEMBER_BYTES}-byte limit for one page`);
    }
    if (!bytes && size > 0) throw new MediaError('ERR_1007', `7z member ${name} could not be unpacked`);
    return bytes ?? Buffer.alloc(0);
  }

  /** Analysis' reads (passes shared by every prefix asked next): always the background's work. */
  async readPrefix(name: string, maxBytes: number): Promise<Buffer> {
    const size = this.requireMember(name);
    const wanted = Math.max(1, Math.min(maxBytes, MAX_7Z_MEMBER_BYTES));
    const cached = await this.passPrefix(name);
    if (cached && (cached.length >= wanted || cached.length >= size)) return cached.subarray(0, wanted);
    const bytes = (await this.analysisCall([name], wanted, wanted, true))!.get(name);
    if (!bytes && size > 0) throw new MediaError('ERR_1007', `7z member ${name} could not be unpacked`);
    return bytes ?? Buffer.alloc(0);
  }

  /**
   * A member's prefix from a pass over it and the members after it, as many as the pass keeps
   * (analysis reads members in archive order, so the next ones are asked for next); undefined
   * when a pass was asked for it and gave nothing (it failed or ran out of time: the member is
   * then read on its own), or it is asked for again after its pass.
   */
  private async passPrefix(name: string): Promise<Buffer | undefined> {
    while (this.passing) await this.passing;
    if (this.passed.has(name)) return this.pass.get(name);
    const at = this.analysedIndex.get(name);
    if (at === undefined) return undefined;
    const batch: string[] = [];
    let kept = 0;
    for (const other of this.analysed.slice(at)) {
      if (this.passed.has(other)) continue;
      const keeps = Math.min(this.sizes.get(other)!, ANALYSIS_PREFIX_BYTES);
      if (batch.length > 0 && kept + keeps > sevenZipAnalysisPass.keptBytes) break;
      batch.push(other);
      kept += keeps;
    }
    const pass = this.analysisCall(batch, ANALYSIS_PREFIX_BYTES, kept, false).then(
      // Out of time (counted): these members are read one by one, each call unpacking less.
      (members) => this.passOver(batch, members ?? new Map<string, Buffer>()),
      (error: unknown) => {
        // One damaged member fails 7-Zip's whole pass. That is the file's doing (a MediaError): the
        // members are then read one by one, so each damaged one is reported on its own. The bound
        // reached ends the analysis; anything else (busy server, worker stopped) is passed on, to
        // be retried later.
        if (!(error instanceof MediaError) || error instanceof AnalysisTooCostly) throw error;
        this.passOver(batch, new Map<string, Buffer>());
      },
    );
    this.passing = pass;
    try {
      await pass;
    } finally {
      if (this.passing === pass) this.passing = undefined;
    }
    return this.pass.get(name);
  }

  /** The prefixes of the last pass replace the previous pass's (one pass's are held at a time). */
  private passOver(batch: readonly string[], members: Map<string, Buffer>): void {
    this.pass = members;
    for (const name of batch) this.passed.add(name);
  }

  descriptorIdentity(): string {
    return descriptorIdentity(this.file.fd);
  }

  close(): void {
    this.pass = new Map();
    // Each 7-Zip call opens and closes its own descriptor (checked-file.ts): none outlives this one.
    this.release();
  }
}

/** 7-Zip archives (signature "7z\xBC\xAF\x27\x1C"); .cb7 is the comic-book name for them. */
export const sevenZipReader: BookReader = {
  mediaType: 'application/x-7z-compressed',
  mediaProfile: 'DIVINA',
  extensions: ['cb7', '7z'],
  matchesSignature: (head) => head.length >= SIGNATURE.length && SIGNATURE.every((byte, i) => head[i] === byte),
  open: async (filePath, work) => openSevenZipFile(await openForReading(filePath), filePath, work),
  openFile: (file, filePath, _size, work) => openSevenZipFile(file, filePath, work),
};

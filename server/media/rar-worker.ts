/**
 * Worker thread that runs unrar (node-unrar-js: the official unrar library compiled to wasm) for
 * .cbr/.rar books. Every unrar call is synchronous and lasts as long as unrar takes: walking the
 * headers of a RAR, which has no central directory, and unpacking a member. On the main thread no
 * request was answered meanwhile; here a call that overruns its time limit is ended by
 * terminating this worker (serial-worker.ts).
 *
 * Memory: the archive is read with positioned reads as unrar asks for bytes; only the member being
 * extracted is collected, and only up to the limit asked for (the rest is not copied, and unrar is
 * told to stop). The wasm instance keeps unrar's working buffers (a compressed member's
 * dictionary) between calls; once its heap has grown past MAX_KEPT_HEAP_BYTES, or after a call
 * that failed in an unexpected way, it is dropped and the next call gets a fresh one.
 *
 * The archive is the one file unrar sees: a descriptor of this worker's own on the file the main
 * thread checked (checked-file.ts), opened per call and closed after it, never the book's path.
 */
import { closeSync, fstatSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { Extractor, type FileHeader, UnrarError, type SeekMethod } from 'node-unrar-js';
import { type CheckedFile, openCheckedInWorker } from './checked-file.ts';
import { cutBlockIsEnd } from './rar-end-block.ts';
import type { RarMember, RarRequest, RarResult } from './rar-protocol.ts';
import type { WorkerAnswer } from './serial-worker.ts';

const require = createRequire(import.meta.url);

/** The emscripten module factory node-unrar-js wraps in a singleton; here instances are ours to drop. */
type UnrarFactory = (options: Record<string, unknown>) => Promise<UnrarModule>;
interface UnrarModule {
  HEAPU8: Uint8Array;
  extractor: unknown;
}
const factory = require('node-unrar-js/dist/js/unrar.js') as UnrarFactory;
let compiled: Promise<WebAssembly.Module> | undefined;
const wasmModule = () => (compiled ??= WebAssembly.compile(readFileSync(require.resolve('node-unrar-js/dist/js/unrar.wasm'))));

/** A heap past this after a call (a large dictionary) is not kept for the next one. */
const MAX_KEPT_HEAP_BYTES = 128 * 1024 * 1024;
let instance: Promise<UnrarModule> | undefined;

function unrar(): Promise<UnrarModule> {
  if (instance) return instance;
  const starting = wasmModule().then((module) =>
    factory({
      instantiateWasm: (imports: WebAssembly.Imports, done: (created: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
        void WebAssembly.instantiate(module, imports).then((created) => done(created, module));
        return {};
      },
    }),
  );
  // An instance that could not start is not kept: the next call tries again.
  instance = starting.catch((error: unknown) => {
    instance = undefined;
    throw error;
  });
  return instance;
}

/** What unrar is told the archive is called; any other name it asks for (another volume) is refused. */
const ARCHIVE_NAME = 'book.rar';
const ARCHIVE_HANDLE = 1;

class RarFailure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * unrar's reasons for ending a listing that say the file is damaged where it stopped: a read past
 * the file's end (a member or header cut short: our seek and read refuse what the file does not
 * hold) or a header that fails its CRC. Anything else (a password, another volume, memory) is
 * not damage of the members before it and stays the failure it is.
 */
const LISTING_DAMAGE = new Set(['ERAR_EREAD', 'ERAR_BAD_DATA']);

/**
 * Listing, unrar reads only headers (it seeks over data): a block's first 7 bytes, then the rest.
 * When the file's end cuts such a read short, RAR 5 takes it for the archive's end without an
 * error (RAR 4 reports one, unnamed): only the bytes there tell a member header, whose member and
 * whatever followed it are lost, from the end-of-archive block cut after its type byte, which
 * loses nothing (rar-end-block.ts). A file ending before that byte, or at a block boundary with no
 * end block at all, is cut short: unrar lists it as whole, but members after the cut may be lost.
 * A read of more than an end block holds (8 bytes in RAR 5, 7 in RAR 4) is the rest of a longer
 * header; a block's first read is looked at (cutBlockIsEnd).
 */
const END_BLOCK_BYTES = 8;
/** unrar's first read of every block (RAR 4's short block head; RAR 5's CRC32 and up to 3 bytes of size). */
const BLOCK_FIRST_READ = 7;
const HEADER_CUT_SHORT = 'the file ends inside a header (cut short)';
const END_BLOCK_MISSING = 'the file ends without its end-of-archive block (cut short at a block boundary: members after it may be lost)';

function memberOf(header: FileHeader): RarMember {
  return { name: header.name, size: header.unpSize, isDirectory: header.flags.directory, stored: header.method === 'Storing' };
}

/** unrar's I/O callbacks, served from one descriptor and, for output, one growing buffer. */
class FileBackedExtractor extends Extractor<never> {
  protected _filePath = ARCHIVE_NAME;
  private readonly fd: number;
  private readonly size: number;
  private position = 0;
  private nextHandle = ARCHIVE_HANDLE + 1;
  private output = new Uint8Array(0);
  private outputLength = 0;
  /** How far in `output` the member being unpacked may go, and how far `output` may grow. */
  private memberEnd = 0;
  private outputCap = 0;
  /** Walking several members: each is unpacked to its end, but unpacking past what it declared (`overran`) stops the walk. */
  private walking = false;
  private overran = false;
  /** Bytes the member being walked may still unpack. */
  private memberLeft = 0;
  /** Bytes unrar handed to write() in this call, kept or not: what it unpacked. */
  unpacked = 0;
  /**
   * Reading one member's prefix: unrar is between creating its output and closing it (reading the
   * member's data, not headers), and whether it went past the prefix, so that its input is cut off
   * (see extractMember).
   */
  private inData = false;
  private cut = false;
  /**
   * Listing (list): the last read the file's end cut short, where it started, how much it asked and
   * got, and where the block it reads starts (`block`): there, or, for the rest of a block whose
   * first read was whole (RAR 5's 8-byte end block cut after 7), where that first read started.
   */
  private listing = false;
  private shortRead: { at: number; size: number; count: number; block: number } | undefined;
  private lastRead: { at: number; count: number } | undefined;

  constructor(module: UnrarModule, fd: number) {
    super(module, '');
    this.fd = fd;
    this.size = fstatSync(fd).size;
    // The wasm module routes its I/O through this one slot.
    module.extractor = this;
  }

  /**
   * The members as unrar lists them. unrar stops at the first damage (a file cut short: a download
   * that stopped; a header whose CRC fails), and node-unrar-js then throws: the members listed
   * before it are whole and are kept (as junrar, Komga's reader, keeps the headers it read), the
   * one whose header was read but whose data is not there is listed `damaged`, and `damage` says
   * why the listing ended. Refusals (encryption, solid, volumes) are made as for a whole archive.
   */
  list(maxMembers: number): { members: RarMember[]; damage?: string } {
    const list = this.getFileList();
    // Komga refuses these archive kinds outright (REFERENCE §8), before looking at members.
    if (list.arcHeader.flags.headerEncrypted) throw new RarFailure('ERR_1002', 'encrypted RAR archives are not supported');
    const members: RarMember[] = [];
    let encrypted = false;
    let damage: string | undefined;
    const read = this.watchHeaders();
    this.listing = true;
    try {
      for (const header of list.fileHeaders) {
        if (members.length >= maxMembers) {
          // The listing is left unfinished: the instance, which still holds it, is not kept.
          instance = undefined;
          throw new RarFailure('ERR_1008', `RAR archive has more than ${maxMembers} entries`);
        }
        encrypted ||= header.flags.encrypted;
        members.push(memberOf(header));
      }
      if (this.headerCutShort()) damage = this.cutShortDamage();
    } catch (error) {
      if (!(error instanceof UnrarError && LISTING_DAMAGE.has(error.reason))) throw error;
      // RAR 4's end-of-archive block cut short: every member was listed whole.
      // (unrar names no member, or names "", when it fails between members.)
      if (!error.file && this.endBlockCutShort()) return this.refusalsOr(list.arcHeader.flags, members, encrypted);
      // unrar closed the archive (node-unrar-js does on every failure). RAR 4's failure at a header
      // the file's end cut is unnamed: the cut header's CRC failing, or a read error (ours: past the
      // file's end; unrar may not even try a header it sees go past it). Said as RAR 5's is.
      const cutHeader = !error.file && (this.headerCutShort() || error.reason === 'ERAR_EREAD');
      damage = cutHeader ? this.cutShortDamage() : `${error.reason}: ${error.message}`;
      // Its data failed after its header was read (the error names it): the member the file ends in.
      const last = read.last;
      if (last && error.file === last.name && members.length < maxMembers) {
        encrypted ||= last.flags.encrypted;
        // A read refused past the file's end (read, seek) is the file ending inside the member.
        const why = error.reason === 'ERAR_EREAD' ? 'the file ends inside it (cut short)' : `the archive is damaged in it (${damage})`;
        members.push({ ...memberOf(last), damaged: why });
      }
    } finally {
      this.listing = false;
      read.stop();
    }
    return this.refusalsOr(list.arcHeader.flags, members, encrypted, damage);
  }

  /** The listing, unless the archive is of a kind refused whatever its members (as for a whole archive). */
  private refusalsOr(
    flags: { solid: boolean; volume: boolean },
    members: RarMember[],
    encrypted: boolean,
    damage?: string,
  ): { members: RarMember[]; damage?: string } {
    if (flags.solid) throw new RarFailure('ERR_1003', 'solid RAR archives are not supported');
    if (flags.volume) throw new RarFailure('ERR_1004', 'multi-volume RAR archives are not supported');
    if (encrypted) throw new RarFailure('ERR_1002', 'encrypted RAR archives are not supported');
    return damage === undefined ? { members } : { members, damage };
  }

  /** Whether the listing's last read, cut short by the file's end, was of a header other than the end-of-archive block (END_BLOCK_BYTES). */
  private headerCutShort(): boolean {
    return this.shortRead !== undefined && !this.endBlockCutShort();
  }

  /** Why a listing cut short by the file's end lost members: cut inside a header, or ending where a block would start. */
  private cutShortDamage(): string {
    const short = this.shortRead;
    return short?.count === 0 && short.block === short.at ? END_BLOCK_MISSING : HEADER_CUT_SHORT;
  }

  /** Whether the listing's last read, cut short by the file's end, was of the end-of-archive block: nothing lost. */
  private endBlockCutShort(): boolean {
    const short = this.shortRead;
    return short !== undefined && short.block + END_BLOCK_BYTES >= short.at + short.size && this.cutBlockIsEnd(short.block);
  }

  /** Whether the block cut short at `at` can be the end-of-archive block: its bytes still there say (rar-end-block.ts). */
  private cutBlockIsEnd(at: number): boolean {
    const signature = Buffer.alloc(7);
    readSync(this.fd, signature, 0, 7, 0);
    const head = Buffer.alloc(END_BLOCK_BYTES);
    const count = readSync(this.fd, head, 0, END_BLOCK_BYTES, at);
    return cutBlockIsEnd(head.subarray(0, count), signature[6] === 0x00);
  }

  /**
   * The last member header unrar read while listing. node-unrar-js reads a header, hands it to
   * its skip callback, then steps over the member's data, and throws the header away when that
   * step fails; its listing's callback is fixed, so this wraps the (private) method that calls it
   * for this instance only. Should a later node-unrar-js rename it, `last` stays unset and a cut
   * member goes unnamed: the members before it are still kept (tests pin this).
   */
  private watchHeaders(): { readonly last: FileHeader | undefined; stop(): void } {
    const self = this as unknown as { processNextFile?: (skip: (header: FileHeader) => boolean) => unknown };
    const original = self.processNextFile;
    const watch = { last: undefined as FileHeader | undefined, stop: () => void delete self.processNextFile };
    if (typeof original !== 'function') return watch;
    self.processNextFile = (skip) =>
      original.call(this, (header: FileHeader) => {
        watch.last = header;
        return skip(header);
      });
    return watch;
  }

  /**
   * The first bytes of one member, at most `limit` of them. Refusing a write does not stop unrar:
   * it goes on unpacking the member to its end (measured: a 64 KiB prefix of a stored 64 MiB
   * member unpacked all 64 MiB, bench/rar-costs.ts). What stops it is its input running out: once
   * it has unpacked past the prefix, reads of the archive fail (read), and its unpacker ends at
   * its next read, reporting the member damaged (its checksum covers bytes it never saw), which
   * here means the prefix is complete. Its data reads are also held to the bytes still wanted, so
   * a stored member stops one read past its prefix; a compressed one stops only at its first
   * write, as unrar writes out 4 MiB at a time (UNPACK_MAX_WRITE) or at the member's end.
   */
  extractMember(name: string, limit: number, expected: number): Uint8Array {
    this.output = new Uint8Array(Math.max(1, Math.min(limit, expected)));
    this.outputLength = 0;
    this.memberEnd = limit;
    this.outputCap = limit;
    this.walking = false;
    this.unpacked = 0;
    this.inData = false;
    this.cut = false;
    let found = false;
    try {
      for (const file of this.extract({ files: [name] }).files) if (file.fileHeader.name === name) found = true;
    } catch (error) {
      // Our own early stop surfaces as a write error, or, once its input was cut off, as whatever
      // unrar makes of the missing data (damaged data for a stored member; a compressed one may
      // report a read error instead, untested: no tool here writes one): the prefix is what we
      // wanted. A member read whole is never cut: its errors stand.
      const ours = error instanceof UnrarError && (error.reason === 'ERAR_EWRITE' || this.cut);
      if (!(this.outputLength >= limit && ours)) throw error;
      found = true;
    }
    if (!found) throw new RarFailure('ERR_1033', `entry not found: ${name}`);
    return this.output.subarray(0, this.outputLength);
  }

  /**
   * The first `prefixBytes` of each named member, in ONE walk of the archive in its own order
   * (each read on its own walks every header before it, so analysing N members cost N²/2 header
   * reads: hours for a hostile file of thousands). A member is unpacked to its end (a member
   * cannot be left midway without ending the walk), but only its prefix is kept, `maxBytes` in
   * all. The walk ends after the last named member, once it has run `maxMs` (the caller goes on
   * from there in another call, so other books' reads are not held behind one long walk), or at a
   * member that unpacks to more than it declared or that unrar cannot unpack: that one and those
   * after it are left out, to be read on their own (and fail there, with their own error).
   * `unpacked` counts every byte unrar produced, kept or not: the caller's bound on the analysis.
   */
  prefixes(
    names: string[],
    prefixBytes: number,
    maxBytes: number,
    maxMs: number,
  ): { names: string[]; ends: number[]; bytes: Uint8Array; unpacked: number; stopped: boolean } {
    const started = performance.now();
    const wanted = new Set(names);
    const got: string[] = [];
    const ends: number[] = [];
    this.output = new Uint8Array(Math.max(1, Math.min(maxBytes, 1024 * 1024)));
    this.outputLength = 0;
    this.outputCap = maxBytes;
    this.walking = true;
    this.overran = false;
    this.unpacked = 0;
    const take = (header: { name: string; unpSize: number; flags: { directory: boolean } }) => {
      // First occurrence only, as the listing has it.
      if (header.flags.directory || !wanted.delete(header.name)) return false;
      this.memberEnd = Math.min(this.outputLength + Math.min(header.unpSize, prefixBytes), maxBytes);
      this.memberLeft = header.unpSize;
      return true;
    };
    let open = true;
    let stopped = false;
    try {
      for (const file of this.extract({ files: take }).files) {
        got.push(file.fileHeader.name);
        ends.push(this.outputLength);
        if (wanted.size === 0) break;
        if ((stopped = performance.now() - started >= maxMs)) break;
      }
      open = false;
    } catch (error) {
      if (!(error instanceof UnrarError)) throw error;
      // unrar closed the archive: the members read so far are kept, the rest are read on their own.
      open = false;
    } finally {
      // Left early (break): the walk's generator ends without closing unrar's archive.
      if (open) (this as unknown as { closeArc(): void }).closeArc();
    }
    return { names: got, ends, bytes: this.output.subarray(0, ends.at(-1) ?? 0), unpacked: this.unpacked, stopped };
  }

  protected open(filename: string): number {
    // Only the archive itself; requests for other volumes of a set fail (multi-volume is refused).
    if (filename !== ARCHIVE_NAME) return 0;
    this.position = 0;
    return ARCHIVE_HANDLE;
  }

  protected create(): number {
    // unrar creates a member's output just before reading its data.
    this.inData = true;
    return this.nextHandle++;
  }

  protected closeFile(fd: number): void {
    // The descriptor is closed when the call is over; outputs are plain buffers.
    if (fd !== ARCHIVE_HANDLE) this.inData = false;
  }

  protected read(fd: number, buf: number, size: number): number {
    if (fd !== ARCHIVE_HANDLE) return -1;
    // Reading one member's prefix (extractMember): past it, the input ends; before it, a data
    // read asks for one byte more than still wanted (unrar reads stored data a megabyte at a
    // time), so that a member longer than the prefix shows it. Header reads, which unrar
    // needs whole, are never shortened.
    if (!this.walking && this.inData) {
      if (this.cut) return -1;
      size = Math.min(size, this.memberEnd - this.outputLength + 1);
    }
    const heap = (this.unrar as UnrarModule).HEAPU8;
    const count = readSync(this.fd, heap, buf, size, this.position);
    if (this.listing) {
      if (count < size) {
        const last = this.lastRead;
        const rest = size !== BLOCK_FIRST_READ && last?.count === BLOCK_FIRST_READ && last.at + last.count === this.position;
        this.shortRead = { at: this.position, size, count, block: rest ? last.at : this.position };
      }
      this.lastRead = { at: this.position, count };
    }
    this.position += count;
    return count;
  }

  protected write(fd: number, buf: number, size: number): boolean {
    if (fd === ARCHIVE_HANDLE) return false;
    // Only what is still wanted is copied: unrar may go on unpacking (and calling here) after a
    // refusal, and the rest of a large member must cost no memory.
    const take = Math.min(size, this.memberEnd - this.outputLength);
    if (take > 0) {
      if (this.outputLength + take > this.output.length) {
        // More than expected (a member that unpacks to more than it declared, or the next of several): grow, never past the cap.
        const grown = new Uint8Array(Math.min(this.outputCap, Math.max(this.outputLength + take, this.output.length * 2)));
        grown.set(this.output.subarray(0, this.outputLength));
        this.output = grown;
      }
      const heap = (this.unrar as UnrarModule).HEAPU8;
      this.output.set(heap.subarray(buf, buf + take), this.outputLength);
      this.outputLength += take;
    }
    this.unpacked += size;
    // Returning false makes unrar report a write error at the member's end (it goes on unpacking):
    // walking several members, used at one that unpacks to more than it declared.
    if (this.walking) {
      this.memberLeft -= size;
      return !(this.overran ||= this.memberLeft < 0);
    }
    // Unpacked past the prefix: the member is longer, its input is cut off (see extractMember).
    this.cut ||= this.unpacked > this.memberEnd;
    return this.outputLength < this.memberEnd;
  }

  protected tell(fd: number): number {
    return fd === ARCHIVE_HANDLE ? this.position : this.outputLength;
  }

  protected seek(fd: number, pos: number, method: SeekMethod): boolean {
    if (fd !== ARCHIVE_HANDLE) return false;
    const base = method === 'SET' ? 0 : method === 'END' ? this.size : this.position;
    const next = base + pos;
    if (next < 0 || next > this.size) return false;
    this.position = next;
    return true;
  }
}

/**
 * unrar's own failures: a missing password means encryption; anything else (truncated file, bad
 * header CRC, a member continuing in another volume) is a damaged listing or entry.
 */
function failureOf(error: unknown, action: string): RarFailure {
  if (error instanceof RarFailure) return error;
  if (error instanceof UnrarError && (error.reason === 'ERAR_MISSING_PASSWORD' || error.reason === 'ERAR_BAD_PASSWORD')) {
    return new RarFailure('ERR_1002', 'encrypted RAR archives are not supported');
  }
  const why = error instanceof UnrarError ? `${error.reason}: ${error.message}` : String(error);
  return new RarFailure('ERR_1008', `cannot ${action} RAR entries: ${why}`);
}

/** Runs `work` on the checked file through a descriptor of this worker's own, closed when it is over. */
async function withArchive<T>(file: CheckedFile, action: string, work: (extractor: FileBackedExtractor) => T): Promise<T> {
  const module = await unrar();
  let fd: number;
  try {
    fd = openCheckedInWorker(file);
  } catch (error) {
    throw new RarFailure('ERR_1000', `cannot read file: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return work(new FileBackedExtractor(module, fd));
  } catch (error) {
    // Anything but unrar's own refusal (a wasm trap, a read error) may leave the instance broken.
    if (!(error instanceof UnrarError || error instanceof RarFailure)) instance = undefined;
    throw failureOf(error, action);
  } finally {
    closeSync(fd);
    module.extractor = undefined;
    if (module.HEAPU8.length > MAX_KEPT_HEAP_BYTES) instance = undefined;
  }
}

async function handle(request: RarRequest): Promise<{ result: RarResult; transfer: ArrayBuffer[] }> {
  if (request.op === 'list') {
    const listed = await withArchive(request.file, 'list', (extractor) => extractor.list(request.maxMembers));
    return { result: listed, transfer: [] };
  }
  const started = performance.now();
  if (request.op === 'prefixes') {
    const { names, ends, bytes, unpacked, stopped } = await withArchive(request.file, 'extract', (extractor) =>
      extractor.prefixes(request.names, request.prefixBytes, request.maxBytes, request.maxMs),
    );
    // A copy of exactly those bytes (the output buffer may be far larger), moved uncopied.
    const buffer = bytes.slice().buffer as ArrayBuffer;
    return { result: { names, ends, bytes: buffer, unpacked, stopped, workMs: performance.now() - started }, transfer: [buffer] };
  }
  const { bytes, unpacked } = await withArchive(request.file, 'extract', (extractor) => ({
    bytes: extractor.extractMember(request.name, request.limit, request.expected),
    unpacked: extractor.unpacked,
  }));
  // The output buffer is this call's own (never the wasm heap): it moves to the main thread uncopied.
  const buffer = bytes.buffer as ArrayBuffer;
  return { result: { bytes: buffer, length: bytes.length, unpacked, workMs: performance.now() - started }, transfer: [buffer] };
}

// Requests are handled one at a time, in order: the wasm module has one I/O slot and this worker one thread.
let queue: Promise<void> = Promise.resolve();
parentPort?.on('message', (request: RarRequest) => {
  queue = queue.then(async () => {
    let answer: WorkerAnswer<RarResult>;
    let transfer: ArrayBuffer[] = [];
    try {
      const done = await handle(request);
      answer = { id: request.id, result: done.result };
      transfer = done.transfer;
    } catch (error) {
      const code = error instanceof RarFailure ? error.code : 'ERR_1008';
      answer = { id: request.id, error: { code, message: error instanceof Error ? error.message : String(error) } };
    }
    parentPort?.postMessage(answer, transfer);
  });
});

/**
 * Worker thread that runs 7-Zip (the 7z-wasm build of the 7zz command line) for .cb7/.7z books:
 * a 7-Zip call is synchronous and lasts as long as unpacking does, so it never runs on the main
 * thread, and a call that overruns its time limit is ended by terminating this worker.
 *
 * Memory: every request gets a fresh wasm instance (the compiled module is reused), so 7-Zip's
 * working memory (dictionary, buffers) is released after each call instead of staying at its
 * high-water mark. Unpacked members never land in 7-Zip's in-memory file system: the file write
 * operation is replaced by one that keeps at most `keepPerMember` bytes of each requested member
 * (and `keepTotal` over all of them) and drops the rest, so a member that unpacks to more than it
 * declared costs no memory beyond the bound.
 *
 * The archive is the one file 7-Zip sees of the host: a read-only file reading the descriptor the
 * main thread checked (sevenzip-book-file.ts, checked-file.ts), no folder mounted, the book never
 * opened by path. Only `l` (list) and `x -o/out` (extract to the in-memory /out) are ever run,
 * with the names to extract passed in a list file, wildcards off.
 */
import { closeSync, fstatSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import type { SevenZipModule, SevenZipModuleFactory } from '7z-wasm';
import { type CheckedFile, openCheckedInWorker } from './checked-file.ts';
import { mountBookFile, mountBufferFile } from './sevenzip-book-file.ts';
import type { SevenZipMember, SevenZipRequest, SevenZipResponse, SevenZipResult } from './sevenzip-protocol.ts';

const require = createRequire(import.meta.url);
const factory = require('7z-wasm') as SevenZipModuleFactory;
let compiled: Promise<WebAssembly.Module> | undefined;
const wasmModule = () => (compiled ??= WebAssembly.compile(readFileSync(require.resolve('7z-wasm/7zz.wasm'))));

/** 7-Zip asks for a password on standard input for encrypted archives; this one answers instead. */
const NO_PASSWORD = '-pfolio-has-no-password';
const MAX_ERROR_LINES = 20;

class SevenZipFailure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

interface Instance {
  sz: SevenZipModule;
  errors: string[];
  onLine: (line: string) => void;
}

async function instance(onLine: (line: string) => void): Promise<Instance> {
  const module = await wasmModule();
  const errors: string[] = [];
  const holder: { onLine: (line: string) => void } = { onLine };
  const sz = await factory({
    print: (line: string) => holder.onLine(line),
    printErr: (line: string) => {
      if (errors.length < MAX_ERROR_LINES && line.trim()) errors.push(line.trim());
    },
    stdin: () => null as unknown as number,
    quit: (_code: number, status: unknown) => {
      throw status;
    },
    instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
      void WebAssembly.instantiate(module, imports).then((created) => done(created, module));
      return {};
    },
  } as Partial<Parameters<SevenZipModuleFactory>[0]>);
  return { sz, errors, onLine };
}

/** Where the archive is in the wasm file system. */
const ARCHIVE = '/book.7z';

/**
 * Runs `work` with the checked file at ARCHIVE, through a descriptor of this worker's own, closed
 * when the call is over (each call has a fresh instance, which holds nothing after it).
 */
function withArchive<T>(sz: SevenZipModule, file: CheckedFile, work: () => T): T {
  let fd: number;
  try {
    fd = openCheckedInWorker(file);
  } catch (error) {
    throw new SevenZipFailure('ERR_1000', `cannot read file: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    mountBookFile(sz, fd, fstatSync(fd).size, ARCHIVE);
    return work();
  } finally {
    closeSync(fd);
  }
}

function run(target: Instance, args: string[], what: string): void {
  let code: number;
  try {
    code = (target.sz.callMain(args) as unknown as number) ?? 0;
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status !== 'number') throw new SevenZipFailure('ERR_1008', `7-Zip stopped while ${what}: ${String(error)}`);
    code = status;
  }
  // 0: fine; 1: warnings (e.g. a damaged member we did not ask for); 2+: failure.
  if (code <= 1) return;
  const said = target.errors.join(' | ');
  if (/wrong password|encrypted/i.test(said)) throw new SevenZipFailure('ERR_1008', `encrypted 7z archives are not supported (${said})`);
  if (code === 8) throw new SevenZipFailure('ERR_1008', `7-Zip ran out of memory while ${what}`);
  throw new SevenZipFailure('ERR_1008', `7-Zip failed while ${what} (exit ${code}): ${said || 'no message'}`);
}

/** Parses `l -slt -ba` output line by line, so a huge listing is never held as text. */
class ListingParser {
  readonly members: SevenZipMember[] = [];
  overflow = false;
  private record: Map<string, string> | undefined;
  private readonly maxMembers: number;

  constructor(maxMembers: number) {
    this.maxMembers = maxMembers;
  }

  line(text: string): void {
    if (this.overflow) return;
    if (text.startsWith('Path = ')) {
      this.flush();
      this.record = new Map([['Path', text.slice('Path = '.length)]]);
      return;
    }
    if (!this.record) return;
    const at = text.indexOf(' = ');
    if (at <= 0) return;
    const key = text.slice(0, at);
    // A repeated key means a name carried a line break and faked a field: the listing cannot be trusted.
    if (this.record.has(key)) throw new SevenZipFailure('ERR_1008', `7z listing is ambiguous (field ${key} repeated)`);
    this.record.set(key, text.slice(at + 3));
  }

  flush(): void {
    const record = this.record;
    this.record = undefined;
    if (!record) return;
    if (this.members.length >= this.maxMembers) {
      this.overflow = true;
      return;
    }
    const attributes = record.get('Attributes') ?? '';
    this.members.push({
      name: record.get('Path') ?? '',
      size: Number(record.get('Size') ?? 0) || 0,
      isDirectory: record.get('Folder') === '+' || attributes.startsWith('D'),
      encrypted: record.get('Encrypted') === '+',
      method: record.get('Method') ?? '',
      block: record.has('Block') && record.get('Block') !== '' ? Number(record.get('Block')) : -1,
    });
  }
}

async function list(file: CheckedFile, maxMembers: number): Promise<SevenZipResult> {
  const parser = new ListingParser(maxMembers);
  const target = await instance((line) => parser.line(line));
  withArchive(target.sz, file, () => run(target, ['l', '-slt', '-ba', '-bd', NO_PASSWORD, '-t7z', '--', ARCHIVE], 'listing'));
  parser.flush();
  if (parser.overflow) throw new SevenZipFailure('ERR_1008', `7z archive has more than ${maxMembers} entries`);
  return { members: parser.members };
}

type WriteOp = (stream: { path?: string }, buffer: Uint8Array, offset: number, length: number, position: number, canOwn?: boolean) => number;

/** Emscripten's errno for "no space left on device": how a write past the bound stops 7-Zip. */
const ENOSPC = 51;

/**
 * Replaces the in-memory file system's write so that what 7-Zip unpacks into /out is kept only up
 * to `keepPerMember` bytes of each wanted member (`keepTotal` over all) and the rest dropped.
 * With `stopWhenFull`, a write past the per-member bound fails instead (no space left), which
 * ends 7-Zip's run: a zip entry read for its first bytes, or one unpacking to more than it
 * declares (a bomb), costs no more work than the bound. `cut` then says the bound ended it.
 */
function keepOutput(sz: SevenZipModule, wanted: Set<string>, keepPerMember: number, keepTotal: number, stopWhenFull: boolean) {
  const kept = new Map<string, Buffer[]>();
  const keptLength = new Map<string, number>();
  const state = { kept, cut: false };
  let total = 0;
  const errnoError = (sz.FS as unknown as { ErrnoError: new (errno: number) => Error }).ErrnoError;
  sz.FS.writeFile('/keep-output', new Uint8Array(0));
  const ops = (sz.FS.lookupPath('/keep-output').node as unknown as { stream_ops: { write: WriteOp } }).stream_ops;
  const original = ops.write;
  ops.write = (stream, buffer, offset, length, position, canOwn) => {
    const path = stream.path ?? '';
    if (!path.startsWith('/out/')) return original(stream, buffer, offset, length, position, canOwn);
    const name = path.slice('/out/'.length);
    if (!wanted.has(name)) return length;
    const have = keptLength.get(name) ?? 0;
    const take = Math.max(0, Math.min(length, keepPerMember - have, keepTotal - total));
    if (take > 0) {
      const chunks = kept.get(name) ?? [];
      chunks.push(Buffer.from(buffer.subarray(offset, offset + take)));
      kept.set(name, chunks);
      keptLength.set(name, have + take);
      total += take;
    }
    if (stopWhenFull && take < length) {
      state.cut = true;
      throw new errnoError(ENOSPC);
    }
    // Everything is reported written: 7-Zip unpacks on (and checks its CRC) while we keep nothing more.
    return length;
  };
  return state;
}

async function extract(request: Extract<SevenZipRequest, { op: 'extract' }>): Promise<SevenZipResult> {
  const target = await instance(() => undefined);
  const { sz } = target;
  // One name a line; names with line breaks cannot be asked for (the caller never offers them).
  sz.FS.writeFile('/names.txt', request.names.join('\n'));
  sz.FS.mkdir('/out');
  const { kept } = keepOutput(sz, new Set(request.names), request.keepPerMember, request.keepTotal, false);
  const started = performance.now();
  withArchive(sz, request.file, () => run(target, ['x', '-bd', '-y', '-spd', '-scsUTF-8', NO_PASSWORD, '-t7z', '-o/out', ARCHIVE, '@/names.txt'], 'extracting'));
  const bytes: Record<string, ArrayBuffer> = {};
  for (const [name, chunks] of kept) bytes[name] = arrayBufferOf(Buffer.concat(chunks));
  return { bytes, workMs: performance.now() - started };
}

/** The bytes as an ArrayBuffer of their own, to be transferred: no copy when they fill theirs (a page unpacked is up to 128 MiB). */
function arrayBufferOf(joined: Buffer): ArrayBuffer {
  if (joined.byteOffset === 0 && joined.byteLength === joined.buffer.byteLength) return joined.buffer as ArrayBuffer;
  return joined.buffer.slice(joined.byteOffset, joined.byteOffset + joined.byteLength) as ArrayBuffer;
}

/** Where the one-entry zip is, and its entry's name (zip-entry-methods.ts writes it so). */
const ZIP_ENTRY_ARCHIVE = '/entry.zip';
const ZIP_ENTRY_NAME = 'e';

/**
 * Unpacks the one entry of a zip built around a book's zip entry. 7-Zip checks the entry's CRC and
 * that its data ends where it should; any failure is the entry's (ERR_1007), except a run ended
 * on purpose by the bound (`cut`).
 */
async function unpackZipEntry(request: Extract<SevenZipRequest, { op: 'zipEntry' }>): Promise<SevenZipResult> {
  const target = await instance(() => undefined);
  const { sz } = target;
  mountBufferFile(sz, new Uint8Array(request.zip), ZIP_ENTRY_ARCHIVE);
  sz.FS.mkdir('/out');
  const output = keepOutput(sz, new Set([ZIP_ENTRY_NAME]), request.keep, request.keep, true);
  const started = performance.now();
  try {
    run(target, ['x', '-bd', '-y', '-spd', NO_PASSWORD, '-tzip', '-o/out', ZIP_ENTRY_ARCHIVE, ZIP_ENTRY_NAME], 'unpacking the entry');
  } catch (error) {
    // 7-Zip names the entry it failed on: here always our one, 'e', which would only puzzle a reader.
    if (!output.cut) throw new SevenZipFailure('ERR_1007', (error instanceof Error ? error.message : String(error)).replaceAll(` : ${ZIP_ENTRY_NAME}`, ''));
  }
  const entry = arrayBufferOf(Buffer.concat(output.kept.get(ZIP_ENTRY_NAME) ?? []));
  return { entry, cut: output.cut, workMs: performance.now() - started };
}

async function handle(request: SevenZipRequest): Promise<SevenZipResult> {
  if (request.op === 'list') return list(request.file, request.maxMembers);
  return request.op === 'zipEntry' ? unpackZipEntry(request) : extract(request);
}

parentPort?.on('message', (request: SevenZipRequest) => {
  handle(request).then(
    (result) => {
      const transfer = 'bytes' in result ? Object.values(result.bytes) : 'entry' in result ? [result.entry] : [];
      parentPort!.postMessage({ id: request.id, result } satisfies SevenZipResponse, transfer);
    },
    (error: unknown) => {
      const code = error instanceof SevenZipFailure ? error.code : 'ERR_1008';
      parentPort!.postMessage({ id: request.id, error: { code, message: error instanceof Error ? error.message : String(error) } } satisfies SevenZipResponse);
    },
  );
});

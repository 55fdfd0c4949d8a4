import { MediaError } from './book-reader.ts';
import type { CheckedFile } from './checked-file.ts';
import type { RarMember, RarRequest, RarResult } from './rar-protocol.ts';
import { ARCHIVE_WAITING_PER_LANE, ARCHIVE_WORKERS, SerialWorker, type WithoutId } from './serial-worker.ts';
import { TimedOutInputs } from './timed-out-inputs.ts';

/**
 * Longest one unrar call may run before its worker is ended. A real page (at most 128 MiB,
 * compressed) unpacks in seconds; a small hostile file can take far longer, as every read of a
 * member walks every header before it.
 */
const CALL_TIME_LIMIT_MS = 30_000;
/** Calls waiting for a worker; beyond this the server is busy (503 + Retry-After), not broken. */
const MAX_WAITING = 64;

/**
 * Main-thread side of rar-worker.ts (serial-worker.ts): unrar's calls are synchronous and
 * CPU-bound, so they run in a small pool of workers (ARCHIVE_WORKERS), each call within a time
 * limit, shared out by caller and by book so one hostile book or user holds at most one of them. The shared client uses the
 * constants above; tests make their own with lower limits or lower the shared one's.
 */
export class RarClient extends SerialWorker<RarRequest, RarResult> {
  /** Bytes unrar has unpacked for this client's calls, kept or not (tests count them, as `calls`). */
  unpacked = 0;

  constructor(options: { timeLimitMs?: number; maxWaiting?: number; workers?: number } = {}) {
    super({
      workers: options.workers ?? ARCHIVE_WORKERS,
      bookOf: (request) => `${request.file.dev}:${request.file.ino}`,
      maxWaitingPerLane: ARCHIVE_WAITING_PER_LANE,
      script: new URL('./rar-worker.ts', import.meta.url),
      name: 'RAR',
      timeLimitMs: options.timeLimitMs ?? CALL_TIME_LIMIT_MS,
      maxWaiting: options.maxWaiting ?? MAX_WAITING,
      busy: 'too many RAR books are being read at once',
      describe: (request) =>
        request.op === 'list'
          ? `RAR listing of ${request.file.path}`
          : request.op === 'prefixes'
            ? `RAR unpacking of ${request.names.length} members of ${request.file.path}`
            : `RAR unpacking of ${request.name} in ${request.file.path}`,
    });
  }

  override async call(request: WithoutId<RarRequest>, caller?: string): Promise<RarResult> {
    const result = await super.call(request, caller);
    if ('unpacked' in result) this.unpacked += result.unpacked;
    return result;
  }
}

export const rarWorker = new RarClient();

/** The members unrar lists; `damage`: why the listing ended early (see RarResult). */
export async function listRar(file: CheckedFile, maxMembers: number, caller?: string): Promise<{ members: RarMember[]; damage?: string }> {
  const result = await rarWorker.call({ op: 'list', file, maxMembers }, caller);
  if (!('members' in result)) throw new MediaError('ERR_1008', 'unexpected RAR worker answer');
  return result;
}

/** The first bytes of a member, at most `limit`; `expected` is how many it declares. */
export async function extractRar(file: CheckedFile, name: string, limit: number, expected: number, caller?: string): Promise<Buffer> {
  return (await extractRarMeasured(file, name, limit, expected, caller)).bytes;
}

/** As extractRar, with what unrar unpacked and how long it took (analysis counts both against its bound). */
export async function extractRarMeasured(
  file: CheckedFile,
  name: string,
  limit: number,
  expected: number,
  caller?: string,
): Promise<{ bytes: Buffer; unpacked: number; workMs: number }> {
  const result = await rarWorker.call({ op: 'extract', file, name, limit, expected }, caller);
  if (!('length' in result)) throw new MediaError('ERR_1008', 'unexpected RAR worker answer');
  return { bytes: Buffer.from(result.bytes, 0, result.length), unpacked: result.unpacked, workMs: result.workMs };
}

/**
 * The first `prefixBytes` of members, in one walk of the archive (rar-worker.ts prefixes); members
 * left out (the walk ran out of time before them, `stopped`, or one unpacks to more than it declared or cannot
 * be unpacked, and those after it) are absent. `unpacked` and `workMs`: what the walk cost.
 */
export async function extractRarPrefixes(
  file: CheckedFile,
  names: string[],
  limits: { prefixBytes: number; maxBytes: number; maxMs: number },
  caller?: string,
): Promise<{ members: Map<string, Buffer>; unpacked: number; workMs: number; stopped: boolean }> {
  const result = await rarWorker.call({ op: 'prefixes', file, names, ...limits }, caller);
  if (!('ends' in result)) throw new MediaError('ERR_1008', 'unexpected RAR worker answer');
  const members = new Map<string, Buffer>();
  let start = 0;
  result.names.forEach((name, i) => {
    const end = result.ends[i]!;
    members.set(name, Buffer.from(result.bytes, start, end - start));
    start = end;
  });
  return { members, unpacked: result.unpacked, workMs: result.workMs, stopped: result.stopped };
}

/** Pages whose unpacking ran out of time lately fail at once for a while (timed-out-inputs.ts). */
const timedOut = new TimedOutInputs();

/**
 * A page's member, as extractRar; one that ran out of time lately fails at once instead of taking
 * the worker for another whole time limit (every reader of the book, its thumbnail). `version`
 * names the file's state (size, date), so a rewritten file is tried again at once. Analysis does
 * not go through here: it is retried with its own back-off.
 */
export function extractRarPage(file: CheckedFile, version: string, name: string, limit: number, expected: number, caller?: string): Promise<Buffer> {
  const key = `${file.dev}:${file.ino}\u0000${version}\u0000${name}`;
  return timedOut.run(key, `RAR unpacking of ${name} in ${file.path}`, rarWorker.timeLimitMs, () => extractRar(file, name, limit, expected, caller));
}

import { MediaError } from './book-reader.ts';
import type { CheckedFile } from './checked-file.ts';
import type { SevenZipMember, SevenZipRequest, SevenZipResult } from './sevenzip-protocol.ts';
import { ARCHIVE_WAITING_PER_LANE, ARCHIVE_WORKERS, SerialWorker } from './serial-worker.ts';
import { TimedOutInputs } from './timed-out-inputs.ts';

/** Longest one 7-Zip call may run before its worker is ended (a hostile or huge solid archive). */
const CALL_TIME_LIMIT_MS = 60_000;
/** Calls waiting for the worker; beyond this the server is busy (503 + Retry-After), not broken. */
const MAX_WAITING = 64;

/**
 * Main-thread side of sevenzip-worker.ts (serial-worker.ts): 7-Zip's calls are synchronous and
 * CPU-bound, so they run in a small pool of workers (ARCHIVE_WORKERS), each call within a time
 * limit, shared out by caller and by book so one hostile book or user holds at most one of them. The shared client uses the constants above; tests make their own with lower limits.
 */
export class SevenZipClient extends SerialWorker<SevenZipRequest, SevenZipResult> {
  constructor(options: { timeLimitMs?: number; maxWaiting?: number; workers?: number } = {}) {
    super({
      workers: options.workers ?? ARCHIVE_WORKERS,
      bookOf: (request) => (request.op === 'zipEntry' ? request.book : `${request.file.dev}:${request.file.ino}`),
      maxWaitingPerLane: ARCHIVE_WAITING_PER_LANE,
      script: new URL('./sevenzip-worker.ts', import.meta.url),
      name: '7-Zip',
      timeLimitMs: options.timeLimitMs ?? CALL_TIME_LIMIT_MS,
      maxWaiting: options.maxWaiting ?? MAX_WAITING,
      busy: 'too many 7z books are being read at once',
      describe: () => '7-Zip call',
    });
  }
}

export const sevenZip = new SevenZipClient();

export async function listSevenZip(file: CheckedFile, maxMembers: number, caller?: string): Promise<SevenZipMember[]> {
  const result = await sevenZip.call({ op: 'list', file, maxMembers }, caller);
  if (!('members' in result)) throw new MediaError('ERR_1008', 'unexpected 7-Zip worker answer');
  return result.members;
}

/** The first bytes of each named member (up to the bounds); a member that unpacked to nothing is absent. */
export async function extractSevenZip(
  file: CheckedFile,
  names: string[],
  keepPerMember: number,
  keepTotal: number,
  caller?: string,
): Promise<Map<string, Buffer>> {
  return (await extractSevenZipMeasured(file, names, keepPerMember, keepTotal, caller)).members;
}

/** The same, with how long 7-Zip ran (analysis counts it against its bound). */
export async function extractSevenZipMeasured(
  file: CheckedFile,
  names: string[],
  keepPerMember: number,
  keepTotal: number,
  caller?: string,
): Promise<{ members: Map<string, Buffer>; workMs: number }> {
  const result = await sevenZip.call({ op: 'extract', file, names, keepPerMember, keepTotal }, caller);
  if (!('bytes' in result)) throw new MediaError('ERR_1008', 'unexpected 7-Zip worker answer');
  return { members: new Map(Object.entries(result.bytes).map(([name, bytes]) => [name, Buffer.from(bytes)])), workMs: result.workMs };
}

/** Pages whose unpacking ran out of time lately fail at once for a while (timed-out-inputs.ts). */
const timedOut = new TimedOutInputs();

/**
 * A page's member (with the members unpacked ahead of it), as extractSevenZip; one that ran out of
 * time lately fails at once instead of taking a worker for another whole time limit (every reader
 * of the book, its thumbnail). `fileKey` names the file's state (device, inode, size, date), so a
 * rewritten file is tried again at once. Analysis does not go through here: it counts its time-outs.
 */
export function extractSevenZipPage(
  file: CheckedFile,
  fileKey: string,
  names: [string, ...string[]],
  keepPerMember: number,
  keepTotal: number,
  caller?: string,
): Promise<Map<string, Buffer>> {
  const key = `${fileKey}\u0000${names[0]}`;
  return timedOut.run(key, `7-Zip unpacking of ${names[0]} in ${file.path}`, sevenZip.timeLimitMs, () => extractSevenZip(file, names, keepPerMember, keepTotal, caller));
}

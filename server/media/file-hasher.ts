import type { FileHandle } from 'node:fs/promises';
import { describeChecked } from './checked-file.ts';
import type { FileHashRequest } from './file-hash-protocol.ts';
import { SerialWorker } from './serial-worker.ts';

/**
 * Longest one file's hash may take before its worker is ended (OperationTimeout): a 20 GB file
 * read at 100 MB/s. Hashes are background work; one that runs out is tried again later.
 */
const CALL_TIME_LIMIT_MS = 10 * 60_000;
/** Hashes waiting for the worker; beyond this the hash is put off (ServerBusy). */
const MAX_WAITING = 64;

/**
 * Whole-file MD5 in one worker thread (file-hash-worker.ts), one file at a time: the main thread
 * only opens the file (checking where it lies) and waits, so requests are answered while a large
 * book is hashed. One worker leaves the other core to the server.
 */
export const fileHasher = new SerialWorker<FileHashRequest, string>({
  script: new URL('./file-hash-worker.ts', import.meta.url),
  name: 'file hash',
  timeLimitMs: CALL_TIME_LIMIT_MS,
  maxWaiting: MAX_WAITING,
  busy: 'too many files are being hashed at once',
  describe: (request) => `hashing ${request.file.path}`,
});

/** The MD5 (hex) of an opened file, read from its start in the worker; the file is closed afterwards. */
export async function hashOpenedFile(file: FileHandle, path: string): Promise<string> {
  try {
    const { checked } = await describeChecked(file, path);
    return await fileHasher.call({ file: checked });
  } finally {
    await file.close();
  }
}

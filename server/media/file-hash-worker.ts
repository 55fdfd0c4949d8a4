/**
 * Worker thread that hashes whole book files (BookDto.fileHash, MD5). MD5 runs at about 500 MB/s:
 * on the main thread a 1 GB book cost two seconds of it, in 1 MiB slices between reads, during
 * which every request waited its turn (file-hasher.ts). The file is read through a descriptor of
 * this worker's own on the file the main thread checked (checked-file.ts), never by its path.
 */
import { closeSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { MediaError } from './book-reader.ts';
import { openCheckedInWorker } from './checked-file.ts';
import type { FileHashRequest } from './file-hash-protocol.ts';

/** Bytes read at a time; one buffer, kept for the worker's life. */
const READ_SIZE = 1024 * 1024;
const buffer = Buffer.allocUnsafe(READ_SIZE);

function hashChecked(request: FileHashRequest): string {
  const fd = openCheckedInWorker(request.file);
  try {
    const hash = createHash('md5');
    for (let read = readSync(fd, buffer, 0, READ_SIZE, null); read > 0; read = readSync(fd, buffer, 0, READ_SIZE, null)) {
      hash.update(buffer.subarray(0, read));
    }
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}

parentPort!.on('message', (request: FileHashRequest) => {
  try {
    parentPort!.postMessage({ id: request.id, result: hashChecked(request) });
  } catch (error) {
    const code = error instanceof MediaError ? error.code : 'ERR_1000';
    parentPort!.postMessage({ id: request.id, error: { code, message: `cannot hash ${request.file.path}: ${String(error)}` } });
  }
});

import type { CheckedFile } from './checked-file.ts';

/** Hash the whole file (file-hash-worker.ts); the answer is its MD5 in hex. */
export interface FileHashRequest {
  id: number;
  file: CheckedFile;
}

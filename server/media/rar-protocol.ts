import type { CheckedFile } from './checked-file.ts';

/**
 * Messages between the RAR client (main thread, rar-client.ts) and rar-worker.ts. A book is named
 * by its checked descriptor (checked-file.ts), never by a path to open.
 */

/** One member as unrar lists it. */
export interface RarMember {
  name: string;
  size: number;
  isDirectory: boolean;
}

export type RarRequest =
  | { id: number; op: 'list'; file: CheckedFile; maxMembers: number }
  | {
      id: number;
      op: 'extract';
      file: CheckedFile;
      name: string;
      /** Bytes kept at most; unpacking stops once they are there. */
      limit: number;
      /** Bytes expected (the declared size, bounded by `limit`): the output buffer's first size. */
      expected: number;
    };

export type RarResult =
  | { members: RarMember[] }
  /** The member's first `length` bytes (the buffer may be longer). */
  | { bytes: ArrayBuffer; length: number };

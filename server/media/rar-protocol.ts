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
    }
  /**
   * Small members whole, in one walk of the archive: each member named, at most its declared size
   * of it and `maxBytes` in all (a member that unpacks to more ends the walk, and is left out).
   */
  | { id: number; op: 'small'; file: CheckedFile; names: string[]; maxBytes: number };

export type RarResult =
  | { members: RarMember[] }
  /** The member's first `length` bytes (the buffer may be longer). */
  | { bytes: ArrayBuffer; length: number }
  /** Members read by 'small', in `bytes` one after another: member i ends at ends[i]. */
  | { names: string[]; ends: number[]; bytes: ArrayBuffer };

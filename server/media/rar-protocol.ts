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
  /** Stored uncompressed (method "store"): unrar stops right after a prefix (rar-worker.ts extractMember). */
  stored: boolean;
  /**
   * Why the member cannot be read, when the listing ended at it: its header is whole but its data
   * is not (the file ends inside it, a download cut short). Listed so that analysis counts it
   * (ERR_1007) rather than the book losing the members before it.
   */
  damaged?: string;
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
   * The first `prefixBytes` of each named member, in one walk of the archive (rar-worker.ts
   * prefixes): `maxBytes` kept in all, the walk ended after `maxMs` at the next member's start.
   */
  | { id: number; op: 'prefixes'; file: CheckedFile; names: string[]; prefixBytes: number; maxBytes: number; maxMs: number };

export type RarResult =
  /**
   * `damage`: the listing ended early at damage unrar reported (a file cut short, a broken header
   * CRC): the members before it are whole; the one it ended at is listed `damaged` when its header
   * could be read, and what came after is lost.
   */
  | { members: RarMember[]; damage?: string }
  /**
   * The member's first `length` bytes (the buffer may be longer); `unpacked`: bytes unrar
   * produced, kept or not; `workMs`: how long unrar took.
   */
  | { bytes: ArrayBuffer; length: number; unpacked: number; workMs: number }
  /**
   * Prefixes read by 'prefixes', in `bytes` one after another: member i ends at ends[i];
   * `unpacked`: bytes unrar produced in all, kept or not; `stopped`: the walk ran out of time
   * (the members left out were not reached), rather than ending at a member it could not unpack.
   */
  | { names: string[]; ends: number[]; bytes: ArrayBuffer; unpacked: number; stopped: boolean; workMs: number };

import type { CheckedFile } from './checked-file.ts';

/**
 * Messages between the 7-Zip client (main thread, sevenzip-client.ts) and sevenzip-worker.ts. A
 * book is named by its checked descriptor (checked-file.ts), never by a path to open.
 */

/** One member as 7-Zip lists it (`l -slt`). */
export interface SevenZipMember {
  name: string;
  size: number;
  isDirectory: boolean;
  encrypted: boolean;
  /** Coders, e.g. "LZMA2:24", "LZMA:384k BCJ", "PPMD:o6:mem23". */
  method: string;
  /** Solid block index; members of one block are unpacked in sequence. -1 when not listed. */
  block: number;
}

export type SevenZipRequest =
  | { id: number; op: 'list'; file: CheckedFile; maxMembers: number }
  | {
      id: number;
      op: 'extract';
      file: CheckedFile;
      names: string[];
      /** Bytes kept per member (the rest is unpacked and dropped). */
      keepPerMember: number;
      /** Bytes kept over all members; later members get nothing once it is reached. */
      keepTotal: number;
    }
  /**
   * One zip entry whose compression method only 7-Zip reads here (zip-entry-methods.ts), handed
   * over as a one-entry zip built around its raw bytes. `book` names the book it comes from (the
   * pool shares its workers out by book). Unpacking stops once `keep` bytes are kept.
   */
  | { id: number; op: 'zipEntry'; book: string; zip: ArrayBuffer; keep: number };

export type SevenZipResult =
  | { members: SevenZipMember[] }
  /**
   * Member name → its first bytes; a member that produced no output is absent. workMs: how long
   * 7-Zip ran (the bound on analysing one book counts it).
   */
  | { bytes: Record<string, ArrayBuffer>; workMs: number }
  /** The zip entry's bytes (at most `keep`); `cut`: unpacking was stopped there, more was coming. */
  | { entry: ArrayBuffer; cut: boolean; workMs: number };

export type SevenZipResponse =
  | { id: number; result: SevenZipResult; error?: undefined }
  | { id: number; error: { code: string; message: string }; result?: undefined };

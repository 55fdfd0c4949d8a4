/**
 * Why a 7z file 7-Zip cannot open is unreadable, when the reason is that it is cut short (a
 * download that stopped, a copy to a full disk). 7z keeps its listing at the file's end, so a cut
 * file has none and 7-Zip says only "Is not archive" or "Unexpected end of archive". Its 32-byte
 * start header says where the listing ends (offset and size of the "next header" after it): a
 * file shorter than that is cut, and by how much is worth telling an administrator, who can
 * complete the download (the next scan reads it again). A start header whose own CRC fails is
 * damage of another kind, left to 7-Zip's words.
 */
import type { FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

const SIGNATURE = Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]);
const START_HEADER_BYTES = 32;

/** The cut, said in words, or undefined when the file is not a 7z cut short. `size`: the file's size. */
export async function sevenZipCutShort(file: FileHandle, size: number): Promise<string | undefined> {
  const head = Buffer.alloc(START_HEADER_BYTES);
  const { bytesRead } = await file.read(head, 0, START_HEADER_BYTES, 0);
  if (bytesRead < SIGNATURE.length || !head.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return undefined;
  if (bytesRead < START_HEADER_BYTES) return `7z file cut short: ${bytesRead} bytes, inside its ${START_HEADER_BYTES}-byte start header`;
  // Bytes 12-31 (next header offset, size, CRC) are covered by the CRC32 at byte 8.
  if ((crc32(head.subarray(12)) >>> 0) !== head.readUInt32LE(8)) return undefined;
  const end = BigInt(START_HEADER_BYTES) + head.readBigUInt64LE(12) + head.readBigUInt64LE(20);
  if (end <= BigInt(size)) return undefined;
  return `7z file cut short: ${size} of ${end} bytes (its listing is at the end: nothing can be read until the file is complete)`;
}

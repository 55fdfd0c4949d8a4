/**
 * Whether the bytes a RAR file ends with, cut short inside a block's first read, can be the start
 * of its end-of-archive block (nothing lost) rather than of a member's header (that member and
 * whatever followed it lost). unrar cannot tell: RAR 5 takes any cut header for the archive's
 * end, RAR 4 reports an unnamed read error.
 *
 * Once the block's type is there, it says. Before it (RAR 4: the CRC16's 1–2 bytes; RAR 5: the
 * CRC32 and the header size, 1–5 bytes) only the CRC can: an end block's whole content is one of a
 * few fixed byte strings, so its CRC is known, and a member header's CRC (over its name, sizes and
 * times) matches that prefix by chance once in 256 for one byte, once in 65,536 for two. A cut
 * after no byte at all is a file ending at a block boundary: nothing tells a lost member from a
 * lost end block (and RAR writers have left end blocks out), so it is taken as the end.
 */
import { crc32 } from 'node:zlib';

export const RAR4_END_BLOCK_TYPE = 0x7b;
export const RAR5_END_BLOCK_TYPE = 5;

/**
 * RAR 4 end blocks of an archive that is not a volume (volumes are refused whatever is cut):
 * flags 0x4000 ("old versions skip this block", what WinRAR and rar write) or none; size 7.
 */
const RAR4_END_BLOCKS: readonly Buffer[] = [0x4000, 0x0000].map((flags) => {
  const rest = Buffer.from([RAR4_END_BLOCK_TYPE, flags & 0xff, flags >> 8, 7, 0]);
  const crc = Buffer.alloc(2);
  crc.writeUInt16LE(crc32(rest) & 0xffff, 0);
  return Buffer.concat([crc, rest]);
});

/**
 * RAR 5 end blocks: size 3, type 5, header flags 0x0004 ("skip if unknown", what WinRAR writes)
 * or none, end flags none or 0x0001 ("another volume follows").
 */
const RAR5_END_BLOCKS: readonly Buffer[] = [0x04, 0x00].flatMap((headerFlags) =>
  [0x00, 0x01].map((endFlags) => {
    const rest = Buffer.from([3, RAR5_END_BLOCK_TYPE, headerFlags, endFlags]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32LE(crc32(rest) >>> 0, 0);
    return Buffer.concat([crc, rest]);
  }),
);

/** Where the block's type byte is: after RAR 4's CRC16, after RAR 5's CRC32 and its size's variable-length integer. */
function typeOffset(head: Uint8Array, rar4: boolean): number {
  if (rar4) return 2;
  let at = 4;
  while (at < head.length && (head[at]! & 0x80) !== 0) at++;
  return at + 1;
}

/** `head`: the bytes the file still holds of the block cut short (at most its first read). */
export function cutBlockIsEnd(head: Uint8Array, rar4: boolean): boolean {
  const type = typeOffset(head, rar4);
  if (type < head.length) return head[type] === (rar4 ? RAR4_END_BLOCK_TYPE : RAR5_END_BLOCK_TYPE);
  const ends = rar4 ? RAR4_END_BLOCKS : RAR5_END_BLOCKS;
  return ends.some((end) => end.subarray(0, head.length).equals(head));
}

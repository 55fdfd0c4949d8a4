/**
 * Whether the bytes a RAR file ends with, cut short inside a block's first read, are the start of
 * its end-of-archive block (nothing lost) rather than of a member's header (that member and
 * whatever followed it lost). unrar cannot tell: RAR 5 takes any cut header, or none at all, for
 * the archive's end, RAR 4 reports an unnamed read error.
 *
 * Only the block's type byte says. Before it (RAR 4: the CRC16's 1–2 bytes; RAR 5: the CRC32 and
 * the header size, 1–5 bytes) nothing does: comparing those bytes with the few fixed end blocks'
 * CRCs let a member header whose CRC happens to start the same way (once in 256 for one byte)
 * pass for the end, its pages lost without a word. And a file that ends at a block boundary, no
 * byte of the next block at all, may have lost any number of members. So the end block counts
 * only once its type byte is there: a cut before it is a cut archive (the members listed whole
 * are still kept and served; the book says ERR_1007). A RAR writer that leaves the end block out
 * (none we know of since RAR 3) gets that comment on a whole book, which is the lesser harm.
 */
export const RAR4_END_BLOCK_TYPE = 0x7b;
export const RAR5_END_BLOCK_TYPE = 5;

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
  return type < head.length && head[type] === (rar4 ? RAR4_END_BLOCK_TYPE : RAR5_END_BLOCK_TYPE);
}

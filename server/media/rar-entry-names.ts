/**
 * node-unrar-js hands out a RAR member's name cut to the 1,024 wide characters of unrar's
 * RARHeaderDataEx.FileNameW, without saying so. Two members whose names share their first 1,024
 * characters then come out under one name: the listing keeps only the first, and a page read by
 * that name gets whichever member unrar matches first, not necessarily the one listed.
 *
 * A cut name cannot be told from a whole one of the same length, so every name that long is left
 * out of the listing (the book says so: ERR_1007, as for names over MAX_ENTRY_NAME_BYTES), and no
 * read ever asks unrar for one. Measured (tests/unit/server/entry-name-bounds.test.ts): cut names
 * come out at 1,023 to 1,024 code points (RAR 4 and 5; ASCII, 2- and 4-byte UTF-8); the bound
 * leaves a margin below that. No real book's page path comes near 1,000 characters (file systems
 * cap a name at 255 bytes).
 */
export const RAR_NAME_CUT_CODE_POINTS = 1000;

/** Whether unrar may have cut this name (see RAR_NAME_CUT_CODE_POINTS). */
function mayBeCut(name: string): boolean {
  // Code points: a UTF-16 length counts a 4-byte character twice.
  return name.length >= RAR_NAME_CUT_CODE_POINTS && [...name].length >= RAR_NAME_CUT_CODE_POINTS;
}

/** The members unrar listed without those whose names it may have cut, and why some were left out (OpenedBook.damage). */
export function withoutCutRarNames<T extends { name: string }>(members: readonly T[]): { kept: T[]; leftOut: string | undefined } {
  const kept = members.filter((member) => !mayBeCut(member.name));
  const count = members.length - kept.length;
  const leftOut =
    count === 0
      ? undefined
      : `${count} entries left out: their names are ${RAR_NAME_CUT_CODE_POINTS} characters or longer, which unrar may hand out cut (two such names could be taken for each other)`;
  return { kept, leftOut };
}

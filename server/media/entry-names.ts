/**
 * True when an archive entry name, read as a path, stays inside the archive: not absolute (`/x`,
 * `\x`, `C:x`), and without any `..` segment, with either slash as separator. Entry names are
 * only ever identifiers here, but a name that would escape when extracted is a hostile archive's
 * doing and is not offered as a page or file.
 */
export function staysInsideArchive(name: string): boolean {
  const path = name.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return false;
  return !path.split('/').includes('..');
}

/**
 * Longest archive entry name kept, in UTF-8 bytes: Linux's PATH_MAX, longer than any file system
 * lets a path be, so no real book's entry comes near it. A zip, RAR or 7z name may be 64 KiB or
 * more; a book of such names (1,500 pages named 65,000 bytes: a 186 MB file) held a 93 MB listing
 * in every open handle, stored 94 MB of page names and answered its page list with 93 MB of JSON
 * in 11 s. Such entries are left out of the listing, and the book says so (ERR_1007).
 */
export const MAX_ENTRY_NAME_BYTES = 4096;

/** Why a listing left out `count` entries for their names' length (OpenedBook.damage), or undefined for none. */
export function longNamesLeftOut(count: number): string | undefined {
  return count === 0 ? undefined : `${count} entries left out: their names are longer than ${MAX_ENTRY_NAME_BYTES} bytes`;
}

/** Listing damages joined into one (OpenedBook.damage), or undefined when there are none. */
export function joinDamage(...damages: (string | undefined)[]): string | undefined {
  const said = damages.filter((damage) => damage !== undefined);
  return said.length === 0 ? undefined : said.join('; ');
}

/** The members a worker listed (RAR, 7z) without those whose names are over MAX_ENTRY_NAME_BYTES, and why some were left out. */
export function withoutLongNames<T extends { name: string }>(members: readonly T[]): { kept: T[]; leftOut: string | undefined } {
  const kept = members.filter((member) => member.name.length <= MAX_ENTRY_NAME_BYTES / 3 || Buffer.byteLength(member.name) <= MAX_ENTRY_NAME_BYTES);
  return { kept, leftOut: longNamesLeftOut(members.length - kept.length) };
}

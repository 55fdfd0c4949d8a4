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

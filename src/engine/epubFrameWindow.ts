/*
 * Which of a book's documents the EPUB reader keeps a frame for. The rendering library loads the
 * documents of the positions up to two either side of the one read, but only drops a frame once no
 * position within five is in its document: over one-position chapters read at a held key's speed
 * that left eight to twelve frames (each a whole document and its layout) alive at once.
 */

/** Positions either side of the one read whose documents keep their frames: the library's own loading window. */
export const FRAMES_AROUND = 2;

/** The documents (hrefs) of the positions within `around` of position `index` (0-based), in a position list's hrefs. */
export function documentsToKeep(hrefs: readonly string[], index: number, around = FRAMES_AROUND): Set<string> {
  const keep = new Set<string>();
  for (let i = Math.max(0, index - around); i <= Math.min(hrefs.length - 1, index + around); i++) keep.add(hrefs[i]!);
  return keep;
}

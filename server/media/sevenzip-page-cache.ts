/**
 * Members of solid 7z blocks unpacked ahead of need, shared by every open 7z book and bounded in
 * bytes (least recently used go first). A member of a solid block can only be unpacked by
 * unpacking the block from its start, so a reader turning pages would otherwise pay for every
 * page before the one asked for, again and again; unpacking a few members past it in the same
 * pass and keeping them here makes the next turns free. Keys carry the file's size and mtime, so a
 * replaced file never serves old bytes.
 */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;

const cache = new Map<string, Buffer>();
let cachedBytes = 0;

export const memberKey = (fileKey: string, name: string): string => `${fileKey}\u0000${name}`;

/** A cached member, marked as recently used; undefined when absent. */
export function takeCachedMember(key: string): Buffer | undefined {
  const bytes = cache.get(key);
  if (bytes === undefined) return undefined;
  cache.delete(key);
  cache.set(key, bytes);
  return bytes;
}

export function cacheMember(key: string, bytes: Buffer): void {
  if (bytes.length > MAX_CACHED_BYTES / 4) return;
  const previous = cache.get(key);
  if (previous) {
    cachedBytes -= previous.length;
    cache.delete(key);
  }
  cache.set(key, bytes);
  cachedBytes += bytes.length;
  for (const [oldest, old] of cache) {
    if (cachedBytes <= MAX_CACHED_BYTES) break;
    cache.delete(oldest);
    cachedBytes -= old.length;
  }
}

/** Bytes held right now (tests). */
export function cachedMemberBytes(): number {
  return cachedBytes;
}

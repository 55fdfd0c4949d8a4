import type { Readable } from 'node:stream';
import xxhash, { type XXHashAPI } from 'xxhash-wasm';

/**
 * The hash Folio gives page bytes: xxHash64 as 16 hex digits. Fast, and collisions between
 * different images are not a practical concern for spotting repeated pages or checking a copy.
 * A leaf: page hashing, page removal and CBZ conversion all use it without knowing each other.
 */
let api: Promise<XXHashAPI> | undefined;
const hasher = () => (api ??= xxhash());

/** xxHash64 of a stream's bytes, as 16 hex digits. */
export async function hashStream(stream: Readable): Promise<string> {
  const hash = (await hasher()).create64();
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest().toString(16).padStart(16, '0');
}


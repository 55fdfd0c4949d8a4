import { rename, rm, writeFile } from 'node:fs/promises';
import { rethrowUnless, isMissingFile } from './fs-errors.ts';

/**
 * Writes a file so that its path only ever holds a whole file: the bytes go to a temporary name
 * beside it, renamed over the path once written. A write that fails (a full disk, a file-size
 * limit) removes what it left and rethrows, so no half-written poster or cached page is ever
 * served, and nothing unreferenced is left to grow the data directory. A kill mid-write can still
 * leave a `.partial` file, never the real name.
 */
export async function writeFileAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const partial = `${path}.${process.pid}.partial`;
  try {
    await writeFile(partial, bytes);
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true }).catch((cleanup: unknown) => rethrowUnless(cleanup, isMissingFile));
    throw error;
  }
}

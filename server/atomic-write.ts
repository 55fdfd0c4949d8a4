import { rename, rm, writeFile } from 'node:fs/promises';
import { rethrowUnless, isMissingFile } from './fs-errors.ts';

/** Temporary names being written by this process right now (the start-up sweep leaves them). */
const inFlight = new Set<string>();
let written = 0;

/**
 * Writes a file so that its path only ever holds a whole file: the bytes go to a temporary name
 * beside it, renamed over the path once written. A write that fails (a full disk, a file-size
 * limit) removes what it left and rethrows, so no half-written poster or cached page is ever
 * served, and nothing unreferenced is left to grow the data directory. A kill mid-write can still
 * leave a `.partial` file, never the real name: domain/partial-file-sweep.ts removes those at the
 * next start. Each write has a name of its own, so a new write never reuses a leftover's name.
 */
export async function writeFileAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const partial = `${path}.${process.pid}.${++written}.partial`;
  inFlight.add(partial);
  try {
    await writeFile(partial, bytes);
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true }).catch((cleanup: unknown) => rethrowUnless(cleanup, isMissingFile));
    throw error;
  } finally {
    inFlight.delete(partial);
  }
}

/**
 * True for a temporary file writeFileAtomically left behind (`<name>.<pid>[.<n>].partial`) that no
 * write of this process is still filling.
 */
export function isLeftoverPartialFile(path: string): boolean {
  return PARTIAL_FILE_NAME.test(path) && !inFlight.has(path);
}

const PARTIAL_FILE_NAME = /\.\d+(\.\d+)?\.partial$/;

import { realpath } from 'node:fs/promises';
import { parse, resolve } from 'node:path';
import { isMissingFile, rethrowUnless } from '../../fs-errors.ts';
import { isStrictlyInside } from './library-paths.ts';

/**
 * Folders that can never be a library root (README "Security"): the file system root, Folio's own
 * data directory (database, thumbnails, logs) and anything inside it or holding it, pseudo file
 * systems (/proc, /sys, /dev, /run) and system folders. Scanning any of them would index the
 * server's own secrets and serve them to every user with a download right.
 */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev', '/run', '/etc', '/boot', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/usr/bin', '/usr/sbin', '/usr/lib', '/usr/libexec', '/var/lib', '/var/run', '/var/log', '/root'];

/** Canonical forms of a folder (its real path when it exists; /lib may be a link to /usr/lib). */
async function canonical(folder: string): Promise<string> {
  try {
    return await realpath(folder);
  } catch (error) {
    rethrowUnless(error, isMissingFile);
    return resolve(folder);
  }
}

const within = (parent: string, child: string) => parent === child || isStrictlyInside(parent, child);

/** Why a canonical folder may not be a library root, or undefined when it may. */
export async function refusedRootReason(root: string, dataDir: string): Promise<string | undefined> {
  if (root === parse(root).root) return 'A library cannot be the root of the file system';
  const data = await canonical(dataDir);
  if (within(data, root)) return "A library cannot be inside Folio's data directory";
  if (within(root, data)) return "A library cannot hold Folio's data directory";
  for (const folder of SYSTEM_FOLDERS) {
    const system = await canonical(folder);
    if (within(system, root) || within(folder, root)) return `A library cannot be inside the system folder ${folder}`;
  }
  return undefined;
}

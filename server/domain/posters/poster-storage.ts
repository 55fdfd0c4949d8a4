import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../../atomic-write.ts';
import { isUnwritableStorage, rethrowUnless } from '../../fs-errors.ts';
import { fileSlots } from '../../media/file-slots.ts';
import type { FolioContext } from '../context.ts';

/** While the data folder cannot be written, one line per this long, counting the failures between. */
const LOG_EVERY_MS = 60_000;
let lastLogged = -Infinity;
let unlogged = 0;

/**
 * Writes a drawn poster's bytes to `absolutePath` (written aside then renamed: a reader never sees
 * half a file, and a write cut short leaves the poster drawn before whole). False when the data
 * folder cannot take it (a full disk or quota, a read-only mount or folder, a file in the way): the
 * caller serves the bytes it drew from memory and records nothing, so a later request, once there
 * is room, draws and stores it. Any other failure is thrown. A full disk fails every poster of a
 * library page: logged once a minute with the count, not once per poster.
 */
export async function storeDrawnPoster(ctx: FolioContext, absolutePath: string, bytes: Buffer, context: Record<string, unknown>): Promise<boolean> {
  try {
    await mkdir(dirname(absolutePath), { recursive: true });
    await fileSlots.withSlot(() => writeFileAtomically(absolutePath, bytes));
    return true;
  } catch (error) {
    rethrowUnless(error, isUnwritableStorage);
    const now = performance.now();
    if (now - lastLogged < LOG_EVERY_MS) {
      unlogged++;
      return false;
    }
    ctx.logger.warn(
      { err: error, file: absolutePath, ...context, ...(unlogged > 0 ? { notStoredSinceLastLine: unlogged } : {}) },
      'drawn poster not stored: the thumbnails folder cannot be written (served from memory, stored once it can be)',
    );
    lastLogged = now;
    unlogged = 0;
    return false;
  }
}

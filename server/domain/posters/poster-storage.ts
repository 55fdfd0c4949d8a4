import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../../atomic-write.ts';
import { isUnwritableStorage, rethrowUnless } from '../../fs-errors.ts';
import { fileSlots } from '../../media/file-slots.ts';
import type { FolioContext } from '../context.ts';
import { warnNotStored } from '../unwritable-data-log.ts';

/**
 * Writes a drawn poster's bytes to `absolutePath` (written aside then renamed: a reader never sees
 * half a file, and a write cut short leaves the poster drawn before whole). False when the data
 * folder cannot take it (a full disk or quota, a read-only mount or folder, a file in the way): the
 * caller serves the bytes it drew from memory and records nothing, so a later request, once there
 * is room, draws and stores it. Any other failure is thrown. Logged once a minute (a full disk fails
 * every poster of a library page): unwritable-data-log.ts.
 */
export async function storeDrawnPoster(ctx: FolioContext, absolutePath: string, bytes: Buffer, context: Record<string, unknown>): Promise<boolean> {
  try {
    await mkdir(dirname(absolutePath), { recursive: true });
    await fileSlots.withSlot(() => writeFileAtomically(absolutePath, bytes));
    return true;
  } catch (error) {
    rethrowUnless(error, isUnwritableStorage);
    warnNotStored(ctx, 'drawn poster not stored: the thumbnails folder cannot be written (served from memory, stored once it can be)', error, { file: absolutePath, ...context });
    return false;
  }
}

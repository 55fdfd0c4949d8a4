import { readdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { HttpError, badRequest } from '../errors.ts';
import { isUnusablePath, rethrowUnless } from '../../fs-errors.ts';
import { requireRole } from '../guards.ts';
import { type FolioApp, KotlinPrimitive, OptionalBody, PathText, Type } from '../schemas.ts';

/**
 * DirectoryRequestDto; optional as a whole (an empty request lists the root). `path` is a Kotlin
 * non-null String with a default: absent reads as "", but an explicit null is refused by Jackson
 * (400), so it is not Nullable here. `showFiles` is a Kotlin Boolean: null reads as false.
 */
const DirectoryRequest = OptionalBody(Type.Object({ path: Type.Optional(PathText()), showFiles: KotlinPrimitive('boolean') }));

interface PathDto {
  type: 'directory' | 'file';
  name: string;
  path: string;
}

const byName = (a: PathDto, b: PathDto) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });

/**
 * `POST /api/v1/filesystem` (ADMIN): folder browser for choosing a library root. Body
 * `{path, showFiles}`; an empty path lists the filesystem root. Hidden entries are left out.
 */
export function registerFilesystemRoutes(app: FolioApp): void {
  app.post('/api/v1/filesystem', { config: { role: 'ADMIN' }, schema: { body: DirectoryRequest } }, async (request) => {
    const body = request.body;
    const requested = body.path?.trim() ?? '';
    const showFiles = body.showFiles === true;
    if (requested.includes('\0')) throw badRequest('Invalid path');
    const path = requested === '' ? '/' : requested;
    if (!isAbsolute(path)) throw badRequest('Path must be absolute');
    const folder = resolve(path);
    let entries;
    try {
      if (!(await stat(folder)).isDirectory()) throw badRequest('ERR_1016');
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (error instanceof HttpError) throw error;
      rethrowUnless(error, isUnusablePath);
      throw badRequest('ERR_1016');
    }
    const directories: PathDto[] = [];
    const files: PathDto[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(folder, entry.name);
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        // A dangling, looping or forbidden link leads to no folder; another failure is no answer.
        isDirectory = await stat(full).then(
          (s) => s.isDirectory(),
          (failure: unknown) => {
            rethrowUnless(failure, isUnusablePath);
            return false;
          },
        );
      }
      if (isDirectory) directories.push({ type: 'directory', name: entry.name, path: full });
      else if (showFiles && (entry.isFile() || entry.isSymbolicLink())) files.push({ type: 'file', name: entry.name, path: full });
    }
    const parent = folder === '/' ? '' : dirname(folder);
    return { parent, directories: directories.sort(byName), files: files.sort(byName) };
  });
}

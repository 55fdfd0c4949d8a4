import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SCAN_INTERVALS, SERIES_COVERS } from '../../db/stored-values.ts';
import { newId } from '../../db/ids.ts';
import type { Library } from '../../db/library-repository.ts';
import type { FolioContext } from '../../domain/context.ts';
import { refusedRootReason } from '../../domain/library/library-roots.ts';
import { submitLibraryScan } from '../../domain/tasks/library-tasks.ts';
import { deleteLibrary } from '../../domain/library/library-deletion.ts';
import { HttpError, badRequest, notFound } from '../errors.ts';
import { canAccessLibrary, caller, callerIsAdmin, requireRole } from '../guards.ts';
import { toLibraryDto } from '../dto/library-dto.ts';
import { type FolioApp, IdParams, Nullable, PathText, type Static, StringEnum, Type, withMessage } from '../schemas.ts';
import { isUnusablePath, rethrowUnless } from '../../fs-errors.ts';

const NonBlank = withMessage(Type.String({ pattern: '\\S' }), 'must not be blank');

/** The options of a library (LibraryCreationDto without name and root; LibraryUpdateDto). */
const LibraryOptions = {
  importComicInfoBook: Type.Optional(Type.Boolean()),
  importComicInfoSeries: Type.Optional(Type.Boolean()),
  importComicInfoCollection: Type.Optional(Type.Boolean()),
  importComicInfoReadList: Type.Optional(Type.Boolean()),
  importComicInfoSeriesAppendVolume: Type.Optional(Type.Boolean()),
  importEpubBook: Type.Optional(Type.Boolean()),
  importEpubSeries: Type.Optional(Type.Boolean()),
  importMylarSeries: Type.Optional(Type.Boolean()),
  importLocalArtwork: Type.Optional(Type.Boolean()),
  importBarcodeIsbn: Type.Optional(Type.Boolean()),
  scanForceModifiedTime: Type.Optional(Type.Boolean()),
  scanInterval: Type.Optional(StringEnum(SCAN_INTERVALS)),
  scanOnStartup: Type.Optional(Type.Boolean()),
  scanCbx: Type.Optional(Type.Boolean()),
  scanPdf: Type.Optional(Type.Boolean()),
  scanEpub: Type.Optional(Type.Boolean()),
  scanDirectoryExclusions: Type.Optional(Type.Array(Type.String())),
  repairExtensions: Type.Optional(Type.Boolean()),
  convertToCbz: Type.Optional(Type.Boolean()),
  emptyTrashAfterScan: Type.Optional(Type.Boolean()),
  seriesCover: Type.Optional(StringEnum(SERIES_COVERS)),
  hashFiles: Type.Optional(Type.Boolean()),
  hashPages: Type.Optional(Type.Boolean()),
  hashKoreader: Type.Optional(Type.Boolean()),
  analyzeDimensions: Type.Optional(Type.Boolean()),
  oneshotsDirectory: Type.Optional(Nullable(Type.String())),
};
const LibraryCreation = Type.Object({ name: NonBlank, root: PathText({ minLength: 1 }), ...LibraryOptions });
type LibraryCreation = Static<typeof LibraryCreation>;

/** Every field may be absent or null (keep); null clears scanDirectoryExclusions and oneshotsDirectory. */
const LibraryUpdate = Type.Unsafe<{ [K in keyof LibraryCreation]?: LibraryCreation[K] | null }>(
  Type.Object({
    name: Type.Optional(Nullable(NonBlank)),
    root: Type.Optional(Nullable(PathText({ minLength: 1 }))),
    ...Object.fromEntries(Object.entries(LibraryOptions).map(([key, schema]) => [key, Type.Optional(Nullable(schema))])),
  }),
);

/**
 * oneshotsDirectory as Komga stores it: a blank folder name is no folder (null). komga-webui's
 * edit dialog sends "" for an empty field; Komelia and komf read the option back as String?.
 */
const oneshotsFolder = (value: string | null | undefined): string | null => (value?.trim() ? value : null);

/** Komga's creation defaults (REFERENCE §2.2). */
/** Komga refuses a second library of the same name (exact, after trimming): two would be told apart only by id. */
function refuseTakenName(ctx: FolioContext, name: string, exceptId?: string): void {
  if (ctx.repos.libraries.findAll().some((l) => l.id !== exceptId && l.name === name)) throw badRequest('Library name already exists');
}

function withDefaults(body: LibraryCreation, root: string, now: number): Library {
  return {
    id: newId(now),
    name: body.name.trim(),
    root,
    importComicInfoBook: body.importComicInfoBook ?? true,
    importComicInfoSeries: body.importComicInfoSeries ?? true,
    importComicInfoCollection: body.importComicInfoCollection ?? true,
    importComicInfoReadList: body.importComicInfoReadList ?? true,
    importComicInfoSeriesAppendVolume: body.importComicInfoSeriesAppendVolume ?? true,
    importEpubBook: body.importEpubBook ?? true,
    importEpubSeries: body.importEpubSeries ?? true,
    importMylarSeries: body.importMylarSeries ?? true,
    importLocalArtwork: body.importLocalArtwork ?? true,
    // Komga's API creates libraries with the barcode search on; its web client (and ours) sends false.
    importBarcodeIsbn: body.importBarcodeIsbn ?? true,
    scanForceModifiedTime: body.scanForceModifiedTime ?? false,
    scanInterval: body.scanInterval ?? 'EVERY_6H',
    scanOnStartup: body.scanOnStartup ?? false,
    scanCbx: body.scanCbx ?? true,
    scanPdf: body.scanPdf ?? true,
    scanEpub: body.scanEpub ?? true,
    scanDirectoryExclusions: body.scanDirectoryExclusions ?? [],
    repairExtensions: body.repairExtensions ?? false,
    convertToCbz: body.convertToCbz ?? false,
    emptyTrashAfterScan: body.emptyTrashAfterScan ?? false,
    seriesCover: body.seriesCover ?? 'FIRST',
    hashFiles: body.hashFiles ?? true,
    hashPages: body.hashPages ?? false,
    hashKoreader: body.hashKoreader ?? false,
    analyzeDimensions: body.analyzeDimensions ?? true,
    oneshotsDirectory: oneshotsFolder(body.oneshotsDirectory),
    unavailableDate: null,
    created: now,
    lastModified: now,
  };
}

/** The canonical root folder, or a 400 ERR_1016 when it is not an existing directory. */
/** An existing folder's canonical path (ERR_1016 otherwise). */
async function validateRoot(root: string): Promise<string> {
  if (!isAbsolute(root) || root.includes('\0')) throw badRequest('ERR_1016');
  let canonical: string;
  try {
    canonical = await realpath(resolve(root));
    if (!(await stat(canonical)).isDirectory()) throw badRequest('ERR_1016');
  } catch (error) {
    if (error instanceof HttpError) throw error;
    rethrowUnless(error, isUnusablePath);
    throw badRequest('ERR_1016');
  }
  return canonical;
}

/** After Komga's own checks: folders Folio never scans (system, data directory; README "Security"). */
async function refuseUnsafeRoot(root: string, dataDir: string): Promise<void> {
  const refused = await refusedRootReason(root, dataDir);
  if (refused) throw badRequest(refused);
}

const overlaps = (a: string, b: string) =>
  a === b || a.startsWith(b.endsWith(sep) ? b : b + sep) || b.startsWith(a.endsWith(sep) ? a : a + sep);

export function registerLibraryRoutes(app: FolioApp, ctx: FolioContext): void {
  app.get('/api/v1/libraries', async (request) => {
    const user = caller(request);
    const admin = callerIsAdmin(request);
    return ctx.repos.libraries
      .findAll()
      .filter((l) => canAccessLibrary(user, l.id))
      .map((l) => toLibraryDto(l, admin));
  });

  app.get('/api/v1/libraries/:id', { schema: { params: IdParams } }, async (request) => {
    const user = caller(request);
    const library = ctx.repos.libraries.findById(request.params.id);
    if (!library || !canAccessLibrary(user, library.id)) throw notFound();
    return toLibraryDto(library, callerIsAdmin(request));
  });

  app.post('/api/v1/libraries', { config: { role: 'ADMIN' }, schema: { body: LibraryCreation } }, async (request) => {
    requireRole(request, 'ADMIN');
    refuseTakenName(ctx, request.body.name.trim());
    const root = await validateRoot(request.body.root);
    for (const other of ctx.repos.libraries.findAll()) {
      if (overlaps(root, other.root)) throw badRequest('ERR_1017');
    }
    await refuseUnsafeRoot(root, ctx.dataDir);
    const library = withDefaults(request.body, root, Date.now());
    ctx.repos.libraries.insert(library);
    ctx.events.emit({ name: 'LibraryAdded', data: { libraryId: library.id } });
    // Komga scans a library as soon as it is created.
    submitLibraryScan(ctx, library.id);
    return toLibraryDto(library, true);
  });

  app.post('/api/v1/libraries/:id/scan', { schema: { params: IdParams, querystring: Type.Object({ deep: Type.Optional(Type.Boolean()) }) } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    if (!ctx.repos.libraries.findById(request.params.id)) throw notFound();
    submitLibraryScan(ctx, request.params.id, request.query.deep === true);
    return reply.code(202).send();
  });

  /**
   * LibraryUpdateDto: absent or null keeps a value, except the two fields an explicit null clears.
   * PUT is the deprecated spelling of the same update (endpoints.txt), kept for older clients.
   */
  app.route({
    method: ['PATCH', 'PUT'],
    url: '/api/v1/libraries/:id',
    config: { role: 'ADMIN' },
    schema: { params: IdParams, body: LibraryUpdate },
    handler: async (request, reply) => {
      const library = ctx.repos.libraries.findById(request.params.id);
      if (!library) throw notFound();
      const body = request.body;
      const next: Library = { ...library };
      const { name, root, ...options } = body;
      if (name) {
        next.name = name.trim();
        refuseTakenName(ctx, next.name, library.id);
      }
      for (const [key, value] of Object.entries(options)) {
        // Only the options themselves: other properties (id, created, …) are not the client's to set,
        // nor names every object inherits (`toString`, `constructor`), which `in` would let through.
        if (Object.hasOwn(LibraryOptions, key) && value !== null && value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
      }
      if (options.scanDirectoryExclusions === null) next.scanDirectoryExclusions = [];
      if (options.oneshotsDirectory !== undefined) next.oneshotsDirectory = oneshotsFolder(options.oneshotsDirectory);
      let rootChanged = false;
      if (typeof root === 'string' && root !== library.root) {
        const canonical = await validateRoot(root);
        for (const other of ctx.repos.libraries.findAll()) {
          if (other.id !== library.id && overlaps(canonical, other.root)) throw badRequest('ERR_1017');
        }
        await refuseUnsafeRoot(canonical, ctx.dataDir);
        rootChanged = canonical !== library.root;
        next.root = canonical;
      }
      next.lastModified = Date.now();
      ctx.repos.libraries.update(next);
      ctx.events.emit({ name: 'LibraryChanged', data: { libraryId: library.id } });
      if (rootChanged) submitLibraryScan(ctx, library.id);
      return reply.code(204).send();
    },
  });

  app.delete('/api/v1/libraries/:id', { schema: { params: IdParams } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const library = ctx.repos.libraries.findById(request.params.id);
    if (!library) throw notFound();
    await deleteLibrary(ctx, library);
    return reply.code(204).send();
  });
}

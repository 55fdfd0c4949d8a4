import type { FolioContext } from '../../domain/context.ts';
import { enableEmptyListsCleanup } from '../../domain/library/empty-lists-cleanup.ts';
import { type StoredSettings, THUMBNAIL_SIZES, type ThumbnailSize, readSettings, writeSettings } from '../../domain/server-settings.ts';
import { rotateRememberMeKey } from '../auth/remember-me.ts';
import { requireRole } from '../guards.ts';
import { type FolioApp, Nullable, PathText, type Static, StringEnum, Type } from '../schemas.ts';

const CONTEXT_PATH = '^/[\\w\\-/]*[a-zA-Z0-9]$';

/** Komga's SettingsUpdateDto: every field null-means-keep, except the presence-tracked ports and paths. */
const SettingsUpdate = Type.Object({
  deleteEmptyCollections: Type.Optional(Nullable(Type.Boolean())),
  deleteEmptyReadLists: Type.Optional(Nullable(Type.Boolean())),
  rememberMeDurationDays: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 365_000 }))),
  renewRememberMeKey: Type.Optional(Nullable(Type.Boolean())),
  thumbnailSize: Type.Optional(Nullable(StringEnum(Object.keys(THUMBNAIL_SIZES) as ThumbnailSize[]))),
  taskPoolSize: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 64 }))),
  serverPort: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 65535 }))),
  serverContextPath: Type.Optional(
    Nullable(Type.String({ pattern: CONTEXT_PATH, description: 'starts with / and ends with a letter or digit' })),
  ),
  koboProxy: Type.Optional(Nullable(Type.Boolean())),
  koboPort: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 65535 }))),
  kepubifyPath: Type.Optional(Nullable(PathText())),
});
type SettingsUpdate = Static<typeof SettingsUpdate>;

/** The stored settings an update changes (null and absent keep, except the presence-tracked fields). */
function changesOf(body: SettingsUpdate): Partial<StoredSettings> {
  const changes: Partial<StoredSettings> = {};
  const keep = <T>(value: T | null | undefined) => value ?? undefined;
  changes.deleteEmptyCollections = keep(body.deleteEmptyCollections);
  changes.deleteEmptyReadLists = keep(body.deleteEmptyReadLists);
  changes.koboProxy = keep(body.koboProxy);
  changes.rememberMeDurationDays = keep(body.rememberMeDurationDays);
  changes.taskPoolSize = keep(body.taskPoolSize);
  changes.thumbnailSize = keep(body.thumbnailSize);
  if (body.serverPort !== undefined) changes.serverPort = body.serverPort;
  if (body.koboPort !== undefined) changes.koboPort = body.koboPort;
  if (body.serverContextPath !== undefined) changes.serverContextPath = body.serverContextPath;
  if (body.kepubifyPath !== undefined) changes.kepubifyPath = body.kepubifyPath === '' ? null : body.kepubifyPath;
  return changes;
}

/**
 * Server settings (ADMIN; SettingsDto, REFERENCE §1.5 and §2.8), stored in SQLite. What Folio
 * does with each:
 * - thumbnailSize: longest edge of posters generated from now on (PUT /books/thumbnails redraws old ones);
 * - rememberMeDurationDays: lifetime of remember-me cookies issued from now on;
 *   renewRememberMeKey: true rotates the signing key, so every existing cookie stops working;
 * - taskPoolSize: number of background task workers, applied at once and at every start;
 * - deleteEmptyCollections / deleteEmptyReadLists: lists left empty when series/books are removed go too;
 * - serverPort / serverContextPath: stored and reported as databaseSource only. Folio takes its port
 *   and its base path from its command line / environment (--port, --base-path), reported as
 *   configurationSource and effectiveValue: what it really uses;
 * - koboProxy / koboPort / kepubifyPath: stored and echoed, but Folio has no Kobo sync and never
 *   runs kepubify, so they change nothing (kepubifyPath reports no effective value).
 */
export function registerSettingsRoutes(app: FolioApp, ctx: FolioContext, basePath = ''): void {
  const stored = readSettings(ctx.repos.serverSettings).taskPoolSize;
  if (stored !== null) ctx.tasks.setWorkers(stored);
  enableEmptyListsCleanup(ctx);

  const listeningPort = (): number | null => {
    const address = app.server.listening ? app.server.address() : null;
    return typeof address === 'object' && address ? address.port : null;
  };

  app.get('/api/v1/settings', async (request) => {
    requireRole(request, 'ADMIN');
    const s = readSettings(ctx.repos.serverSettings);
    const port = listeningPort();
    return {
      deleteEmptyCollections: s.deleteEmptyCollections,
      deleteEmptyReadLists: s.deleteEmptyReadLists,
      rememberMeDurationDays: s.rememberMeDurationDays,
      thumbnailSize: s.thumbnailSize,
      taskPoolSize: ctx.tasks.workers,
      serverPort: { configurationSource: port, databaseSource: s.serverPort, effectiveValue: port },
      serverContextPath: { configurationSource: basePath || null, databaseSource: s.serverContextPath, effectiveValue: basePath },
      koboProxy: s.koboProxy,
      koboPort: s.koboPort,
      kepubifyPath: { configurationSource: null, databaseSource: s.kepubifyPath, effectiveValue: null },
    };
  });

  app.patch('/api/v1/settings', { config: { role: 'ADMIN' }, schema: { body: SettingsUpdate } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    const changes = changesOf(request.body);
    writeSettings(ctx.repos.serverSettings, changes);
    if (changes.taskPoolSize) ctx.tasks.setWorkers(changes.taskPoolSize);
    if (request.body.renewRememberMeKey === true) rotateRememberMeKey(ctx.repos.serverSettings);
    return reply.code(204).send();
  });
}

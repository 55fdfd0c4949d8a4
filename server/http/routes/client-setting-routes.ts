import type { FastifyInstance } from 'fastify';
import { type ClientSetting, GLOBAL_SCOPE } from '../../db/client-setting-repository.ts';
import type { FolioContext } from '../../domain/context.ts';
import { STORE_LIMITS, StoreLimitExceeded, checkClientSettings } from '../../domain/store-limits.ts';
import { badRequest } from '../errors.ts';
import { caller, requireRole } from '../guards.ts';
import { type FolioApp, KotlinPrimitive, Type } from '../schemas.ts';

/**
 * ClientSettingGlobalUpdateDto / ClientSettingUserUpdateDto maps, and the keys a DELETE names.
 * value is a Kotlin String that Komga stores as given: "" (and a blank key) is a setting like any
 * other, only a missing or null value is refused (a null by normaliseRequest, as for every text). allowUnauthorized is a Kotlin Boolean: absent (or
 * null) reads as false, not a 400.
 */
const SettingsUpdate = Type.Record(Type.String(), Type.Object({ value: Type.String({ maxLength: STORE_LIMITS.clientSettings.valueBytes }), allowUnauthorized: KotlinPrimitive('boolean') }));
const SettingKeys = Type.Array(Type.String());

type Body = Record<string, unknown>;

/**
 * Largest body a settings write may have. A scope holds at most bytesPerScope of keys and values
 * (store-limits.ts), so a bigger body can only be refused: refused before it is read and parsed, which
 * for a 10 MB body of 300,000 tiny keys (the server-wide limit) held the one thread 1-3 s.
 * Twice the scope's bytes leaves room for the JSON around every key and value.
 */
const SETTINGS_BODY_LIMIT = 2 * STORE_LIMITS.clientSettings.bytesPerScope;

/** `{key: {value, allowUnauthorized}}` (global) or `{key: {value}}` (user) → entries to save. */
function readUpdate(body: unknown, global: boolean): [string, ClientSetting][] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The request body must be a JSON object');
  return Object.entries(body as Body).map(([key, raw]) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`${key}: expected an object with a value`);
    const { value, allowUnauthorized } = raw as Body;
    if (typeof value !== 'string') throw badRequest(`${key}.value must be a string`);
    if (global && typeof allowUnauthorized !== 'boolean') throw badRequest(`${key}.allowUnauthorized must be a boolean`);
    return [key, { value, allowUnauthorized: global ? (allowUnauthorized as boolean) : false }];
  });
}

/** DELETE bodies: a JSON array of keys. */
function readKeys(body: unknown): string[] {
  if (!Array.isArray(body) || body.some((k) => typeof k !== 'string')) throw badRequest('The request body must be a list of keys');
  return body as string[];
}

/**
 * Client settings (REFERENCE §2.8), which Komga's web UI loads right after login. The global list
 * is also open to anonymous callers (the login page reads the OAuth2 options) but then holds only
 * the settings flagged allowUnauthorized. User settings carry no allowUnauthorized property.
 */
export function registerClientSettingRoutes(app: FolioApp, ctx: FolioContext): void {
  const settings = ctx.repos.clientSettings;

  /** Saves within the store limits (store-limits.ts): a scope over them answers 400. */
  const saveBounded = (scope: string, entries: [string, ClientSetting][]) => {
    const current = new Map([...settings.findAll(scope)].map(([key, s]) => [key, s.value]));
    try {
      checkClientSettings(current, entries.map(([key, s]) => [key, s.value]), settings.totalBytes());
    } catch (error) {
      if (error instanceof StoreLimitExceeded) throw badRequest(error.message);
      throw error;
    }
    settings.save(scope, entries);
  };

  app.get('/api/v1/client-settings/global/list', async (request) => {
    const anonymous = request.user === null;
    const result: Record<string, { value: string; allowUnauthorized: boolean }> = {};
    for (const [key, s] of settings.findAll(GLOBAL_SCOPE, anonymous)) result[key] = { value: s.value, allowUnauthorized: s.allowUnauthorized };
    return result;
  });

  app.patch('/api/v1/client-settings/global', { bodyLimit: SETTINGS_BODY_LIMIT, schema: { body: SettingsUpdate } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    saveBounded(GLOBAL_SCOPE, readUpdate(request.body, true));
    return reply.code(204).send();
  });

  app.delete('/api/v1/client-settings/global', { bodyLimit: SETTINGS_BODY_LIMIT, schema: { body: SettingKeys } }, async (request, reply) => {
    requireRole(request, 'ADMIN');
    settings.delete(GLOBAL_SCOPE, readKeys(request.body));
    return reply.code(204).send();
  });

  app.get('/api/v1/client-settings/user/list', async (request) => {
    const user = caller(request);
    const result: Record<string, { value: string }> = {};
    for (const [key, s] of settings.findAll(user.id)) result[key] = { value: s.value };
    return result;
  });

  app.patch('/api/v1/client-settings/user', { bodyLimit: SETTINGS_BODY_LIMIT, schema: { body: SettingsUpdate } }, async (request, reply) => {
    const user = caller(request);
    saveBounded(user.id, readUpdate(request.body, false));
    return reply.code(204).send();
  });

  app.delete('/api/v1/client-settings/user', { bodyLimit: SETTINGS_BODY_LIMIT, schema: { body: SettingKeys } }, async (request, reply) => {
    const user = caller(request);
    settings.delete(user.id, readKeys(request.body));
    return reply.code(204).send();
  });
}

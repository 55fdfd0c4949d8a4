import type { ServerSettingRepository } from '../db/server-setting-repository.ts';

/**
 * Server settings (SettingsDto, REFERENCE §2.8) kept in server_setting. Typed accessors with
 * Komga's defaults; the settings route decides what each value changes in Folio.
 */
export const THUMBNAIL_SIZES = { DEFAULT: 300, MEDIUM: 600, LARGE: 900, XLARGE: 1200 } as const;
export type ThumbnailSize = keyof typeof THUMBNAIL_SIZES;

export const DEFAULT_REMEMBER_ME_DAYS = 365;

/** Storage keys (the remember-me signing key lives beside them, see http/auth/remember-me.ts). */
const KEYS = {
  deleteEmptyCollections: 'delete_empty_collections',
  deleteEmptyReadLists: 'delete_empty_read_lists',
  rememberMeDurationDays: 'remember_me_duration_days',
  thumbnailSize: 'thumbnail_size',
  taskPoolSize: 'task_pool_size',
  serverPort: 'server_port',
  serverContextPath: 'server_context_path',
  koboProxy: 'kobo_proxy',
  koboPort: 'kobo_port',
  kepubifyPath: 'kepubify_path',
} as const;
export type SettingName = keyof typeof KEYS;

export interface StoredSettings {
  deleteEmptyCollections: boolean;
  deleteEmptyReadLists: boolean;
  rememberMeDurationDays: number;
  thumbnailSize: ThumbnailSize;
  /** Null: not set, the queue keeps the worker count it was started with. */
  taskPoolSize: number | null;
  serverPort: number | null;
  serverContextPath: string | null;
  koboProxy: boolean;
  koboPort: number | null;
  kepubifyPath: string | null;
}

const bool = (text: string | undefined, fallback: boolean) => (text === undefined ? fallback : text === 'true');
const int = (text: string | undefined): number | null => {
  const n = text === undefined ? Number.NaN : Number(text);
  return Number.isSafeInteger(n) ? n : null;
};

export function readSettings(repo: ServerSettingRepository): StoredSettings {
  const get = (name: SettingName) => repo.get(KEYS[name]);
  const size = get('thumbnailSize');
  return {
    deleteEmptyCollections: bool(get('deleteEmptyCollections'), false),
    deleteEmptyReadLists: bool(get('deleteEmptyReadLists'), false),
    rememberMeDurationDays: int(get('rememberMeDurationDays')) ?? DEFAULT_REMEMBER_ME_DAYS,
    thumbnailSize: size !== undefined && size in THUMBNAIL_SIZES ? (size as ThumbnailSize) : 'DEFAULT',
    taskPoolSize: int(get('taskPoolSize')),
    serverPort: int(get('serverPort')),
    serverContextPath: get('serverContextPath') ?? null,
    koboProxy: bool(get('koboProxy'), false),
    koboPort: int(get('koboPort')),
    kepubifyPath: get('kepubifyPath') ?? null,
  };
}

/** Writes the given settings (null removes a stored value), all in one transaction. */
export function writeSettings(repo: ServerSettingRepository, changes: Partial<StoredSettings>): void {
  const values: [string, string | null][] = [];
  for (const [name, value] of Object.entries(changes) as [SettingName, unknown][]) {
    if (value === undefined) continue;
    values.push([KEYS[name], value === null ? null : String(value)]);
  }
  repo.setAll(values);
}

/** Longest edge of newly generated book posters. */
export const thumbnailMaxEdge = (repo: ServerSettingRepository): number => THUMBNAIL_SIZES[readSettings(repo).thumbnailSize];

/** Lifetime of newly issued remember-me cookies. */
export const rememberMeDurationDays = (repo: ServerSettingRepository): number => readSettings(repo).rememberMeDurationDays;

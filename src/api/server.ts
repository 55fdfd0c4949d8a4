import { ApiError, getJson, sendJson } from './http.ts';

/** Drops queued tasks; the server answers how many it dropped. */
export function cancelAllTasks(): Promise<number> {
  return sendJson('DELETE', '/api/v1/tasks', 'cancel_tasks');
}

/**
 * Redraws generated book posters in the background (after the poster size changed); with
 * `biggerOnly`, only those the new size would draw bigger.
 */
export async function regenerateBookPosters(biggerOnly: boolean): Promise<void> {
  await sendJson('PUT', `/api/v1/books/thumbnails?for_bigger_result_only=${biggerOnly}`, 'redraw_posters');
}

export async function shutDownServer(): Promise<void> {
  await sendJson('POST', '/actuator/shutdown', 'shut_down');
}

export type ActuatorInfo = Record<string, unknown>;

export function getServerInfo(): Promise<ActuatorInfo> {
  return getJson('/actuator/info', 'retrieve_server_info');
}

export type ThumbnailSize = 'DEFAULT' | 'MEDIUM' | 'LARGE' | 'XLARGE';

export interface ServerSettings {
  deleteEmptyCollections: boolean;
  deleteEmptyReadLists: boolean;
  rememberMeDurationDays: number;
  taskPoolSize: number;
  thumbnailSize: ThumbnailSize;
}

/** The settings, or null on a server that has no settings endpoint. */
export async function getServerSettings(): Promise<ServerSettings | null> {
  try {
    return await getJson('/api/v1/settings', 'retrieve_settings');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export async function updateServerSettings(update: Partial<ServerSettings> & { renewRememberMeKey?: boolean }): Promise<void> {
  await sendJson('PATCH', '/api/v1/settings', 'update_settings', { json: update });
}

export interface MetricDto {
  name: string;
  description?: string;
  baseUnit?: string;
  measurements: { statistic: string; value: number }[];
  availableTags: { tag: string; values: string[] }[];
}

/** One actuator metric, optionally narrowed by `tag` entries written `key:value`. */
export function getMetric(name: string, tags: string[] = []): Promise<MetricDto> {
  return getJson(`/actuator/metrics/${encodeURIComponent(name)}`, 'retrieve_metric', { query: { tag: tags } });
}

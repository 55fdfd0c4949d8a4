import ky, { isHTTPError, isNetworkError, isTimeoutError, type KyInstance } from 'ky';
import { pageBasePath } from './basePath.ts';

/** The XHR marker: an expired session then answers a bare 401, without the browser's Basic-auth dialog. */
export const XHR_HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };

/** A call the server has not answered in this long fails (a hung server or proxy is not waited on for ever). */
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * The one HTTP client every API module uses. It sends cookies (the session lives in an
 * HttpOnly cookie) and the XHR marker, so an expired session answers a bare 401 instead of
 * making the browser pop up its own Basic-auth dialog.
 */
let client: KyInstance = makeClient(pageBasePath());

function makeClient(baseUrl: string): KyInstance {
  return ky.create({
    prefix: baseUrl || '/',
    credentials: 'include',
    headers: XHR_HEADERS,
    retry: 0,
    timeout: REQUEST_TIMEOUT_MS,
  });
}

/** Points the client at another server origin (e.g. a Komga server); '' means this origin, at its root. */
export function setApiBaseUrl(baseUrl: string): void {
  apiBaseUrl = baseUrl.replace(/\/+$/, '');
  client = makeClient(apiBaseUrl);
}
/** This server, under the path the page was served from (the base path). */
let apiBaseUrl = pageBasePath();

/** Absolute or origin-relative URL of an API path, for <img>, workers and EventSource. */
export function apiUrl(path: string): string {
  return `${apiBaseUrl}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * A failed call. `action` names what was being attempted (a key under `api_actions` in the
 * locale files) so the UI can say "An error occurred while trying to <action>: <message>".
 */
export class ApiError extends Error {
  readonly action: string;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  /** The request fields the server refused (its `violations`' field names), so a form can mark them. */
  readonly fields: readonly string[];
  /**
   * Why no answer came, when none did (status undefined): the time limit ran out, or the server could
   * not be reached. The browser's own words for it ("Failed to fetch", "NetworkError when…") are in
   * English whatever the page's language, so they stay in `message` for the console, never in
   * `serverMessage`, which the interface shows.
   */
  readonly noAnswer: 'timeout' | 'unreachable' | undefined;

  constructor(action: string, status: number | undefined, serverMessage: string | undefined, cause?: unknown, fields: readonly string[] = []) {
    super(`${action}${status ? ` (HTTP ${status})` : ''}${serverMessage ? `: ${serverMessage}` : ''}`, { cause });
    this.name = 'ApiError';
    this.action = action;
    this.status = status;
    this.serverMessage = serverMessage;
    this.fields = fields;
    this.noAnswer = undefined;
  }
}

/** A call that got no answer at all: the cause's words are kept for the console only (see `noAnswer`). */
class NoAnswerError extends ApiError {
  override readonly noAnswer: 'timeout' | 'unreachable';

  constructor(action: string, cause: Error, noAnswer: 'timeout' | 'unreachable') {
    super(action, undefined, undefined, cause);
    this.name = 'NoAnswerError';
    this.noAnswer = noAnswer;
    this.message = `${action} (no answer: ${cause.message})`;
  }
}

/**
 * A call that failed before any error answer: no answer in time (ky's TimeoutError, or the
 * DOMException of an AbortSignal.timeout()), no connection (ky's NetworkError, or fetch's TypeError
 * for getJsonNow), or an answer that could not be read (a 200 whose JSON is cut). The browser's
 * text goes to the console only.
 */
function failedWithoutAnswer(action: string, error: unknown): ApiError {
  if (isTimeoutError(error) || (error instanceof DOMException && error.name === 'TimeoutError')) {
    return new NoAnswerError(action, error, 'timeout');
  }
  if (isNetworkError(error) || error instanceof TypeError) return new NoAnswerError(action, error, 'unreachable');
  return new ApiError(action, undefined, undefined, error);
}

type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type Query = Record<string, QueryValue>;

/** Lists become repeated keys (`k=a&k=b`), the form Komga documents; empty values are left out. */
export function toSearchParams(query: Query | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (!query) return params;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) params.append(key, String(item));
    } else {
      params.append(key, String(value));
    }
  }
  return params;
}

/**
 * Told about every 401 answer (with the action that got it), so the app can notice a session that
 * ended on the server side. Login and session probes get 401s on purpose; the handler decides.
 */
let unauthorizedHandler: ((action: string) => void) | undefined;

export function setUnauthorizedHandler(handler: ((action: string) => void) | undefined): void {
  unauthorizedHandler = handler;
}

interface CallOptions {
  query?: Query;
  json?: unknown;
  /** Multipart body (file uploads); the browser sets the boundary header. */
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

async function call(method: string, path: string, action: string, options: CallOptions): Promise<Response> {
  try {
    // Only pass what is set: an explicit `headers: undefined` makes ky drop the client's default
    // headers, and without X-Requested-With a 401 makes the browser pop its Basic-auth dialog.
    return await client(path.replace(/^\//, ''), {
      method,
      searchParams: toSearchParams(options.query),
      ...(options.json === undefined ? {} : { json: options.json }),
      ...(options.form ? { body: options.form } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (isHTTPError(error)) {
      if (error.response.status === 401) unauthorizedHandler?.(action);
      throw new ApiError(action, error.response.status, serverMessageOf(error.data), error, violatedFieldsOf(error.data));
    }
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw failedWithoutAnswer(action, error);
  }
}

/** The server's own words in an error answer (Komga's and ours: `{ message }`), if it has any. */
function serverMessageOf(body: unknown): string | undefined {
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : undefined;
}

/** The field names of a validation answer's `violations` (Komga's and ours: `[{ fieldName, message }]`). */
function violatedFieldsOf(body: unknown): string[] {
  const violations = typeof body === 'object' && body !== null ? (body as { violations?: unknown }).violations : undefined;
  if (!Array.isArray(violations)) return [];
  return violations.flatMap((v: unknown) => {
    const name = typeof v === 'object' && v !== null ? (v as { fieldName?: unknown }).fieldName : undefined;
    return typeof name === 'string' ? [name] : [];
  });
}

export async function getJson<T>(path: string, action: string, options: CallOptions = {}): Promise<T> {
  const response = await call('GET', path, action, options);
  return (await response.json()) as T;
}

/** getJson, with the answer's headers (a header may qualify the body, e.g. Folio-Navigation-Unavailable). */
export async function getJsonWithHeaders<T>(path: string, action: string, options: CallOptions = {}): Promise<{ body: T; headers: Headers }> {
  const response = await call('GET', path, action, options);
  return { body: (await response.json()) as T, headers: response.headers };
}

/**
 * A GET sent by this very call, not a microtask later like the client's: used when a page is opened
 * cold, where the browser's six connections per server are about to fill with the app's own code and
 * the order requests are made in is the order they get a connection. Fails like getJson.
 */
export async function getJsonNow<T>(path: string, action: string, { timeoutMs = REQUEST_TIMEOUT_MS } = {}): Promise<T> {
  // Like the client's calls, it gives up after a while: the signal bounds the answer's body too.
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(apiUrl(path), { credentials: 'include', headers: XHR_HEADERS, signal });
    if (!response.ok) {
      // An error answer need not be JSON (a proxy's HTML page): the status alone is reported then.
      const body: unknown = await response.json().catch((error: unknown) => {
        if (!(error instanceof SyntaxError)) console.warn(`The error answer to ${path} could not be read`, error);
        return undefined;
      });
      if (response.status === 401) unauthorizedHandler?.(action);
      throw new ApiError(action, response.status, serverMessageOf(body));
    }
    return (await response.json()) as T;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw failedWithoutAnswer(action, error);
  }
}

/** A GET whose answer may be empty (204 No Content): undefined then. */
export async function getOptionalJson<T>(path: string, action: string, options: CallOptions = {}): Promise<T | undefined> {
  const response = await call('GET', path, action, options);
  const text = await response.text();
  return text ? (JSON.parse(text) as T) : undefined;
}

export async function sendJson<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  action: string,
  options: CallOptions = {},
): Promise<T> {
  const response = await call(method, path, action, options);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A multipart upload (e.g. a poster image); answers like sendJson. */
export async function sendForm<T>(method: 'POST' | 'PUT', path: string, action: string, form: FormData): Promise<T> {
  const response = await call(method, path, action, { form });
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

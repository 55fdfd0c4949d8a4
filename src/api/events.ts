import { apiUrl } from './http.ts';

/** Event names of GET /sse/v1/events (SPEC §4, REFERENCE §2.12). */
export const LIVE_EVENT_NAMES = [
  'LibraryAdded',
  'LibraryChanged',
  'LibraryDeleted',
  'SeriesAdded',
  'SeriesChanged',
  'SeriesDeleted',
  'BookAdded',
  'BookChanged',
  'BookDeleted',
  'BookImported',
  'CollectionAdded',
  'CollectionChanged',
  'CollectionDeleted',
  'ReadListAdded',
  'ReadListChanged',
  'ReadListDeleted',
  'ReadProgressChanged',
  'ReadProgressDeleted',
  'ReadProgressSeriesChanged',
  'ReadProgressSeriesDeleted',
  'ThumbnailBookAdded',
  'ThumbnailBookDeleted',
  'ThumbnailSeriesAdded',
  'ThumbnailSeriesDeleted',
  'ThumbnailReadListAdded',
  'ThumbnailReadListDeleted',
  'ThumbnailSeriesCollectionAdded',
  'ThumbnailSeriesCollectionDeleted',
  'TaskQueueStatus',
  'SessionExpired',
  // Folio's own (admins): background work asked for ended without doing it, and why.
  'TaskFailed',
] as const;

export type LiveEventName = (typeof LIVE_EVENT_NAMES)[number];

/** Payload fields the events carry; each event fills the ones that concern it. */
export interface LiveEventData {
  libraryId?: string;
  seriesId?: string;
  bookId?: string;
  collectionId?: string;
  readListId?: string;
  userId?: string;
  count?: number;
  countByType?: Record<string, number>;
  /** TaskFailed: which work, for which page hashes, and why ('book-changed', 'last-pages', 'failed', 'cancelled'). */
  taskType?: string;
  pageHashes?: string[];
  reason?: string;
  [key: string]: unknown;
}

export interface LiveEvent {
  name: LiveEventName;
  data: LiveEventData;
}

export interface LiveConnectionCallbacks {
  onEvent: (event: LiveEvent) => void;
  onConnectionChange: (connected: boolean) => void;
  /** Called after each failed (re)connection attempt with the number of failures in a row. */
  onFailure?: (failuresInARow: number) => void;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * Opens the live event stream with the session cookie. The browser's own EventSource retry stops
 * for good after an HTTP error, so reconnection is ours: exponential backoff, reset once a
 * connection opens. Returns a function that closes the stream for good.
 */
export function openLiveEvents(callbacks: LiveConnectionCallbacks): () => void {
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let delay = FIRST_RETRY_MS;
  let failures = 0;
  let closed = false;

  const dispatch = (name: LiveEventName) => (message: MessageEvent<string>) => {
    let data: LiveEventData = {};
    try {
      data = message.data ? (JSON.parse(message.data) as LiveEventData) : {};
    } catch (error) {
      // A malformed payload still tells us that something of this kind happened.
      if (!(error instanceof SyntaxError)) throw error;
    }
    callbacks.onEvent({ name, data });
  };

  function connect() {
    if (closed) return;
    const stream = new EventSource(apiUrl('/sse/v1/events'), { withCredentials: true });
    source = stream;
    for (const name of LIVE_EVENT_NAMES) stream.addEventListener(name, dispatch(name) as EventListener);
    stream.onopen = () => {
      delay = FIRST_RETRY_MS;
      failures = 0;
      callbacks.onConnectionChange(true);
    };
    stream.onerror = () => {
      callbacks.onConnectionChange(false);
      // CONNECTING means the browser retries by itself; CLOSED means it gave up.
      if (stream.readyState !== EventSource.CLOSED) return;
      failures += 1;
      callbacks.onFailure?.(failures);
      if (closed) return;
      retryTimer = setTimeout(connect, delay);
      delay = Math.min(MAX_RETRY_MS, delay * 2);
    };
  }

  connect();
  return () => {
    closed = true;
    clearTimeout(retryTimer);
    source?.close();
    source = null;
    callbacks.onConnectionChange(false);
  };
}

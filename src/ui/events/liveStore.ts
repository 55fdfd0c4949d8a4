import { proxy } from 'valtio';
import type { LiveEvent, LiveEventName } from '../../api/events.ts';

/** State fed by the live event stream; screens subscribe to events through `onLiveEvent`. */
export const live = proxy({
  connected: false,
  /** Pending server tasks (admins only, from TaskQueueStatus). */
  pendingTasks: 0,
  /** Whether this server has sent any series/book event yet, i.e. it announces content changes. */
  announcesContentChanges: false,
});

type Listener = (event: LiveEvent) => void;
const listeners = new Set<Listener>();

export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function publishLiveEvent(event: LiveEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      // One screen's broken handler must not starve the others.
      console.error(error);
    }
  }
}

/**
 * "Reload what you show": the stream has just (re)opened, and whatever changed while it was not
 * connected (before a page's first connection, while the server restarted or the network was down)
 * was announced to no one. A view that loaded before this moment may be stale; one mounted after
 * it loads fresh data and is not called, so a view opened while the stream is up fetches once.
 */
type ResyncListener = () => void;
const resyncListeners = new Set<ResyncListener>();

export function onLiveResync(listener: ResyncListener): () => void {
  resyncListeners.add(listener);
  return () => {
    resyncListeners.delete(listener);
  };
}

/** Opens closer together than this (a flapping connection) give one resync now and one at its end. */
export const RESYNC_PAUSE_MS = 2_000;
let lastResyncAt = Number.NEGATIVE_INFINITY;
let trailingResync: ReturnType<typeof setTimeout> | undefined;

function publishLiveResync(): void {
  lastResyncAt = performance.now();
  for (const listener of resyncListeners) {
    try {
      listener();
    } catch (error) {
      console.error('A view could not reload after the live event stream opened', error);
    }
  }
}

/**
 * A reopening (the server restarted, the network came back) waits a random moment up to this
 * first: a few hundred clients reconnecting together then reload over seconds, not all at once.
 */
export const RESYNC_SPREAD_MS = 3_000;

/** Called on each (re)opening of the stream: one resync per opening, at most one per RESYNC_PAUSE_MS. */
export function announceStreamOpened(reopened = false): void {
  const spread = reopened ? Math.random() * RESYNC_SPREAD_MS : 0;
  const wait = Math.max(lastResyncAt + RESYNC_PAUSE_MS - performance.now(), spread);
  if (wait <= 0) return publishLiveResync();
  trailingResync ??= setTimeout(() => {
    trailingResync = undefined;
    publishLiveResync();
  }, wait);
}

/** The stream closed for good (logout): a pending resync is dropped, the next login's opening resyncs at once. */
export function cancelStreamResync(): void {
  clearTimeout(trailingResync);
  trailingResync = undefined;
  lastResyncAt = Number.NEGATIVE_INFINITY;
}

/**
 * Openings of the stream so far. A screen waiting for a task's end event (BookChanged, TaskFailed)
 * stamps the wait with this once the server has accepted the task: an end sent while the stream was
 * closed never comes, and a wait stamped before the latest opening may have missed it.
 */
let openings = 0;
export const streamOpenings = (): number => openings;

/** Task counts by type, from the TaskQueueStatus events heard since the latest opening. */
type QueueListener = (countByType: Readonly<Record<string, number>>) => void;
const queueListeners = new Set<QueueListener>();

/** Calls `listener` with each TaskQueueStatus's counts (the server sends one as a stream opens). */
export function onTaskQueueStatus(listener: QueueListener): () => void {
  queueListeners.add(listener);
  return () => {
    queueListeners.delete(listener);
  };
}

/** Called by the session watcher as the stream (re)opens, before any of that opening's events. */
export function countStreamOpening(): void {
  openings += 1;
}

/** Called by the session watcher with each TaskQueueStatus's counts. */
export function publishTaskQueueStatus(countByType: Readonly<Record<string, number>>): void {
  for (const listener of queueListeners) {
    try {
      listener(countByType);
    } catch (error) {
      console.error('A view could not follow the task queue', error);
    }
  }
}

export const SERIES_OR_BOOK_EVENTS: readonly LiveEventName[] = [
  'SeriesAdded',
  'SeriesChanged',
  'SeriesDeleted',
  'BookAdded',
  'BookChanged',
  'BookDeleted',
  'ThumbnailSeriesAdded',
  'ThumbnailBookAdded',
];

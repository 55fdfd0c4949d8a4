/**
 * Domain events, named and shaped as Komga's SSE events (REFERENCE §2.12). The SSE endpoint
 * forwards them; `userId` restricts delivery to one user (read progress is owner-only).
 */
export type FolioEvent =
  | { name: 'LibraryAdded' | 'LibraryChanged' | 'LibraryDeleted'; data: { libraryId: string } }
  | { name: 'SeriesAdded' | 'SeriesChanged' | 'SeriesDeleted'; data: { seriesId: string; libraryId: string } }
  | {
      name: 'BookAdded' | 'BookChanged' | 'BookDeleted';
      data: { bookId: string; seriesId: string; libraryId: string };
    }
  | { name: 'ReadProgressChanged' | 'ReadProgressDeleted'; data: { bookId: string; userId: string }; userId: string }
  | {
      name: 'ReadProgressSeriesChanged' | 'ReadProgressSeriesDeleted';
      data: { seriesId: string; userId: string };
      userId: string;
    }
  | { name: 'CollectionAdded' | 'CollectionChanged' | 'CollectionDeleted'; data: { collectionId: string; seriesIds: string[] } }
  | { name: 'ReadListAdded' | 'ReadListChanged' | 'ReadListDeleted'; data: { readListId: string; bookIds: string[] } }
  | { name: 'ThumbnailBookAdded' | 'ThumbnailBookDeleted'; data: { bookId: string; seriesId: string; selected: boolean } }
  | { name: 'ThumbnailSeriesAdded' | 'ThumbnailSeriesDeleted'; data: { seriesId: string; selected: boolean } }
  | { name: 'ThumbnailSeriesCollectionAdded' | 'ThumbnailSeriesCollectionDeleted'; data: { collectionId: string; selected: boolean } }
  | { name: 'ThumbnailReadListAdded' | 'ThumbnailReadListDeleted'; data: { readListId: string; selected: boolean } }
  | { name: 'BookImported'; data: { bookId: string | null; sourceFile: string; success: boolean; message: string | null }; adminOnly: true }
  | { name: 'TaskQueueStatus'; data: { count: number; countByType: Record<string, number> }; adminOnly: true }
  | { name: 'SessionExpired'; data: { userId: string }; userId: string }
  /**
   * Folio's own, to administrators: background work an administrator asked for ended without doing
   * it, so a screen waiting for its result can say so instead of waiting for ever (Komga sends
   * nothing; its clients ignore an event name they do not know: EventSource listens by name,
   * Komelia reads it as an unknown event). `reason`: what the screen can tell the user.
   */
  | { name: 'TaskFailed'; data: TaskFailedData; adminOnly: true }
  /**
   * Folio's own, never sent to clients (Komga has no such event): an API key was deleted, so what
   * was opened with it (downloads, event streams) ends at once rather than at its next check.
   */
  | { name: 'ApiKeyDeleted'; data: { apiKeyId: string; userId: string }; userId: string; internal: true };

/** Why background work was not done, as a screen words it (TaskFailed). */
export type TaskFailureReason =
  /** The book's file changed (or went) since it was analysed: analyse it again first. */
  | 'book-changed'
  /** Doing it would leave a book without pages. */
  | 'last-pages'
  /** The server could not do it (its log says why). */
  | 'failed'
  /** An administrator cancelled the tasks while this one waited to be tried again. */
  | 'cancelled';

export type TaskFailedData =
  | {
      taskType: 'RemoveHashedPages';
      bookId: string;
      /** The page hashes the removal was for (the duplicate pages screen follows a hash). */
      pageHashes: string[];
      reason: TaskFailureReason;
    }
  /** An analysis that recorded nothing (the file went meanwhile) or failed outside the book. */
  | { taskType: 'AnalyzeBook'; bookId: string; reason: TaskFailureReason };

export class EventBus {
  private readonly listeners = new Set<(event: FolioEvent) => void>();
  private readonly onListenerError: (error: unknown, event: FolioEvent) => void;

  /** `onListenerError` hears of subscribers that threw (the app logs them). */
  constructor(onListenerError: (error: unknown, event: FolioEvent) => void = (error) => process.emitWarning(String(error))) {
    this.onListenerError = onListenerError;
  }

  emit(event: FolioEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        // A broken subscriber must not break the publisher, nor the other subscribers.
        this.onListenerError(error, event);
      }
    }
  }

  subscribe(listener: (event: FolioEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

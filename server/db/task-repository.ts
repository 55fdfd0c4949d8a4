import type { Db } from './database.ts';
import { cachedStatement } from './statement-cache.ts';

/** Task names as Komga reports them in TaskQueueStatus.countByType; the `type` column holds one. */
export type TaskType =
  | 'ScanLibrary'
  | 'AnalyzeBook'
  | 'GenerateBookThumbnail'
  | 'RefreshBookMetadata'
  | 'EmptyTrash'
  | 'HashBook'
  | 'HashBookPages'
  | 'RemoveHashedPages'
  | 'ImportBook'
  | 'ConvertBook';

export interface StoredTask {
  key: string;
  type: TaskType;
  priority: number;
  payload: unknown;
}

/** The persistent side of the task queue: one row per queued task, keyed like the queue dedupes. */
export class TaskRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  save(task: { type: TaskType; key: string; priority: number; payload: unknown }): void {
    // Prepared once: a scan saves and removes a row for every task it queues.
    cachedStatement(
      this.db,
      `INSERT INTO task (key, type, payload, priority, created) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET payload = excluded.payload, priority = excluded.priority`,
    ).run(task.key, task.type, JSON.stringify(task.payload), task.priority, Date.now());
  }

  remove(key: string): void {
    cachedStatement(this.db, 'DELETE FROM task WHERE key = ?').run(key);
  }

  /** Every stored task, in the order they should be queued again. */
  all(): StoredTask[] {
    const rows = this.db.prepare('SELECT key, type, payload, priority FROM task ORDER BY priority DESC, created, key').all() as {
      key: string;
      type: TaskType;
      payload: string;
      priority: number;
    }[];
    return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown }));
  }

  clear(): void {
    this.db.prepare('DELETE FROM task').run();
  }
}

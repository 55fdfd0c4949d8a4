import type { TaskQueue, TaskType } from './task-queue.ts';

export interface TaskStats {
  count: number;
  totalMs: number;
  maxMs: number;
  failures: number;
}

/** Running totals of executed tasks per type since start (komga.tasks.execution / .failure). */
export class TaskMetrics {
  readonly byType = new Map<TaskType, TaskStats>();

  constructor(tasks: TaskQueue) {
    tasks.onTaskDone((type, durationMs, failed) => {
      const stats = this.byType.get(type) ?? { count: 0, totalMs: 0, maxMs: 0, failures: 0 };
      stats.count++;
      stats.totalMs += durationMs;
      stats.maxMs = Math.max(stats.maxMs, durationMs);
      if (failed) stats.failures++;
      this.byType.set(type, stats);
    });
  }

  /** Totals over the given types (all when empty). */
  total(types: string[]): TaskStats {
    const out = { count: 0, totalMs: 0, maxMs: 0, failures: 0 };
    for (const [type, s] of this.byType) {
      if (types.length && !types.includes(type)) continue;
      out.count += s.count;
      out.totalMs += s.totalMs;
      out.maxMs = Math.max(out.maxMs, s.maxMs);
      out.failures += s.failures;
    }
    return out;
  }
}

import type { TaskType } from '../../db/task-repository.ts';
import { databaseUnavailable } from '../../db/database-unavailable.ts';
import { putOffReason } from './put-off.ts';

/** The task names (Komga's) belong to the task table's vocabulary, so the db layer defines them. */
export type { TaskType };

interface QueuedTask {
  type: TaskType;
  key: string;
  priority: number;
  run: () => Promise<void>;
  /** Set for tasks that survive a restart: what the task registry needs to rebuild `run`. */
  payload?: unknown;
  /** performance.now() when the task was first put off, and how many times it has been. */
  putOffSince?: number;
  putOffTimes?: number;
  /** Told when the task will not run: dropped after being put off too long, or cancelled (see TaskDropped). */
  dropped?: (why: TaskDropped) => void;
}

/**
 * Why a queued task will not run, for a task whose caller waits for its outcome (an import's
 * BookImported): `given-up` put off for putOffLimits.giveUpMs (with the reason it was put off, the
 * number of tries and the last failure), `cancelled` by "cancel all tasks".
 */
export type TaskDropped = { kind: 'given-up'; reason: string; tries: number; error: unknown } | { kind: 'cancelled' };

/** Where persistent tasks are written while queued (server/db/task-repository.ts). */
export interface TaskStore {
  save(task: { type: TaskType; key: string; priority: number; payload: unknown }): void;
  remove(key: string): void;
}

/** What a task type is queued from: the payload a persistent task is stored with. */
export type TaskPayload = Record<string, unknown>;

/** A task put off because the database could not be written runs again after 2 s, 4 s… up to 5 min. */
const PUT_OFF_FIRST_MS = 2_000;
const PUT_OFF_MAX_MS = 5 * 60_000;
/**
 * How long a task may keep being put off before it is dropped (with an ERROR naming it; tests lower it). A full disk
 * or a lock held for an hour needs the administrator, and a task that meets a shortage every time
 * while others run (it alone runs out of descriptors) must not run every few seconds for ever.
 * Dropping changes nothing stored: the task's own writes never happened, and a stored task keeps
 * its row, so the next start runs it again (as the next scan queues an analysis again).
 */
export const putOffLimits = { giveUpMs: 60 * 60_000 };
/** At most this many dropped tasks are named in the log line that says they were dropped (a scan queues thousands). */
const DROPPED_NAMED = 50;
/** How long the task store is left unwritten after a write to it found the database unavailable. */
const STORE_PAUSE_MS = 2_000;

export interface TaskQueueStatus {
  count: number;
  countByType: Partial<Record<TaskType, number>>;
}

/**
 * Background work with a bounded number of workers, so scans and analyses never starve request
 * handling. A task whose key is already waiting is not queued twice, and two tasks with the same
 * key never run at the same time (a second scan of a library waits for the first).
 */
export class TaskQueue {
  private concurrency: number;
  /**
   * Waiting tasks: by key (one per key), and in running order as one first-in-first-out list per
   * priority, highest first. A scan of thousands of books queues tens of thousands of tasks, so
   * queueing, picking the next one and counting them must not walk the whole queue.
   */
  private readonly pending = new Map<string, QueuedTask>();
  private readonly lanes: { priority: number; tasks: QueuedTask[]; head: number }[] = [];
  private readonly pendingByType = new Map<TaskType, number>();
  private readonly running = new Map<string, TaskType>();
  /** Running tasks whose stored row went already, with their follow-ups (see `finishStored`). */
  private readonly finishedStored = new Set<string>();
  /** Keys of running tasks whose stored row stays when they return (see keepStored). */
  private readonly keptStored = new Set<string>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  private closing: Promise<{ type: TaskType; key: string }[]> | undefined;
  private readonly onError: (task: { type: TaskType; key: string }, error: unknown) => void;
  private readonly listeners = new Set<(status: TaskQueueStatus) => void>();
  private readonly doneListeners = new Set<(type: TaskType, durationMs: number, failed: boolean) => void>();
  private store: TaskStore | undefined;
  /**
   * Tasks that failed because the database could not take their writes (another process holding
   * it locked, a full disk): nothing of them was stored, nothing is wrong with them, so they run
   * again, together, once PUT_OFF delay has passed, instead of being dropped until the next scan.
   */
  private putOff: QueuedTask[] = [];
  private putOffTimer: NodeJS.Timeout | undefined;
  private putOffDelayMs = PUT_OFF_FIRST_MS;
  /** Tasks dropped since the last log line about them (see giveUp). */
  private dropped: { task: QueuedTask; error: unknown; reason: string }[] = [];
  /**
   * Put-off tasks queued again by the put-off timer that have not run yet: the retry round. Its
   * dropped tasks are told in one line once the whole round has run (reportDropped), however long
   * each task of it takes; the next event-loop turn was too soon when one task failed at once and
   * another only after its archive was read (two lines, each naming part of the round).
   */
  private readonly retrying = new Set<QueuedTask>();
  /** performance.now() until which the store is not written (see saveStored). */
  private storePausedUntil = 0;
  /** Keys of finished tasks whose stored row is still there (see removeStored), and when they are tried again. */
  private readonly unremoved = new Map<string, TaskType>();
  private unremovedTimer: NodeJS.Timeout | undefined;
  private readonly requesters = new Map<TaskType, (payload: TaskPayload) => void>();
  /**
   * Tasks that returned and asked to run again later on their own timer (retryLater): counted as
   * waiting tasks of their type, ended by cancelPending, let go by close (their stored rows stay).
   */
  private readonly retries = new Map<string, { type: TaskType; timer: NodeJS.Timeout; stored: boolean; cancelled?: () => void }>();

  constructor(
    concurrency: number,
    onError: (task: { type: TaskType; key: string }, error: unknown) => void = () => undefined,
  ) {
    this.concurrency = Math.max(1, concurrency);
    this.onError = onError;
  }

  /** How many tasks may run at once. */
  get workers(): number {
    return this.concurrency;
  }

  /**
   * Changes how many tasks may run at once (server setting taskPoolSize). Running tasks finish;
   * a larger pool starts queued work at once, a smaller one simply starts less until it drains.
   */
  setWorkers(count: number): void {
    this.concurrency = Math.max(1, Math.floor(count));
    this.pump();
  }

  /** Keeps tasks submitted with a payload in `store` until they have run (restored at startup). */
  persistTo(store: TaskStore): void {
    this.store = store;
  }

  /**
   * Registers how a task type is queued from its payload (tasks/task-persistence.ts does, for
   * every persistent type). The same function restores a stored task after a restart and serves
   * `request`, so a worker asks for another task (a converted book's analysis) without importing
   * the code that queues it.
   */
  define(type: TaskType, queue: (payload: TaskPayload) => void): void {
    this.requesters.set(type, queue);
  }

  /** Queues a task of a registered type from its payload; a type nobody registered is a bug. */
  request(type: TaskType, payload: TaskPayload): void {
    const queue = this.requesters.get(type);
    if (!queue) throw new Error(`task type ${type} is not registered`);
    queue(payload);
  }

  /**
   * Queues a task unless one with the same key is already waiting. Higher priority runs first.
   * With a `payload` the task is also written to the store, so it survives a restart.
   */
  submit(type: TaskType, key: string, run: () => Promise<void>, priority = 0, payload?: unknown, dropped?: (why: TaskDropped) => void): boolean {
    if (this.closed) return false;
    if (this.pending.has(key)) return false;
    // Queued again before its retry came (a scan, an admin's action): this one replaces that retry.
    this.forgetRetry(key);
    const task: QueuedTask = { type, key, priority, run, payload, dropped };
    if (payload !== undefined) this.saveStored(task);
    this.enqueue(task);
    return true;
  }

  private enqueue(task: QueuedTask): void {
    const { key, type, priority } = task;
    this.pending.set(key, task);
    this.pendingByType.set(type, (this.pendingByType.get(type) ?? 0) + 1);
    this.lane(priority).tasks.push(task);
    this.notify();
    this.pump();
  }

  status(): TaskQueueStatus {
    const countByType: Partial<Record<TaskType, number>> = Object.fromEntries(this.pendingByType);
    for (const type of this.running.values()) countByType[type] = (countByType[type] ?? 0) + 1;
    for (const task of this.putOff) countByType[task.type] = (countByType[task.type] ?? 0) + 1;
    let retries = 0;
    for (const [key, retry] of this.retries) {
      // A task running or queued again under its key is counted once.
      if (this.running.has(key) || this.pending.has(key)) continue;
      countByType[retry.type] = (countByType[retry.type] ?? 0) + 1;
      retries++;
    }
    return { count: this.pending.size + this.running.size + this.putOff.length + retries, countByType };
  }

  onStatus(listener: (status: TaskQueueStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Removes the stored row of the running task `key` now instead of when it returns. A task whose
   * last write stores its follow-up tasks calls it inside that transaction: the row goes in the
   * same commit, so a crash leaves either the task to run again or its follow-ups, never both (the
   * task ran twice after a restart). An identical task queued meanwhile keeps the row it shares.
   */
  finishStored(key: string): void {
    if (!this.running.has(key) || this.pending.has(key)) return;
    this.store?.remove(key);
    this.finishedStored.add(key);
  }

  /**
   * Keeps the stored row of the running task `key` when it returns: the task queues itself again
   * later on its own timer (an analysis whose metadata import was put off, library-tasks.ts), and
   * without the row a restart meanwhile forgot it. The queued-again task writes the same row.
   */
  keepStored(key: string): void {
    if (this.running.has(key)) this.keptStored.add(key);
  }

  /**
   * Called by the running task `key` as it returns: `queueAgain` is called after `delayMs` (it
   * submits the task anew). Meanwhile the task counts as waiting in status(), its stored row stays
   * (keepStored; a restart runs it at start), cancelPending ends the wait (`cancelled` is then
   * called: the task says so) and close lets it go. Not awaited by idle(): a retry may wait for
   * minutes, again and again, and nothing is in hand meanwhile.
   */
  retryLater(type: TaskType, key: string, delayMs: number, queueAgain: () => void, cancelled?: () => void): void {
    this.keepStored(key);
    this.forgetRetry(key);
    const timer = setTimeout(() => {
      if (this.retries.get(key)?.timer !== timer) return;
      this.retries.delete(key);
      queueAgain();
      this.notify();
    }, delayMs);
    timer.unref();
    this.retries.set(key, { type, timer, stored: this.running.has(key), cancelled });
    this.notify();
  }

  private forgetRetry(key: string): void {
    const retry = this.retries.get(key);
    if (!retry) return;
    clearTimeout(retry.timer);
    this.retries.delete(key);
  }

  /** Resolves once nothing is queued or running (tests and shutdown wait on it). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Drops queued tasks, put-off ones and those waiting for their own retry (from the store too);
   * returns how many were dropped. A waiting retry is told (its `cancelled`), so whoever waits for
   * its end hears of it.
   */
  cancelPending(): number {
    const retries = [...this.retries].filter(([key]) => !this.running.has(key) && !this.pending.has(key));
    const n = this.pending.size + this.putOff.length + retries.length;
    const tasks = [...this.pending.values(), ...this.putOff];
    for (const t of tasks) if (t.payload !== undefined && !this.running.has(t.key)) this.store?.remove(t.key);
    for (const [key, retry] of retries) {
      this.forgetRetry(key);
      if (retry.stored) this.store?.remove(key);
    }
    this.dropPending();
    this.notify();
    this.settleIfIdle();
    for (const [, retry] of retries) retry.cancelled?.();
    for (const t of tasks) this.tell(t, { kind: 'cancelled' });
    return n;
  }

  /**
   * Stops taking work and waits for running tasks, at most `graceMs`; queued ones stay in the
   * store for next time. Tasks still running then are left to themselves and returned: their
   * stored rows stay too (the next start runs them again) and the queue no longer touches the
   * store for them, since the database is about to close. Calling it again returns the same wait.
   */
  close(graceMs = Number.POSITIVE_INFINITY): Promise<{ type: TaskType; key: string }[]> {
    this.closing ??= this.drain(graceMs);
    return this.closing;
  }

  private async drain(graceMs: number): Promise<{ type: TaskType; key: string }[]> {
    this.closed = true;
    // Rows not removed yet stay for the next start, which runs their tasks again.
    clearTimeout(this.unremovedTimer);
    this.unremovedTimer = undefined;
    // Waiting retries are let go; their stored rows stay for the next start.
    for (const key of [...this.retries.keys()]) this.forgetRetry(key);
    this.dropPending();
    this.notify();
    this.settleIfIdle();
    if (!Number.isFinite(graceMs)) {
      await this.idle();
      return [];
    }
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      this.idle().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (!late) return [];
    this.store = undefined;
    return [...this.running].map(([key, type]) => ({ type, key }));
  }

  private pump(): void {
    while (this.running.size < this.concurrency) {
      const task = this.takeNext();
      if (!task) return;
      this.running.set(task.key, task.type);
      void this.execute(task);
    }
  }

  /** The list of tasks of one priority, created in its place (highest priority first) on first use. */
  private lane(priority: number): { priority: number; tasks: QueuedTask[]; head: number } {
    let at = this.lanes.findIndex((l) => l.priority <= priority);
    if (at >= 0 && this.lanes[at]!.priority === priority) return this.lanes[at]!;
    const lane = { priority, tasks: [] as QueuedTask[], head: 0 };
    if (at < 0) at = this.lanes.length;
    this.lanes.splice(at, 0, lane);
    return lane;
  }

  /**
   * Removes and returns the first waiting task of the highest priority whose key is not running
   * (a second scan of a library waits for the first), or undefined.
   */
  private takeNext(): QueuedTask | undefined {
    for (const lane of this.lanes) {
      for (let i = lane.head; i < lane.tasks.length; i++) {
        const task = lane.tasks[i]!;
        if (this.running.has(task.key)) continue;
        if (i === lane.head) lane.head++;
        else lane.tasks.splice(i, 1);
        // Taken entries are dropped in one go once they make up half the list.
        if (lane.head === lane.tasks.length) {
          lane.tasks.length = 0;
          lane.head = 0;
        } else if (lane.head > 1024 && lane.head * 2 > lane.tasks.length) {
          lane.tasks.splice(0, lane.head);
          lane.head = 0;
        }
        this.pending.delete(task.key);
        const left = (this.pendingByType.get(task.type) ?? 1) - 1;
        if (left > 0) this.pendingByType.set(task.type, left);
        else this.pendingByType.delete(task.type);
        return task;
      }
    }
    return undefined;
  }

  /** Queued and put-off tasks are forgotten here; stored ones keep their rows unless the caller removed them. */
  private dropPending(): void {
    clearTimeout(this.putOffTimer);
    this.putOffTimer = undefined;
    this.putOff = [];
    // The rest of the retry round will not run: what it dropped is told now.
    this.retrying.clear();
    this.reportDropped();
    this.pending.clear();
    this.pendingByType.clear();
    this.lanes.length = 0;
  }

  /** Called after every task with its duration (for the task metrics). */
  onTaskDone(listener: (type: TaskType, durationMs: number, failed: boolean) => void): () => void {
    this.doneListeners.add(listener);
    return () => this.doneListeners.delete(listener);
  }

  private async execute(task: QueuedTask): Promise<void> {
    const started = performance.now();
    let failed = false;
    let putOff = false;
    try {
      await task.run();
      this.putOffDelayMs = PUT_OFF_FIRST_MS;
    } catch (error) {
      failed = true;
      const reason = this.closed ? undefined : putOffReason(error);
      putOff = reason !== undefined;
      if (reason) this.putOffUntilLater(task, error, reason);
      else this.onError({ type: task.type, key: task.key }, error);
    } finally {
      for (const listener of this.doneListeners) listener(task.type, performance.now() - started, failed);
      this.running.delete(task.key);
      this.retrying.delete(task);
      if (this.retrying.size === 0) this.reportDropped();
      // A failed task is not retried (but one put off); an identical one queued meanwhile keeps its
      // stored row. A task that failed after `finishStored` may have had that removal rolled back:
      // removed again. A put-off task keeps its row until it has run, and a dropped one (giveUp)
      // for the next start.
      const finished = this.finishedStored.delete(task.key);
      const kept = this.keptStored.delete(task.key) && !failed;
      if (task.payload !== undefined && !this.pending.has(task.key) && !putOff && !kept && (failed || !finished)) this.removeStored(task);
      this.notify();
      this.pump();
      this.settleIfIdle();
    }
  }

  /**
   * Stores a task's row. Tasks are also queued from timers (retries, the scan schedule), where a
   * throw ends the server: a database that cannot be written now (another process's lock, a full
   * disk) leaves the task unstored but queued, so it runs anyway and is only lost to a restart.
   * After such a failure the store is left alone for STORE_PAUSE_MS: each write waits for the lock
   * on the server's only thread, and a scan queues thousands of analyses in one loop.
   */
  private saveStored(task: QueuedTask): void {
    if (this.storePaused()) return;
    try {
      this.store?.save({ type: task.type, key: task.key, priority: task.priority, payload: task.payload });
    } catch (error) {
      if (!databaseUnavailable(error)) throw error;
      this.pauseStore(task, error);
    }
  }

  private storePaused(): boolean {
    return performance.now() < this.storePausedUntil;
  }

  private pauseStore(task: QueuedTask, error: unknown): void {
    this.storePausedUntil = performance.now() + STORE_PAUSE_MS;
    this.onError({ type: task.type, key: task.key }, new Error(`tasks queued and finished without being stored for ${STORE_PAUSE_MS / 1000} s: the database cannot be written now`, { cause: error }));
  }

  /**
   * Removes a task's stored row. Nothing awaits the task that called this, so it must not throw:
   * a database that cannot be written now (the very failure that may have ended the task) was an
   * unhandled rejection, and Node ended the server. The row left (or that of one finished while the
   * store is paused, saveStored) is removed later (removeLater); should the server stop first, the
   * next start runs the task again, which every stored task bears (analyses, hashes and refreshes
   * are idempotent).
   */
  private removeStored(task: QueuedTask): void {
    if (this.storePaused()) return this.removeLater(task);
    try {
      this.store?.remove(task.key);
    } catch (error) {
      if (!databaseUnavailable(error)) return this.onError({ type: task.type, key: task.key }, error);
      this.pauseStore(task, error);
      this.removeLater(task);
    }
  }

  /**
   * A finished task's row that could not be removed is removed once the store can be written again,
   * not left to run the task again at the next start: until then the stored tasks are not the queue's.
   */
  private removeLater(task: { type: TaskType; key: string }): void {
    this.unremoved.set(task.key, task.type);
    if (this.unremovedTimer || this.closed) return;
    this.unremovedTimer = setTimeout(() => {
      this.unremovedTimer = undefined;
      for (const [key, type] of [...this.unremoved]) {
        // Queued again meanwhile: that task owns the row now.
        if (this.pending.has(key) || this.running.has(key) || this.putOff.some((t) => t.key === key)) {
          this.unremoved.delete(key);
          continue;
        }
        try {
          this.store?.remove(key);
          this.unremoved.delete(key);
        } catch (error) {
          if (!databaseUnavailable(error)) {
            this.unremoved.delete(key);
            this.onError({ type, key }, error);
            continue;
          }
          // Still unavailable: all of them wait for the next try.
          this.removeLater({ type, key });
          return;
        }
      }
    }, STORE_PAUSE_MS);
    this.unremovedTimer.unref();
  }

  private putOffUntilLater(task: QueuedTask, error: unknown, reason: string): void {
    const now = performance.now();
    task.putOffSince ??= now;
    task.putOffTimes = (task.putOffTimes ?? 0) + 1;
    if (now - task.putOffSince >= putOffLimits.giveUpMs) return this.giveUp(task, error, reason);
    this.putOff.push(task);
    if (this.putOffTimer) return;
    // One line and one timer per batch put off, not one per task (a scan queues thousands).
    this.onError({ type: task.type, key: task.key }, new Error(`${reason}: tasks put off for ${this.putOffDelayMs / 1000} s`, { cause: error }));
    this.putOffTimer = setTimeout(() => {
      this.putOffTimer = undefined;
      const tasks = this.putOff;
      this.putOff = [];
      this.putOffDelayMs = Math.min(PUT_OFF_MAX_MS, this.putOffDelayMs * 2);
      // Their stored rows are still there: queued again without writing them.
      for (const t of tasks) {
        if (this.pending.has(t.key)) continue;
        this.retrying.add(t);
        this.enqueue(t);
      }
      this.settleIfIdle();
    }, this.putOffDelayMs);
  }

  /**
   * Drops a task put off for putOffLimits.giveUpMs. Those of one retry round fail together: one ERROR
   * line for all of them once the round has run (reportDropped), naming them (the first DROPPED_NAMED)
   * with the reason and the last failure. Their stored rows stay (the caller keeps them, as for a task put off).
   */
  private giveUp(task: QueuedTask, error: unknown, reason: string): void {
    this.dropped.push({ task, error, reason });
    this.tell(task, { kind: 'given-up', reason, tries: task.putOffTimes ?? 1, error });
  }

  /** Tells a task's caller it will not run; its own failure must not stop the queue. */
  private tell(task: QueuedTask, why: TaskDropped): void {
    try {
      task.dropped?.(why);
    } catch (error) {
      this.onError({ type: task.type, key: task.key }, error);
    }
  }

  /** The ERROR line for the tasks dropped since the last one, if any (see giveUp). */
  private reportDropped(): void {
    if (this.dropped.length === 0) return;
    const dropped = this.dropped;
    this.dropped = [];
    const first = dropped[0]!;
    const named = dropped.slice(0, DROPPED_NAMED).map(({ task: t }) => `${t.type} ${t.key} (${t.putOffTimes} tries)`);
    const more = dropped.length > DROPPED_NAMED ? ` and ${dropped.length - DROPPED_NAMED} more` : '';
    const stored = dropped.some(({ task: t }) => t.payload !== undefined) ? '; stored ones run again at the next start' : '';
    this.onError(
      { type: first.task.type, key: first.task.key },
      new Error(`${first.reason}: ${dropped.length} task(s) dropped after being put off for ${duration(putOffLimits.giveUpMs)}${stored}: ${named.join(', ')}${more}`, { cause: first.error }),
    );
  }

  private isIdle(): boolean {
    return this.pending.size === 0 && this.running.size === 0 && this.putOff.length === 0;
  }

  private settleIfIdle(): void {
    if (this.isIdle()) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private notify(): void {
    if (this.listeners.size === 0) return;
    const status = this.status();
    for (const listener of this.listeners) listener(status);
  }
}

/** A span as the log says it: whole minutes from one minute up, else seconds. */
function duration(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${ms / 1000} s`;
}

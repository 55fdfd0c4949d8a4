import type { TaskType } from '../../db/task-repository.ts';

/** The task names (Komga's) belong to the task table's vocabulary, so the db layer defines them. */
export type { TaskType };

interface QueuedTask {
  type: TaskType;
  key: string;
  priority: number;
  run: () => Promise<void>;
  /** Set for tasks that survive a restart: what the task registry needs to rebuild `run`. */
  payload?: unknown;
}

/** Where persistent tasks are written while queued (server/db/task-repository.ts). */
export interface TaskStore {
  save(task: { type: TaskType; key: string; priority: number; payload: unknown }): void;
  remove(key: string): void;
}

/** What a task type is queued from: the payload a persistent task is stored with. */
export type TaskPayload = Record<string, unknown>;

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
  private readonly pending: QueuedTask[] = [];
  private readonly running = new Map<string, TaskType>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  private readonly onError: (task: { type: TaskType; key: string }, error: unknown) => void;
  private readonly listeners = new Set<(status: TaskQueueStatus) => void>();
  private readonly doneListeners = new Set<(type: TaskType, durationMs: number, failed: boolean) => void>();
  private store: TaskStore | undefined;
  private readonly requesters = new Map<TaskType, (payload: TaskPayload) => void>();

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
  submit(type: TaskType, key: string, run: () => Promise<void>, priority = 0, payload?: unknown): boolean {
    if (this.closed) return false;
    if (this.pending.some((t) => t.key === key)) return false;
    const index = this.pending.findIndex((t) => t.priority < priority);
    const task: QueuedTask = { type, key, priority, run, payload };
    if (payload !== undefined) this.store?.save({ type, key, priority, payload });
    if (index < 0) this.pending.push(task);
    else this.pending.splice(index, 0, task);
    this.notify();
    this.pump();
    return true;
  }

  status(): TaskQueueStatus {
    const countByType: Partial<Record<TaskType, number>> = {};
    for (const t of this.pending) countByType[t.type] = (countByType[t.type] ?? 0) + 1;
    for (const type of this.running.values()) countByType[type] = (countByType[type] ?? 0) + 1;
    return { count: this.pending.length + this.running.size, countByType };
  }

  onStatus(listener: (status: TaskQueueStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once nothing is queued or running (tests and shutdown wait on it). */
  idle(): Promise<void> {
    if (this.pending.length === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops queued tasks (from the store too); returns how many were dropped. */
  cancelPending(): number {
    const n = this.pending.length;
    for (const t of this.pending) if (t.payload !== undefined && !this.running.has(t.key)) this.store?.remove(t.key);
    this.pending.length = 0;
    this.notify();
    this.settleIfIdle();
    return n;
  }

  /** Stops taking work and waits for running tasks; queued ones stay in the store for next time. */
  async close(): Promise<void> {
    this.closed = true;
    this.pending.length = 0;
    this.notify();
    this.settleIfIdle();
    await this.idle();
  }

  private pump(): void {
    while (this.running.size < this.concurrency) {
      const index = this.pending.findIndex((t) => !this.running.has(t.key));
      if (index < 0) return;
      const [task] = this.pending.splice(index, 1);
      if (!task) return;
      this.running.set(task.key, task.type);
      void this.execute(task);
    }
  }

  /** Called after every task with its duration (for the task metrics). */
  onTaskDone(listener: (type: TaskType, durationMs: number, failed: boolean) => void): () => void {
    this.doneListeners.add(listener);
    return () => this.doneListeners.delete(listener);
  }

  private async execute(task: QueuedTask): Promise<void> {
    const started = performance.now();
    let failed = false;
    try {
      await task.run();
    } catch (error) {
      failed = true;
      this.onError({ type: task.type, key: task.key }, error);
    } finally {
      for (const listener of this.doneListeners) listener(task.type, performance.now() - started, failed);
      this.running.delete(task.key);
      // A failed task is not retried; an identical one queued meanwhile keeps its stored row.
      if (task.payload !== undefined && !this.pending.some((t) => t.key === task.key)) this.store?.remove(task.key);
      this.notify();
      this.pump();
      this.settleIfIdle();
    }
  }

  private settleIfIdle(): void {
    if (this.pending.length === 0 && this.running.size === 0) {
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

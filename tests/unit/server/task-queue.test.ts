import { describe, expect, it, vi } from 'vitest';
import { TaskQueue, type TaskType } from '../../../server/domain/tasks/task-queue.ts';

/** A queue of one worker held by a first task, so what is submitted next waits; `order` records runs. */
function heldQueue(workers = 1) {
  const queue = new TaskQueue(workers);
  const order: string[] = [];
  let release!: () => void;
  queue.submit('ScanLibrary', 'holder', () => new Promise<void>((resolve) => (release = resolve)), 100);
  const add = (type: TaskType, key: string, priority: number) =>
    queue.submit(type, key, async () => void order.push(key), priority);
  return { queue, order, add, release: () => release() };
}

describe('task queue', () => {
  it('runs higher priorities first and equal priorities in the order they came', async () => {
    const { queue, order, add, release } = heldQueue();
    add('HashBook', 'hash-1', 0);
    add('AnalyzeBook', 'analyse-1', 5);
    add('GenerateBookThumbnail', 'poster-1', 1);
    add('AnalyzeBook', 'analyse-2', 5);
    add('HashBook', 'hash-2', 0);
    add('ScanLibrary', 'scan', 10);
    add('GenerateBookThumbnail', 'poster-2', 1);
    release();
    await queue.idle();
    expect(order).toEqual(['scan', 'analyse-1', 'analyse-2', 'poster-1', 'poster-2', 'hash-1', 'hash-2']);
  });

  it('counts waiting and running tasks by type, and queues a waiting key once', async () => {
    const { queue, add, release } = heldQueue();
    expect(add('AnalyzeBook', 'a', 5)).toBe(true);
    expect(add('AnalyzeBook', 'a', 5)).toBe(false);
    add('AnalyzeBook', 'b', 5);
    add('HashBook', 'c', 0);
    expect(queue.status()).toEqual({ count: 4, countByType: { ScanLibrary: 1, AnalyzeBook: 2, HashBook: 1 } });
    release();
    await queue.idle();
    expect(queue.status()).toEqual({ count: 0, countByType: {} });
  });

  it('keeps a task whose key is running waiting, without holding up the tasks behind it', async () => {
    const queue = new TaskQueue(2);
    const order: string[] = [];
    let finishScan!: () => void;
    queue.submit('ScanLibrary', 'scan:L', () => new Promise<void>((resolve) => (finishScan = resolve)), 10);
    // The same library again (waits for the first scan), then other work of lower priority.
    queue.submit('ScanLibrary', 'scan:L', async () => void order.push('second scan'), 10);
    queue.submit('AnalyzeBook', 'analyse', async () => void order.push('analyse'), 5);
    await new Promise<void>((resolve) => {
      const stop = queue.onStatus(() => {
        if (order.length === 1) {
          stop();
          resolve();
        }
      });
    });
    expect(order).toEqual(['analyse']);
    finishScan();
    await queue.idle();
    expect(order).toEqual(['analyse', 'second scan']);
  });

  it('drops what waits on cancel and takes new work afterwards', async () => {
    const { queue, order, add, release } = heldQueue();
    for (let i = 0; i < 2000; i++) add('HashBook', `hash-${i}`, i % 3);
    expect(queue.cancelPending()).toBe(2000);
    add('AnalyzeBook', 'after', 5);
    release();
    await queue.idle();
    expect(order).toEqual(['after']);
  });

  it('runs thousands of tasks of mixed priorities each once, in priority order', async () => {
    const { queue, order, add, release } = heldQueue();
    const expected: string[][] = [[], [], []];
    for (let i = 0; i < 5000; i++) {
      const priority = (i * 7) % 3;
      add('AnalyzeBook', `t${i}`, priority);
      expected[2 - priority]!.push(`t${i}`);
    }
    release();
    await queue.idle();
    expect(order).toEqual(expected.flat());
  });
});

describe('task queue on a database another process holds locked', () => {
  it('removes a finished task\'s stored row once the database can be written again, not only at the next start', async () => {
    // A row whose removal failed on the lock (or came while the store was left alone after such a
    // failure) stayed until a restart ran the task again: the table never emptied while the queue was idle.
    vi.useFakeTimers();
    try {
      const rows = new Map<string, unknown>();
      let locked = false;
      const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      const queue = new TaskQueue(1, () => undefined);
      queue.persistTo({
        save: (task) => {
          if (locked) throw busy();
          rows.set(task.key, task);
        },
        remove: (key) => {
          if (locked) throw busy();
          rows.delete(key);
        },
      });
      let finish!: () => void;
      queue.submit('AnalyzeBook', 'analyse-1', () => new Promise<void>((resolve) => (finish = resolve)), 0, { bookId: '1' });
      expect([...rows.keys()]).toEqual(['analyse-1']);
      locked = true;
      finish();
      await queue.idle();
      expect([...rows.keys()]).toEqual(['analyse-1']);
      locked = false;
      await vi.advanceTimersByTimeAsync(60_000);
      expect([...rows.keys()]).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

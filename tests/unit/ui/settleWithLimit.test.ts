import { describe, expect, it } from 'vitest';
import { settleWithLimit } from '../../../src/ui/settleWithLimit.ts';

describe('settleWithLimit', () => {
  it('never runs more tasks at once than the limit, yet runs them all', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const outcomes = await settleWithLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      running++;
      most = Math.max(most, running);
      // Let the other workers take their turn before this task ends.
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return n * 10;
    });
    expect(most).toBe(3);
    expect(started.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : null))).toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it('reports each failure in its item position without stopping the others', async () => {
    const outcomes = await settleWithLimit(['a', 'bad', 'c'], 2, async (item) => {
      if (item === 'bad') throw new Error('no');
      return item.toUpperCase();
    });
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 'A' });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: new Error('no') });
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: 'C' });
  });

  it('does nothing for no items', async () => {
    expect(await settleWithLimit([], 3, async () => 1)).toEqual([]);
  });
});

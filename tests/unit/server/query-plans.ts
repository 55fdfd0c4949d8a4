import type { Db } from '../../../server/db/database.ts';

/** Records each statement's query plan (with the real parameters) as the search runs it. */
export function withPlans<T>(db: Db, run: () => T): { result: T; plan: string } {
  const original = db.prepare.bind(db);
  const plans: string[] = [];
  const patched = (source: string) => {
    const statement = original(source);
    const explain = original(`EXPLAIN QUERY PLAN ${source}`);
    const record = (...args: unknown[]) => plans.push((explain.all(...args) as { detail: string }[]).map((r) => r.detail).join('\n'));
    return {
      get: (...args: unknown[]) => (record(...args), statement.get(...args)),
      all: (...args: unknown[]) => (record(...args), statement.all(...args)),
    };
  };
  (db as unknown as { prepare: unknown }).prepare = patched;
  try {
    return { result: run(), plan: plans.join('\n') };
  } finally {
    (db as unknown as { prepare: unknown }).prepare = original;
  }
}

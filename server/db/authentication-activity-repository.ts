import type { Db } from './database.ts';
import { type SortOrder, isSortProperty } from './search/sort.ts';

export type AuthenticationSource = 'Password' | 'ApiKey' | 'RememberMe' | `OAuth2:${string}`;

export interface AuthenticationActivity {
  userId: string | null;
  email: string | null;
  apiKeyId: string | null;
  apiKeyComment: string | null;
  ip: string | null;
  userAgent: string | null;
  success: boolean;
  error: string | null;
  source: AuthenticationSource | null;
  dateTime: number;
}

/** Sort keys of AuthenticationActivityDto lists (REFERENCE §2.1) and their columns. */
const SORT_COLUMNS: Record<string, string> = {
  dateTime: 'date_time',
  email: 'email COLLATE NOCASE',
  success: 'success',
  ip: 'ip',
  error: 'error',
  userId: 'user_id',
  userAgent: 'user_agent',
};

const SELECT = `SELECT user_id AS userId, email, api_key_id AS apiKeyId, api_key_comment AS apiKeyComment, ip,
  user_agent AS userAgent, success, error, source, date_time AS dateTime FROM authentication_activity`;

type Row = Omit<AuthenticationActivity, 'success'> & { success: number };
const fromRow = (row: Row): AuthenticationActivity => ({ ...row, success: row.success === 1 });

export interface ActivityPage {
  rows: AuthenticationActivity[];
  total: number;
  sorted: boolean;
}

export class AuthenticationActivityRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  insert(a: AuthenticationActivity): void {
    this.db
      .prepare(
        `INSERT INTO authentication_activity
         (user_id, email, api_key_id, api_key_comment, ip, user_agent, success, error, source, date_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(a.userId, a.email, a.apiKeyId, a.apiKeyComment, a.ip, a.userAgent, a.success ? 1 : 0, a.error, a.source, a.dateTime);
  }

  /**
   * Retention: forgets attempts older than `olderThan` (epoch ms) and all but the newest `keepRows`.
   * Both go by index (date, then the autoincrement id), so a sweep stays cheap on a big table.
   * Before the newest rows are counted, each account keeps only its newest `keepRows / 100`
   * successful sign-ins: remembered credentials cost no password check, so one account could sign
   * in as fast as requests arrive and push everyone's older rows, a guesser's traces, out of the bound.
   */
  prune(olderThan: number, keepRows: number): number {
    const old = this.db.prepare('DELETE FROM authentication_activity WHERE date_time < ?').run(olderThan).changes;
    const perAccount = Math.ceil(keepRows / 100);
    const busy = this.db
      .prepare('SELECT user_id FROM authentication_activity WHERE user_id IS NOT NULL AND success = 1 GROUP BY user_id HAVING count(*) > ?')
      .pluck()
      .all(perAccount) as string[];
    let trimmed = 0;
    for (const userId of busy) {
      const last = this.db
        .prepare('SELECT id FROM authentication_activity WHERE user_id = ? AND success = 1 ORDER BY id DESC LIMIT 1 OFFSET ?')
        .pluck()
        .get(userId, perAccount) as number;
      trimmed += this.db.prepare('DELETE FROM authentication_activity WHERE user_id = ? AND success = 1 AND id <= ?').run(userId, last).changes;
    }
    const cutoff = this.db.prepare('SELECT id FROM authentication_activity ORDER BY id DESC LIMIT 1 OFFSET ?').pluck().get(keepRows) as number | undefined;
    const excess = cutoff === undefined ? 0 : this.db.prepare('DELETE FROM authentication_activity WHERE id <= ?').run(cutoff).changes;
    return old + trimmed + excess;
  }

  /**
   * One page of activity, newest first unless sorted otherwise. With `user`, only that account's
   * attempts: those made as the user, and failed ones naming its email.
   */
  page(options: { user?: { id: string; email: string }; sort: SortOrder[]; limit: number | null; offset: number }): ActivityPage {
    const where = options.user ? 'WHERE user_id = ? OR (user_id IS NULL AND email = ? COLLATE NOCASE)' : '';
    const params = options.user ? [options.user.id, options.user.email] : [];
    const known = options.sort.filter((s) => isSortProperty(SORT_COLUMNS, s.property));
    const order = [
      ...(known.length ? known : [{ property: 'dateTime', direction: 'desc' as const }]).map(
        (s) => `${SORT_COLUMNS[s.property]} ${s.direction === 'desc' ? 'DESC' : 'ASC'}`,
      ),
      // Ties (same millisecond) keep insertion order in the sort's main direction.
      `id ${(known[0] ?? { direction: 'desc' }).direction === 'desc' ? 'DESC' : 'ASC'}`,
    ].join(', ');
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM authentication_activity ${where}`).get(...params) as { n: number }).n;
    const limit = options.limit === null ? '' : ` LIMIT ${options.limit} OFFSET ${options.offset}`;
    const rows = this.db.prepare(`${SELECT} ${where} ORDER BY ${order}${limit}`).all(...params) as Row[];
    // Always sorted: without a known key the default dateTime,desc applies (as Komga's @PageableDefault).
    return { rows: rows.map(fromRow), total, sorted: true };
  }

  /** The user's most recent attempt, optionally only those made with one API key. */
  latest(userId: string, apiKeyId?: string): AuthenticationActivity | undefined {
    const row = (
      apiKeyId
        ? this.db.prepare(`${SELECT} WHERE user_id = ? AND api_key_id = ? ORDER BY date_time DESC, id DESC LIMIT 1`).get(userId, apiKeyId)
        : this.db.prepare(`${SELECT} WHERE user_id = ? ORDER BY date_time DESC, id DESC LIMIT 1`).get(userId)
    ) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }
}

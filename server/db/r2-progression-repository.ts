import type { Db } from './database.ts';

/** A Readium progression as a reader last sent it for a book (table r2_progression). */
export interface StoredProgression {
  bookId: string;
  userId: string;
  deviceId: string;
  deviceName: string;
  /** The R2Locator the client sent, reduced to the contract’s shape (contractLocator). */
  locator: Record<string, unknown>;
  /** The progression's own "modified" time (epoch ms). */
  modified: number;
}

interface Row {
  book_id: string;
  user_id: string;
  device_id: string;
  device_name: string;
  locator: string;
  modified: number;
}

export class R2ProgressionRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  find(bookId: string, userId: string): StoredProgression | undefined {
    const row = this.db.prepare('SELECT * FROM r2_progression WHERE book_id = ? AND user_id = ?').get(bookId, userId) as Row | undefined;
    if (!row) return undefined;
    return {
      bookId: row.book_id,
      userId: row.user_id,
      deviceId: row.device_id,
      deviceName: row.device_name,
      locator: JSON.parse(row.locator) as Record<string, unknown>,
      modified: row.modified,
    };
  }

  save(p: StoredProgression): void {
    this.db
      .prepare(
        `INSERT INTO r2_progression (book_id, user_id, device_id, device_name, locator, modified) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(book_id, user_id) DO UPDATE SET device_id = excluded.device_id, device_name = excluded.device_name,
           locator = excluded.locator, modified = excluded.modified`,
      )
      .run(p.bookId, p.userId, p.deviceId, p.deviceName, JSON.stringify(p.locator), p.modified);
  }
}

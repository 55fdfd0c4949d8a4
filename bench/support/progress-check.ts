import Database from 'better-sqlite3';

/** A progress save a simulated reader sent: `page` is the last one the server accepted (204); `unsure` when its answer never came. */
export interface SentProgress {
  user: number;
  bookId: string;
  page: number;
  unsure: boolean;
}

/**
 * Compares what each reader last saw accepted with what the database stores: a save accepted but
 * not stored (or stored older) is lost. Saves whose answer never came may or may not have landed,
 * so they are counted apart. Read straight from the file, as the server wrote it.
 */
export function checkStoredProgress(dbPath: string, sent: readonly SentProgress[], emails: readonly string[]) {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  let sessions: number | undefined;
  let stored: Map<string, number>;
  try {
    const rows = db.prepare('SELECT u.email AS email, p.book_id AS book, p.page AS page FROM read_progress p JOIN user u ON u.id = p.user_id').all() as { email: string; book: string; page: number }[];
    stored = new Map(rows.map((r) => [`${r.email}/${r.book}`, r.page]));
    sessions = (db.prepare('SELECT count(*) AS n FROM session').get() as { n: number } | undefined)?.n;
  } finally {
    db.close();
  }
  let lost = 0;
  let unsureSkipped = 0;
  const mismatches: string[] = [];
  for (const entry of sent) {
    if (entry.page === 0) continue;
    const storedPage = stored.get(`${emails[entry.user]}/${entry.bookId}`);
    if (storedPage === entry.page) continue;
    if (entry.unsure) {
      unsureSkipped++;
      continue;
    }
    lost++;
    if (mismatches.length < 5) mismatches.push(`${entry.bookId} user ${entry.user}: sent ${entry.page}, stored ${storedPage}`);
  }
  return { lost, unsureSkipped, mismatches, sessions };
}

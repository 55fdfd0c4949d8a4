import type { Db } from './database.ts';
import { type ColumnMap, insertSql, objectToParams, rowToObject, updateSql } from './columns.ts';
import { LruMap } from '../lru-map.ts';
import { onForeignWrites } from './foreign-writes.ts';
import { cachedStatement } from './statement-cache.ts';

export interface User {
  id: string;
  email: string;
  passwordHash: string;
  /** Granted roles; the pseudo-role USER is added when mapping to a DTO. */
  roles: string[];
  sharedAllLibraries: boolean;
  sharedLibraryIds: string[];
  labelsAllow: string[];
  labelsExclude: string[];
  ageRestriction: number | null;
  ageRestrictionType: 'ALLOW_ONLY' | 'EXCLUDE' | null;
  created: number;
  lastModified: number;
}

const COLUMNS: ColumnMap<User> = {
  id: ['id', 'text'],
  email: ['email', 'text'],
  passwordHash: ['password_hash', 'text'],
  roles: ['roles', 'json'],
  sharedAllLibraries: ['shared_all_libraries', 'bool'],
  sharedLibraryIds: ['shared_library_ids', 'json'],
  labelsAllow: ['labels_allow', 'json'],
  labelsExclude: ['labels_exclude', 'json'],
  ageRestriction: ['age_restriction', 'int'],
  ageRestrictionType: ['age_restriction_type', 'text'],
  created: ['created', 'int'],
  lastModified: ['last_modified', 'int'],
};

/** Users remembered at most (more are simply read again). */
const REMEMBER_MAX = 10_000;

/** A copy whose lists the caller may change without touching what is remembered. */
const copyOf = (user: User): User => ({
  ...user,
  roles: [...user.roles],
  sharedLibraryIds: [...user.sharedLibraryIds],
  labelsAllow: [...user.labelsAllow],
  labelsExclude: [...user.labelsExclude],
});

/**
 * Accounts. Every authenticated request looks its caller up by id, so users read by id are
 * remembered (no query, no JSON parsing of four columns per request). Only this repository writes
 * the table, and each write forgets what it changes before the next read, so a changed role, shared
 * library, restriction or password applies to the very next request. Nothing read inside a
 * transaction is remembered: if the transaction is rolled back, the table is read again.
 */
export class UserRepository {
  private readonly db: Db;
  private readonly remembered = new LruMap<string, User>(REMEMBER_MAX);
  constructor(db: Db) {
    this.db = db;
    // In a serving process the primary writes the table: its commits make everything remembered go.
    onForeignWrites(db, () => this.remembered.clear());
  }

  count(): number {
    return (cachedStatement(this.db, 'SELECT COUNT(*) AS n FROM user').get() as { n: number }).n;
  }

  findById(id: string): User | undefined {
    const known = this.remembered.get(id);
    if (known) return copyOf(known);
    const row = cachedStatement(this.db, 'SELECT * FROM user WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    if (!row) return undefined;
    const user = rowToObject(COLUMNS, row);
    if (!this.db.inTransaction) {
      this.remembered.set(id, copyOf(user));
    }
    return user;
  }

  /** Email comparison is case-insensitive (the column is COLLATE NOCASE). */
  findByEmail(email: string): User | undefined {
    const row = cachedStatement(this.db, 'SELECT * FROM user WHERE email = ?').get(email) as
      | Record<string, unknown>
      | undefined;
    return row ? rowToObject(COLUMNS, row) : undefined;
  }

  findAll(): User[] {
    const rows = cachedStatement(this.db, 'SELECT * FROM user ORDER BY email COLLATE NOCASE, id').all() as Record<string, unknown>[];
    return rows.map((row) => rowToObject(COLUMNS, row));
  }

  /** Deletes the user; sessions, API keys, read progress and activity go with it (ON DELETE CASCADE). */
  delete(id: string): boolean {
    this.remembered.delete(id);
    return cachedStatement(this.db, 'DELETE FROM user WHERE id = ?').run(id).changes > 0;
  }

  /** Takes a deleted library out of every user's shared libraries (Komga's sharing rows go with the library). */
  forgetLibrary(libraryId: string): void {
    this.remembered.clear();
    cachedStatement(
      this.db,
      `UPDATE user SET shared_library_ids = (SELECT json_group_array(value) FROM json_each(user.shared_library_ids) WHERE value <> ?)
       WHERE EXISTS (SELECT 1 FROM json_each(user.shared_library_ids) WHERE value = ?)`,
    ).run(libraryId, libraryId);
  }

  insert(user: User): void {
    this.remembered.delete(user.id);
    cachedStatement(this.db, insertSql('user', COLUMNS)).run(objectToParams(COLUMNS, user));
  }

  update(user: User): void {
    this.remembered.delete(user.id);
    cachedStatement(this.db, updateSql('user', COLUMNS, 'id')).run(objectToParams(COLUMNS, user));
  }
}

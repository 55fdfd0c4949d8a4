-- An age rule hides a series none of whose live books is analysed yet (db/search/content-restriction.ts,
-- notYetRated): its rating is not known until its files are read. That set was read from the books
-- awaiting analysis, a few b-tree searches per such book on every restricted statement: 5 ms a
-- statement with 2,000 books awaiting analysis, twice per restricted list (rows and count) for as
-- long as a large import took. series_media_counts now keeps, per series, how many of its live books
-- await analysis (media UNKNOWN) and how many are analysed (any other status); the set is the series
-- with some of the first and none of the second, read from a partial index that is empty once a
-- library is analysed.
--
-- The counts are kept by triggers, in the statement that changes a media status, adds or removes a
-- media row, moves a book to another series, flags it deleted or brings it back, or deletes it: every
-- writer (Folio's repositories, the sqlite3 shell, another tool) keeps them right, in the same
-- transaction. Plain SQL only (no function only Folio's connection has, see 008). A deleted book's
-- media row goes by ON DELETE CASCADE after the book's row is gone, so the book's counts are taken
-- off BEFORE it is deleted, and the media row's own trigger then finds no live book.
-- The upgrade tests may run this again: everything is created IF NOT EXISTS and counted afresh.
CREATE TABLE IF NOT EXISTS series_media_counts (
  series_id TEXT PRIMARY KEY REFERENCES series(id) ON DELETE CASCADE,
  awaiting INTEGER NOT NULL DEFAULT 0,
  analysed INTEGER NOT NULL DEFAULT 0
);
DELETE FROM series_media_counts;
INSERT INTO series_media_counts (series_id, awaiting, analysed)
  SELECT b.series_id, SUM(m.status = 'UNKNOWN'), SUM(m.status <> 'UNKNOWN')
  FROM book b JOIN media m ON m.book_id = b.id WHERE b.deleted_date IS NULL GROUP BY b.series_id;
CREATE INDEX IF NOT EXISTS series_media_counts_awaiting ON series_media_counts(series_id) WHERE awaiting > 0 AND analysed = 0;

-- Adds (sign 1) or takes off (sign -1) one book's media row to its series' counts, when the book is live.
CREATE TRIGGER IF NOT EXISTS media_counts_insert AFTER INSERT ON media BEGIN
  INSERT INTO series_media_counts (series_id, awaiting, analysed)
    SELECT series_id, NEW.status = 'UNKNOWN', NEW.status <> 'UNKNOWN' FROM book WHERE id = NEW.book_id AND deleted_date IS NULL
    ON CONFLICT (series_id) DO UPDATE SET awaiting = awaiting + excluded.awaiting, analysed = analysed + excluded.analysed;
END;

CREATE TRIGGER IF NOT EXISTS media_counts_update AFTER UPDATE OF status ON media WHEN (OLD.status = 'UNKNOWN') IS NOT (NEW.status = 'UNKNOWN') BEGIN
  UPDATE series_media_counts SET
    awaiting = awaiting + (NEW.status = 'UNKNOWN') - (OLD.status = 'UNKNOWN'),
    analysed = analysed + (NEW.status <> 'UNKNOWN') - (OLD.status <> 'UNKNOWN')
  WHERE series_id = (SELECT series_id FROM book WHERE id = NEW.book_id AND deleted_date IS NULL);
END;

CREATE TRIGGER IF NOT EXISTS media_counts_delete AFTER DELETE ON media BEGIN
  UPDATE series_media_counts SET awaiting = awaiting - (OLD.status = 'UNKNOWN'), analysed = analysed - (OLD.status <> 'UNKNOWN')
  WHERE series_id = (SELECT series_id FROM book WHERE id = OLD.book_id AND deleted_date IS NULL);
END;

-- A book moved to another series, flagged deleted or brought back: its media row counts where it
-- was live before no more, and where it is live now.
CREATE TRIGGER IF NOT EXISTS book_counts_move AFTER UPDATE OF series_id, deleted_date ON book
WHEN OLD.series_id IS NOT NEW.series_id OR (OLD.deleted_date IS NULL) IS NOT (NEW.deleted_date IS NULL) BEGIN
  UPDATE series_media_counts SET
    awaiting = awaiting - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status = 'UNKNOWN'),
    analysed = analysed - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status <> 'UNKNOWN')
  WHERE series_id = OLD.series_id AND OLD.deleted_date IS NULL;
  INSERT INTO series_media_counts (series_id, awaiting, analysed)
    SELECT NEW.series_id, status = 'UNKNOWN', status <> 'UNKNOWN' FROM media WHERE book_id = NEW.id AND NEW.deleted_date IS NULL
    ON CONFLICT (series_id) DO UPDATE SET awaiting = awaiting + excluded.awaiting, analysed = analysed + excluded.analysed;
END;

CREATE TRIGGER IF NOT EXISTS book_counts_delete BEFORE DELETE ON book WHEN OLD.deleted_date IS NULL BEGIN
  UPDATE series_media_counts SET
    awaiting = awaiting - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status = 'UNKNOWN'),
    analysed = analysed - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status <> 'UNKNOWN')
  WHERE series_id = OLD.series_id;
END;

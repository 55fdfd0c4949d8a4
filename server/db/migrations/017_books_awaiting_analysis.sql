-- An age rule keeps from its reader a book awaiting analysis (media UNKNOWN) or analysis again
-- (OUTDATED: the scan found its file replaced) even in a series it shows: the book's ComicInfo may
-- rate the series out of reach (db/search/content-restriction.ts, awaitingAnalysis). A series with
-- books awaiting analysis and none analysed is kept back whole already (notYetRated, migration 016);
-- the books to keep back one by one are those of series "mixed": some book OUTDATED, or some
-- awaiting analysis and some analysed. series_media_counts now also counts each series' OUTDATED
-- live books, and a partial index names the mixed series: empty once a library is analysed, and
-- while a large import of new series waits for analysis, so restricted statements then probe
-- nothing per book. Otherwise they read the books awaiting analysis from their own partial index.
--
-- The table and its triggers (016) are made again with the new count: the same rules, plus OUTDATED
-- kept like UNKNOWN. Everything is dropped IF EXISTS and created IF NOT EXISTS, counted afresh.
DROP TRIGGER IF EXISTS media_counts_insert;
DROP TRIGGER IF EXISTS media_counts_update;
DROP TRIGGER IF EXISTS media_counts_delete;
DROP TRIGGER IF EXISTS book_counts_move;
DROP TRIGGER IF EXISTS book_counts_delete;
DROP TABLE IF EXISTS series_media_counts;
CREATE TABLE IF NOT EXISTS series_media_counts (
  series_id TEXT PRIMARY KEY REFERENCES series(id) ON DELETE CASCADE,
  awaiting INTEGER NOT NULL DEFAULT 0,
  analysed INTEGER NOT NULL DEFAULT 0,
  outdated INTEGER NOT NULL DEFAULT 0
);
INSERT INTO series_media_counts (series_id, awaiting, analysed, outdated)
  SELECT b.series_id, SUM(m.status = 'UNKNOWN'), SUM(m.status <> 'UNKNOWN'), SUM(m.status = 'OUTDATED')
  FROM book b JOIN media m ON m.book_id = b.id WHERE b.deleted_date IS NULL GROUP BY b.series_id;
CREATE INDEX IF NOT EXISTS series_media_counts_awaiting ON series_media_counts(series_id) WHERE awaiting > 0 AND analysed = 0;
CREATE INDEX IF NOT EXISTS series_media_counts_mixed ON series_media_counts(series_id) WHERE outdated > 0 OR (awaiting > 0 AND analysed > 0);

CREATE TRIGGER IF NOT EXISTS media_counts_insert AFTER INSERT ON media BEGIN
  INSERT INTO series_media_counts (series_id, awaiting, analysed, outdated)
    SELECT series_id, NEW.status = 'UNKNOWN', NEW.status <> 'UNKNOWN', NEW.status = 'OUTDATED' FROM book WHERE id = NEW.book_id AND deleted_date IS NULL
    ON CONFLICT (series_id) DO UPDATE SET awaiting = awaiting + excluded.awaiting, analysed = analysed + excluded.analysed, outdated = outdated + excluded.outdated;
END;

CREATE TRIGGER IF NOT EXISTS media_counts_update AFTER UPDATE OF status ON media
WHEN (OLD.status = 'UNKNOWN') IS NOT (NEW.status = 'UNKNOWN') OR (OLD.status = 'OUTDATED') IS NOT (NEW.status = 'OUTDATED') BEGIN
  UPDATE series_media_counts SET
    awaiting = awaiting + (NEW.status = 'UNKNOWN') - (OLD.status = 'UNKNOWN'),
    analysed = analysed + (NEW.status <> 'UNKNOWN') - (OLD.status <> 'UNKNOWN'),
    outdated = outdated + (NEW.status = 'OUTDATED') - (OLD.status = 'OUTDATED')
  WHERE series_id = (SELECT series_id FROM book WHERE id = NEW.book_id AND deleted_date IS NULL);
END;

CREATE TRIGGER IF NOT EXISTS media_counts_delete AFTER DELETE ON media BEGIN
  UPDATE series_media_counts SET awaiting = awaiting - (OLD.status = 'UNKNOWN'), analysed = analysed - (OLD.status <> 'UNKNOWN'), outdated = outdated - (OLD.status = 'OUTDATED')
  WHERE series_id = (SELECT series_id FROM book WHERE id = OLD.book_id AND deleted_date IS NULL);
END;

CREATE TRIGGER IF NOT EXISTS book_counts_move AFTER UPDATE OF series_id, deleted_date ON book
WHEN OLD.series_id IS NOT NEW.series_id OR (OLD.deleted_date IS NULL) IS NOT (NEW.deleted_date IS NULL) BEGIN
  UPDATE series_media_counts SET
    awaiting = awaiting - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status = 'UNKNOWN'),
    analysed = analysed - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status <> 'UNKNOWN'),
    outdated = outdated - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status = 'OUTDATED')
  WHERE series_id = OLD.series_id AND OLD.deleted_date IS NULL;
  INSERT INTO series_media_counts (series_id, awaiting, analysed, outdated)
    SELECT NEW.series_id, status = 'UNKNOWN', status <> 'UNKNOWN', status = 'OUTDATED' FROM media WHERE book_id = NEW.id AND NEW.deleted_date IS NULL
    ON CONFLICT (series_id) DO UPDATE SET awaiting = awaiting + excluded.awaiting, analysed = analysed + excluded.analysed, outdated = outdated + excluded.outdated;
END;

CREATE TRIGGER IF NOT EXISTS book_counts_delete BEFORE DELETE ON book WHEN OLD.deleted_date IS NULL BEGIN
  UPDATE series_media_counts SET
    awaiting = awaiting - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status = 'UNKNOWN'),
    analysed = analysed - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status <> 'UNKNOWN'),
    outdated = outdated - (SELECT COUNT(*) FROM media WHERE book_id = OLD.id AND status = 'OUTDATED')
  WHERE series_id = OLD.series_id;
END;

-- The books awaiting analysis, by book id, for the set read when some series is mixed.
CREATE INDEX IF NOT EXISTS media_awaiting_analysis ON media(status, book_id) WHERE status IN ('UNKNOWN', 'OUTDATED');

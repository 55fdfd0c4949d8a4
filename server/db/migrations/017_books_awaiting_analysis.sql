-- An age rule keeps from its reader a book awaiting analysis (media UNKNOWN, or OUTDATED: its file
-- was replaced) even in a series it is shown: the book's ComicInfo may rate the series out of reach
-- (db/search/content-restriction.ts, awaitingAnalysis). Restricted statements read that set of books
-- from this index, empty once a library is analysed; media_status (status, rowid) would need the
-- media row of each to find its book id.
CREATE INDEX IF NOT EXISTS media_awaiting_analysis ON media(status, book_id) WHERE status IN ('UNKNOWN', 'OUTDATED');

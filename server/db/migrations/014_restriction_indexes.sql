-- Content restrictions (db/search/content-restriction.ts) build, once per statement, the set of
-- series a rule keeps or hides, instead of testing every row's series one by one. These indexes
-- are what those sets are read from: series by age rating (ALLOW_ONLY n and EXCLUDE n), and the
-- labelled series alone (a partial index: most series have no sharing label, and only labelled
-- ones need their labels parsed). Both cover their query, so the series' rows are not read. The
-- upgrade tests may run this again, hence IF NOT EXISTS.
CREATE INDEX IF NOT EXISTS series_metadata_age_rating ON series_metadata(age_rating, series_id);
CREATE INDEX IF NOT EXISTS series_metadata_labelled ON series_metadata(series_id, sharing_labels) WHERE sharing_labels <> '[]';

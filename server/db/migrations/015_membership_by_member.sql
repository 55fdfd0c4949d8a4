-- Read lists and collections are keyed by the list (readlist_id, book_id / collection_id,
-- series_id), so finding the lists a book or series is in read every list's rows: sorting a read
-- list's page by its position (readList.number) did that once per book (35 ms for 200 books at
-- 4,000 list entries), and deleting a book or series (ON DELETE CASCADE) once per row deleted.
-- The upgrade tests may run this again, hence IF NOT EXISTS.
CREATE INDEX IF NOT EXISTS readlist_book_book ON readlist_book(book_id);
CREATE INDEX IF NOT EXISTS collection_series_series ON collection_series(series_id);

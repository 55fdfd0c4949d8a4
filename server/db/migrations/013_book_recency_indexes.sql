-- "Recently added/updated books" (the dashboard's row, /books/latest, OPDS latest, Mihon's
-- "latest") sort all of a library's books by created or last_modified date: without an index
-- SQLite sorted every book to keep 20 (50,000 books: a temp B-tree each time). With one it reads
-- the newest first and stops at the page. The upgrade tests may run this again, hence IF NOT EXISTS.
CREATE INDEX IF NOT EXISTS book_created ON book(created);
CREATE INDEX IF NOT EXISTS book_last_modified ON book(last_modified);

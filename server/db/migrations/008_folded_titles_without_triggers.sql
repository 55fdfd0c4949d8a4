-- The triggers of 007 called fold_text, a function only Folio's connection has, so any write to
-- these tables from the sqlite3 shell or another tool failed with "no such function: fold_text".
-- The repositories now write the folded titles themselves (db/folded-titles.ts). What another tool
-- writes is caught without any custom function: a new row carries NULL folded titles, and the
-- triggers below set them to NULL when a statement changes a title without also writing its folded
-- form. The search folds a NULL on the fly (so the row is found at once) and openDatabase folds
-- every NULL on the next start (so the fast stored comparison comes back). A change of ASCII case
-- alone (SQLite's lower() folds only ASCII) leaves the folded form right and is let through, so
-- Folio's own "Foo" -> "FOO", whose folded form the statement rewrites unchanged, keeps it.
DROP TRIGGER series_metadata_fold_insert;
DROP TRIGGER series_metadata_fold_update;
DROP TRIGGER book_metadata_fold_insert;
DROP TRIGGER book_metadata_fold_update;

CREATE TRIGGER series_metadata_title_changed AFTER UPDATE OF title ON series_metadata
WHEN lower(NEW.title) IS NOT lower(OLD.title) AND NEW.title_folded IS OLD.title_folded BEGIN
  UPDATE series_metadata SET title_folded = NULL WHERE series_id = NEW.series_id;
END;
CREATE TRIGGER series_metadata_title_sort_changed AFTER UPDATE OF title_sort ON series_metadata
WHEN lower(NEW.title_sort) IS NOT lower(OLD.title_sort) AND NEW.title_sort_folded IS OLD.title_sort_folded BEGIN
  UPDATE series_metadata SET title_sort_folded = NULL WHERE series_id = NEW.series_id;
END;
CREATE TRIGGER book_metadata_title_changed AFTER UPDATE OF title ON book_metadata
WHEN lower(NEW.title) IS NOT lower(OLD.title) AND NEW.title_folded IS OLD.title_folded BEGIN
  UPDATE book_metadata SET title_folded = NULL WHERE book_id = NEW.book_id;
END;

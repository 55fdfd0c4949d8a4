-- Folding now spells out letters such as ß, æ, ø, þ and decomposes compatibility forms
-- (search/fold-text.ts), so folded titles stored by the older folding no longer match their
-- queries. Only titles with a character outside ASCII fold differently; their folded forms are
-- cleared here and openDatabase folds them again (db/folded-titles.ts refoldMissingTitles) in
-- JavaScript, the one place the folding lives.
UPDATE series_metadata SET title_folded = NULL WHERE length(CAST(title AS BLOB)) <> length(title);
UPDATE series_metadata SET title_sort_folded = NULL WHERE length(CAST(title_sort AS BLOB)) <> length(title_sort);
UPDATE book_metadata SET title_folded = NULL WHERE length(CAST(title AS BLOB)) <> length(title);

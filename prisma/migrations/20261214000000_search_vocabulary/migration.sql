-- The full-text index's own words, read in place (fts5vocab stores nothing). FTS5 answers a word
-- prefix ("error"*) by merging the whole lists of every word that starts with it before it returns
-- a row, which took 100 ms for a common word at a million turns; search asks this view which words
-- start with a term and matches them by name instead (lib/db/engine/dialect.ts ftsMatch).
CREATE VIRTUAL TABLE "TurnSearchVocab" USING fts5vocab('TurnSearch', 'row');

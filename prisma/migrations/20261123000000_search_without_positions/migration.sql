-- The full-text index keeps which turns hold each word, not where: search matches every term as a
-- word or prefix anywhere in a turn (lib/domain/search.ts) and never asks for phrases or nearness,
-- which need positions. Without them the index is smaller and bulk imports index about 20% faster.
-- The triggers on "Turn" name the table, not its options, and stay as they are.
DROP TABLE "TurnSearch";

CREATE VIRTUAL TABLE "TurnSearch" USING fts5(
    content,
    content='Turn',
    content_rowid='seq',
    detail=none,
    tokenize='unicode61 remove_diacritics 2'
);

INSERT INTO "TurnSearch"("TurnSearch") VALUES ('rebuild');

-- Search must not match inside a secret: a search by word prefix would otherwise recover a masked
-- key one character at a time. The full-text index and title search read a masked copy of a text
-- that holds a secret (written beside it by every write, lib/domain/search.ts searchableText), and
-- the text itself when it holds none (the column is null, the common case).
ALTER TABLE "Thread" ADD COLUMN "searchTitle" TEXT;

ALTER TABLE "Turn" ADD COLUMN "searchContent" TEXT;

-- SQL cannot mask, so what was stored before is hidden from search (an empty text matches nothing) until the
-- scan for secrets has written its masked copy (lib/secrets/scan.ts): the turns it found a secret
-- in, the turns it had not read yet, and every title.
UPDATE "Turn" SET "searchContent" = '' WHERE "seq" IN (SELECT "turnSeq" FROM "SecretFinding" WHERE "field" = 'content') OR "seq" > (SELECT COALESCE(MAX(CAST("value" AS INTEGER)), 0) FROM "AppSetting" WHERE "key" = 'secrets.scannedSeq');

UPDATE "Thread" SET "searchTitle" = '' WHERE "title" IS NOT NULL;

INSERT INTO "AppSetting" ("key", "value") SELECT 'search.hiddenUntilMasked', 'until the scan has written the masked copies' WHERE EXISTS (SELECT 1 FROM "Turn" WHERE "searchContent" = '') OR EXISTS (SELECT 1 FROM "Thread" WHERE "searchTitle" = '');

-- The index reads its text through a view: the masked copy where there is one. Its triggers index
-- and unindex exactly what the view gives.
DROP TRIGGER "Turn_search_insert";

DROP TRIGGER "Turn_search_delete";

DROP TRIGGER "Turn_search_update";

DROP TABLE "TurnSearch";

CREATE VIEW "TurnSearchText" AS SELECT "seq", COALESCE("searchContent", "content") AS "content" FROM "Turn";

CREATE VIRTUAL TABLE "TurnSearch" USING fts5(
    content,
    content='TurnSearchText',
    content_rowid='seq',
    detail=none,
    tokenize='unicode61 remove_diacritics 2'
);

CREATE TRIGGER "Turn_search_insert" AFTER INSERT ON "Turn" BEGIN
    INSERT INTO "TurnSearch"(rowid, content) VALUES (new.seq, COALESCE(new."searchContent", new.content));
END;

CREATE TRIGGER "Turn_search_delete" AFTER DELETE ON "Turn" BEGIN
    INSERT INTO "TurnSearch"("TurnSearch", rowid, content) VALUES ('delete', old.seq, COALESCE(old."searchContent", old.content));
END;

CREATE TRIGGER "Turn_search_update" AFTER UPDATE OF content, "searchContent" ON "Turn" BEGIN
    INSERT INTO "TurnSearch"("TurnSearch", rowid, content) VALUES ('delete', old.seq, COALESCE(old."searchContent", old.content));
    INSERT INTO "TurnSearch"(rowid, content) VALUES (new.seq, COALESCE(new."searchContent", new.content));
END;

INSERT INTO "TurnSearch"("TurnSearch") VALUES ('rebuild');

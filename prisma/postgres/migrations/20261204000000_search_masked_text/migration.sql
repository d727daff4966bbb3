-- Search must not match inside a secret: a search by word prefix would otherwise recover a masked
-- key one character at a time. The words column and title search read a masked copy of a text
-- that holds a secret (written beside it by every write, lib/domain/threads/search.ts searchableText), and
-- the text itself when it holds none (the column is null, the common case).
ALTER TABLE "Thread" ADD COLUMN "searchTitle" TEXT;

ALTER TABLE "Turn" ADD COLUMN "searchContent" TEXT;

-- A generated column cannot change its expression here: it is dropped (with its index) and added
-- again below, once the marks are written, so each turn is read into words once.
ALTER TABLE "Turn" DROP COLUMN "searchVector";

-- SQL cannot mask, so what was stored before is hidden from search (an empty text matches nothing)
-- until the scan for secrets has written its masked copy (lib/secrets/scan.ts): the turns it found
-- a secret in, the turns it had not read yet, and every title.
UPDATE "Turn" SET "searchContent" = '' WHERE "seq" IN (SELECT "turnSeq" FROM "SecretFinding" WHERE "field" = 'content') OR "seq" > (SELECT COALESCE(MAX(CAST("value" AS INTEGER)), 0) FROM "AppSetting" WHERE "key" = 'secrets.scannedSeq');

UPDATE "Thread" SET "searchTitle" = '' WHERE "title" IS NOT NULL;

INSERT INTO "AppSetting" ("key", "value") SELECT 'search.hiddenUntilMasked', 'until the scan has written the masked copies' WHERE EXISTS (SELECT 1 FROM "Turn" WHERE "searchContent" = '') OR EXISTS (SELECT 1 FROM "Thread" WHERE "searchTitle" = '');

ALTER TABLE "Turn" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (to_tsvector('threadline'::regconfig, left(COALESCE("searchContent", "content"), 262144))) STORED;

CREATE INDEX "Turn_searchVector_idx" ON "Turn" USING GIN ("searchVector");

DROP INDEX "Thread_title_trgm_idx";

CREATE INDEX "Thread_searchTitle_trgm_idx" ON "Thread" USING GIN ((COALESCE("searchTitle", "title")) gin_trgm_ops);

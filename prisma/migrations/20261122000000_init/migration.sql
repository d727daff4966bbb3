-- CreateTable
CREATE TABLE "Thread" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "parentThreadId" TEXT,
    "title" TEXT,
    "toolName" TEXT NOT NULL,
    "initialContext" TEXT NOT NULL DEFAULT '{}',
    "metadata" TEXT,
    "source" TEXT NOT NULL DEFAULT 'api',
    "createdAt" DATETIME NOT NULL,
    "lastUpdatedAt" DATETIME NOT NULL,
    "expiresAt" DATETIME,
    "turnCount" INTEGER NOT NULL DEFAULT 0,
    "tokenEstimate" INTEGER NOT NULL DEFAULT 0,
    "modelsUsed" TEXT NOT NULL DEFAULT '[]'
);

-- CreateTable
CREATE TABLE "Turn" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "timestamp" DATETIME NOT NULL,
    "files" TEXT NOT NULL DEFAULT '[]',
    "images" TEXT NOT NULL DEFAULT '[]',
    "toolName" TEXT,
    "modelProvider" TEXT,
    "modelName" TEXT,
    "modelMetadata" TEXT,
    "parts" TEXT,
    "tokenEstimate" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Turn_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Thread_lastUpdatedAt_id_idx" ON "Thread"("lastUpdatedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Thread_parentThreadId_idx" ON "Thread"("parentThreadId");

-- CreateIndex
CREATE INDEX "Thread_toolName_lastUpdatedAt_idx" ON "Thread"("toolName", "lastUpdatedAt" DESC);

-- CreateIndex
CREATE INDEX "Thread_source_idx" ON "Thread"("source");

-- CreateIndex
CREATE UNIQUE INDEX "Turn_id_key" ON "Turn"("id");

-- CreateIndex
CREATE INDEX "Turn_modelName_threadId_idx" ON "Turn"("modelName", "threadId");

-- CreateIndex
CREATE INDEX "Turn_toolName_threadId_idx" ON "Turn"("toolName", "threadId");

-- CreateIndex
CREATE UNIQUE INDEX "Turn_threadId_index_key" ON "Turn"("threadId", "index");


-- Full-text search over turn content (hand-written: Prisma does not model FTS5).
-- External-content table keyed by Turn.seq, kept in step by triggers.
CREATE VIRTUAL TABLE "TurnSearch" USING fts5(
    content,
    content='Turn',
    content_rowid='seq',
    tokenize='unicode61 remove_diacritics 2'
);

CREATE TRIGGER "Turn_search_insert" AFTER INSERT ON "Turn" BEGIN
    INSERT INTO "TurnSearch"(rowid, content) VALUES (new.seq, new.content);
END;

CREATE TRIGGER "Turn_search_delete" AFTER DELETE ON "Turn" BEGIN
    INSERT INTO "TurnSearch"("TurnSearch", rowid, content) VALUES ('delete', old.seq, old.content);
END;

CREATE TRIGGER "Turn_search_update" AFTER UPDATE OF content ON "Turn" BEGIN
    INSERT INTO "TurnSearch"("TurnSearch", rowid, content) VALUES ('delete', old.seq, old.content);
    INSERT INTO "TurnSearch"(rowid, content) VALUES (new.seq, new.content);
END;

-- CreateTable
CREATE TABLE "Thread" (
    "id" TEXT NOT NULL,
    "parentThreadId" TEXT,
    "title" TEXT,
    "toolName" TEXT NOT NULL,
    "initialContext" TEXT NOT NULL DEFAULT '{}',
    "metadata" TEXT,
    "source" TEXT NOT NULL DEFAULT 'api',
    "project" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "lastUpdatedAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "turnCount" INTEGER NOT NULL DEFAULT 0,
    "tokenEstimate" INTEGER NOT NULL DEFAULT 0,
    "modelsUsed" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "Thread_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Turn" (
    "seq" SERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "timestamp" TIMESTAMP(3) NOT NULL,
    "files" TEXT NOT NULL DEFAULT '[]',
    "images" TEXT NOT NULL DEFAULT '[]',
    "toolName" TEXT,
    "modelProvider" TEXT,
    "modelName" TEXT,
    "modelMetadata" TEXT,
    "parts" TEXT,
    "tokenEstimate" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Turn_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "TurnTokenCount" (
    "turnSeq" INTEGER NOT NULL,
    "threadId" TEXT NOT NULL,
    "tokenizer" TEXT NOT NULL,
    "tokens" INTEGER NOT NULL,

    CONSTRAINT "TurnTokenCount_pkey" PRIMARY KEY ("turnSeq","tokenizer")
);

-- CreateTable
CREATE TABLE "FileSnapshot" (
    "turnSeq" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "content" TEXT NOT NULL,

    CONSTRAINT "FileSnapshot_pkey" PRIMARY KEY ("turnSeq","position")
);

-- CreateTable
CREATE TABLE "AppSetting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "AppSetting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "CustomModel" (
    "id" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "contextWindow" INTEGER NOT NULL,
    "maxOutputTokens" INTEGER,
    "tokenizer" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CustomModel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportedFile" (
    "sha256" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "importedAt" TIMESTAMP(3) NOT NULL,
    "threadIds" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "ImportedFile_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "Compaction" (
    "id" TEXT NOT NULL,
    "originalThreadId" TEXT NOT NULL,
    "revisionThreadId" TEXT NOT NULL,
    "strategy" TEXT NOT NULL,
    "summarizer" TEXT NOT NULL,
    "summarizerModel" TEXT,
    "targetModel" TEXT,
    "tokenizer" TEXT NOT NULL,
    "options" TEXT NOT NULL,
    "replaced" TEXT NOT NULL,
    "trimmed" TEXT NOT NULL DEFAULT '[]',
    "tokensBefore" INTEGER NOT NULL,
    "tokensAfter" INTEGER NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "summaryEdited" BOOLEAN NOT NULL DEFAULT false,
    "lostReferences" TEXT NOT NULL DEFAULT '{"paths":[],"tools":[]}',
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Compaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompactionJob" (
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,
    "progress" TEXT,
    "revisionThreadId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompactionJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Fork" (
    "id" TEXT NOT NULL,
    "sourceThreadId" TEXT NOT NULL,
    "forkThreadId" TEXT NOT NULL,
    "atTurn" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Fork_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "Thread_project_idx" ON "Thread"("project");

-- CreateIndex
CREATE UNIQUE INDEX "Turn_id_key" ON "Turn"("id");

-- CreateIndex
CREATE INDEX "Turn_modelName_threadId_idx" ON "Turn"("modelName", "threadId");

-- CreateIndex
CREATE INDEX "Turn_toolName_threadId_idx" ON "Turn"("toolName", "threadId");

-- CreateIndex
CREATE UNIQUE INDEX "Turn_threadId_index_key" ON "Turn"("threadId", "index");

-- CreateIndex
CREATE INDEX "TurnTokenCount_threadId_tokenizer_idx" ON "TurnTokenCount"("threadId", "tokenizer");

-- CreateIndex
CREATE UNIQUE INDEX "Compaction_revisionThreadId_key" ON "Compaction"("revisionThreadId");

-- CreateIndex
CREATE INDEX "Compaction_originalThreadId_idx" ON "Compaction"("originalThreadId");

-- CreateIndex
CREATE INDEX "CompactionJob_threadId_createdAt_idx" ON "CompactionJob"("threadId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Fork_forkThreadId_key" ON "Fork"("forkThreadId");

-- CreateIndex
CREATE INDEX "Fork_sourceThreadId_idx" ON "Fork"("sourceThreadId");

-- AddForeignKey
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TurnTokenCount" ADD CONSTRAINT "TurnTokenCount_turnSeq_fkey" FOREIGN KEY ("turnSeq") REFERENCES "Turn"("seq") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FileSnapshot" ADD CONSTRAINT "FileSnapshot_turnSeq_fkey" FOREIGN KEY ("turnSeq") REFERENCES "Turn"("seq") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Compaction" ADD CONSTRAINT "Compaction_revisionThreadId_fkey" FOREIGN KEY ("revisionThreadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fork" ADD CONSTRAINT "Fork_forkThreadId_fkey" FOREIGN KEY ("forkThreadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Full-text search, written by hand (the SQLite migrations use FTS5 instead). Every term is
-- matched as a word or a prefix (lib/domain/threads/search.ts), so the index needs no positions. The words
-- come from the threadline configuration, which is simple (lower-cased words, no stemming) with
-- diacritics folded by unaccent, as the unicode61 tokenizer of FTS5 does. They are stored in a
-- generated column with a GIN index: computed again for each candidate row (what an expression
-- index leaves to rechecks and filters) they cost about 70 us a turn. A tsvector cannot exceed
-- 1 MB, so only the first 256 KiB of a turn are indexed. Prisma does not know the column: raw SQL
-- reads it (TURN_TSVECTOR in lib/db/engine/dialect.ts).
-- No semicolons in these comments: the statements are split on them.
CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TEXT SEARCH CONFIGURATION threadline (COPY = simple);

ALTER TEXT SEARCH CONFIGURATION threadline ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, simple;

ALTER TABLE "Turn" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (to_tsvector('threadline'::regconfig, left("content", 262144))) STORED;

CREATE INDEX "Turn_searchVector_idx" ON "Turn" USING GIN ("searchVector");

-- Titles are matched anywhere in them (ILIKE with a leading wildcard), which a trigram index serves.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "Thread_title_trgm_idx" ON "Thread" USING GIN ("title" gin_trgm_ops);

-- CreateTable
CREATE TABLE "Compaction" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "Compaction_revisionThreadId_fkey" FOREIGN KEY ("revisionThreadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CompactionJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,
    "progress" TEXT,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Compaction_revisionThreadId_key" ON "Compaction"("revisionThreadId");

-- CreateIndex
CREATE INDEX "Compaction_originalThreadId_idx" ON "Compaction"("originalThreadId");

-- CreateIndex
CREATE INDEX "CompactionJob_threadId_createdAt_idx" ON "CompactionJob"("threadId", "createdAt");


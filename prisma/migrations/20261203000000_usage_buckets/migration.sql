-- CreateTable
CREATE TABLE "UsageBucket" (
    "threadId" TEXT NOT NULL,
    "quarter" INTEGER NOT NULL,
    "modelProvider" TEXT NOT NULL,
    "modelName" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL,
    "cacheReadTokens" INTEGER NOT NULL,
    "cacheWriteTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "reasoningTokens" INTEGER NOT NULL,
    "costUsd" REAL NOT NULL,
    "responses" INTEGER NOT NULL,
    "unpricedResponses" INTEGER NOT NULL,
    "estimatedResponses" INTEGER NOT NULL,

    PRIMARY KEY ("threadId", "quarter", "modelProvider", "modelName"),
    CONSTRAINT "UsageBucket_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "UsageThread" (
    "threadId" TEXT NOT NULL PRIMARY KEY,
    "turnCount" INTEGER NOT NULL,
    "lastUpdatedAt" DATETIME NOT NULL,
    CONSTRAINT "UsageThread_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "UsageBucket_quarter_threadId_idx" ON "UsageBucket"("quarter", "threadId");


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

    PRIMARY KEY ("threadId", "quarter", "modelProvider", "modelName")
);

-- CreateTable
CREATE TABLE "UsageHour" (
    "hour" INTEGER NOT NULL,
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

    PRIMARY KEY ("hour", "modelProvider", "modelName")
);

-- CreateTable
CREATE TABLE "UsageDay" (
    "day" INTEGER NOT NULL,
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

    PRIMARY KEY ("day", "modelProvider", "modelName")
);

-- CreateTable
CREATE TABLE "UsageThreadSpan" (
    "threadId" TEXT NOT NULL,
    "halfDay" INTEGER NOT NULL,
    "modelName" TEXT NOT NULL,
    "firstQuarter" INTEGER NOT NULL,
    "lastQuarter" INTEGER NOT NULL,

    PRIMARY KEY ("threadId", "halfDay", "modelName")
);

-- CreateTable
CREATE TABLE "UsageThread" (
    "threadId" TEXT NOT NULL PRIMARY KEY,
    "turnCount" INTEGER NOT NULL,
    "lastUpdatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "UsageBucket_quarter_threadId_idx" ON "UsageBucket"("quarter", "threadId");

-- CreateIndex
CREATE INDEX "UsageThreadSpan_firstQuarter_idx" ON "UsageThreadSpan"("firstQuarter");

-- CreateIndex
CREATE INDEX "UsageThreadSpan_lastQuarter_idx" ON "UsageThreadSpan"("lastQuarter");


-- Insights rollups (lib/db/insights/insights-rollups.ts): turns per thread, quarter-hour and model,
-- each tool call once and its sums per quarter-hour, model and tool, and a row per thread as a
-- session. Kept by the usage refresh: existing databases fill them on its next pass (BUCKETS_REVISION).

-- CreateTable
CREATE TABLE "InsightsActivity" (
    "threadId" TEXT NOT NULL,
    "quarter" INTEGER NOT NULL,
    "modelName" TEXT NOT NULL,
    "turns" INTEGER NOT NULL,

    PRIMARY KEY ("threadId", "quarter", "modelName")
);

-- CreateTable
CREATE TABLE "InsightsToolCall" (
    "threadId" TEXT NOT NULL,
    "callId" TEXT NOT NULL,
    "quarter" INTEGER NOT NULL,
    "modelName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "errored" BOOLEAN NOT NULL,

    PRIMARY KEY ("threadId", "callId")
);

-- CreateTable
CREATE TABLE "InsightsTool" (
    "threadId" TEXT NOT NULL,
    "quarter" INTEGER NOT NULL,
    "modelName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,

    PRIMARY KEY ("threadId", "quarter", "modelName", "name")
);

-- CreateTable
CREATE TABLE "InsightsSession" (
    "threadId" TEXT NOT NULL PRIMARY KEY,
    "subagentOf" TEXT,
    "firstAt" REAL NOT NULL,
    "lastAt" REAL NOT NULL,
    "firstQuarter" INTEGER NOT NULL,
    "lastQuarter" INTEGER NOT NULL,
    "turns" INTEGER NOT NULL,
    "compactions" INTEGER NOT NULL,
    "endedWith" TEXT
);

-- CreateIndex
CREATE INDEX "InsightsActivity_quarter_idx" ON "InsightsActivity"("quarter");

-- CreateIndex
CREATE INDEX "InsightsTool_quarter_idx" ON "InsightsTool"("quarter");

-- CreateIndex
CREATE INDEX "InsightsSession_lastQuarter_idx" ON "InsightsSession"("lastQuarter");

-- CreateIndex
CREATE INDEX "InsightsSession_subagentOf_idx" ON "InsightsSession"("subagentOf");


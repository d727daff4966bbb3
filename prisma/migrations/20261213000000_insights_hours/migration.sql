-- Hourly insights sums without the thread (lib/db/insights/insights-hours.ts): turns, responses
-- and cost per UTC hour, source and model, and tool calls per hour, source, model and tool.
-- Existing databases fill them on the next refresh (BUCKETS_REVISION 3 sums every thread again).

-- CreateTable
CREATE TABLE "InsightsHour" (
    "hour" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "modelName" TEXT NOT NULL,
    "turns" INTEGER NOT NULL,
    "responses" INTEGER NOT NULL,
    "costUsd" REAL NOT NULL,
    "inputTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "cacheReadTokens" INTEGER NOT NULL,
    "cacheWriteTokens" INTEGER NOT NULL,
    "unpricedResponses" INTEGER NOT NULL,

    PRIMARY KEY ("hour", "source", "modelName")
);

-- CreateTable
CREATE TABLE "InsightsToolHour" (
    "hour" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "modelName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,

    PRIMARY KEY ("hour", "source", "modelName", "name")
);


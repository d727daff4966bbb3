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
    "costUsd" DOUBLE PRECISION NOT NULL,
    "responses" INTEGER NOT NULL,
    "unpricedResponses" INTEGER NOT NULL,
    "estimatedResponses" INTEGER NOT NULL,

    CONSTRAINT "UsageBucket_pkey" PRIMARY KEY ("threadId","quarter","modelProvider","modelName")
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
    "costUsd" DOUBLE PRECISION NOT NULL,
    "responses" INTEGER NOT NULL,
    "unpricedResponses" INTEGER NOT NULL,
    "estimatedResponses" INTEGER NOT NULL,

    CONSTRAINT "UsageHour_pkey" PRIMARY KEY ("hour","modelProvider","modelName")
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
    "costUsd" DOUBLE PRECISION NOT NULL,
    "responses" INTEGER NOT NULL,
    "unpricedResponses" INTEGER NOT NULL,
    "estimatedResponses" INTEGER NOT NULL,

    CONSTRAINT "UsageDay_pkey" PRIMARY KEY ("day","modelProvider","modelName")
);

-- CreateTable
CREATE TABLE "UsageThreadSpan" (
    "threadId" TEXT NOT NULL,
    "halfDay" INTEGER NOT NULL,
    "modelName" TEXT NOT NULL,
    "firstQuarter" INTEGER NOT NULL,
    "lastQuarter" INTEGER NOT NULL,

    CONSTRAINT "UsageThreadSpan_pkey" PRIMARY KEY ("threadId","halfDay","modelName")
);

-- CreateTable
CREATE TABLE "UsageThread" (
    "threadId" TEXT NOT NULL,
    "turnCount" INTEGER NOT NULL,
    "lastUpdatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UsageThread_pkey" PRIMARY KEY ("threadId")
);

-- CreateIndex
CREATE INDEX "UsageBucket_quarter_threadId_idx" ON "UsageBucket"("quarter", "threadId");

-- CreateIndex
CREATE INDEX "UsageThreadSpan_firstQuarter_idx" ON "UsageThreadSpan"("firstQuarter");

-- CreateIndex
CREATE INDEX "UsageThreadSpan_lastQuarter_idx" ON "UsageThreadSpan"("lastQuarter");


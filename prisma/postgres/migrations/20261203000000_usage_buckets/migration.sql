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
CREATE TABLE "UsageThread" (
    "threadId" TEXT NOT NULL,
    "turnCount" INTEGER NOT NULL,
    "lastUpdatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UsageThread_pkey" PRIMARY KEY ("threadId")
);

-- CreateIndex
CREATE INDEX "UsageBucket_quarter_threadId_idx" ON "UsageBucket"("quarter", "threadId");

-- AddForeignKey
ALTER TABLE "UsageBucket" ADD CONSTRAINT "UsageBucket_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageThread" ADD CONSTRAINT "UsageThread_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;


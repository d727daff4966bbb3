-- CreateTable
CREATE TABLE "CompactionRun" (
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "afterTurnKey" TEXT,
    "modelProvider" TEXT,
    "modelName" TEXT,
    "responses" TEXT NOT NULL,
    "sourceSha256" TEXT NOT NULL,
    "importedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompactionRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CompactionRun_threadId_idx" ON "CompactionRun"("threadId");


-- CreateTable
CREATE TABLE "CompactionRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "afterTurnKey" TEXT,
    "modelProvider" TEXT,
    "modelName" TEXT,
    "responses" TEXT NOT NULL,
    "sourceSha256" TEXT NOT NULL,
    "importedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "CompactionRun_threadId_idx" ON "CompactionRun"("threadId");


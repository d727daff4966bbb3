-- CreateTable
CREATE TABLE "Fork" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sourceThreadId" TEXT NOT NULL,
    "forkThreadId" TEXT NOT NULL,
    "atTurn" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "Fork_forkThreadId_fkey" FOREIGN KEY ("forkThreadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Fork_forkThreadId_key" ON "Fork"("forkThreadId");

-- CreateIndex
CREATE INDEX "Fork_sourceThreadId_idx" ON "Fork"("sourceThreadId");


-- CreateTable
CREATE TABLE "SecretFinding" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "threadId" TEXT NOT NULL,
    "turnSeq" INTEGER NOT NULL,
    "turnId" TEXT NOT NULL,
    "turnIndex" INTEGER NOT NULL,
    "field" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "rules" TEXT NOT NULL,
    "start" INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "foundAt" DATETIME NOT NULL,
    CONSTRAINT "SecretFinding_turnSeq_fkey" FOREIGN KEY ("turnSeq") REFERENCES "Turn" ("seq") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SecretRedaction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "threadId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "redactedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "SecretFinding_threadId_turnIndex_idx" ON "SecretFinding"("threadId", "turnIndex");

-- CreateIndex
CREATE INDEX "SecretFinding_turnSeq_idx" ON "SecretFinding"("turnSeq");

-- CreateIndex
CREATE INDEX "SecretFinding_kind_idx" ON "SecretFinding"("kind");

-- CreateIndex
CREATE INDEX "SecretRedaction_threadId_idx" ON "SecretRedaction"("threadId");


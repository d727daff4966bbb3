-- CreateTable
CREATE TABLE "SecretFinding" (
    "id" SERIAL NOT NULL,
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
    "foundAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SecretFinding_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SecretRedaction" (
    "id" SERIAL NOT NULL,
    "threadId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "redactedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SecretRedaction_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SecretFinding_threadId_turnIndex_idx" ON "SecretFinding"("threadId", "turnIndex");

-- CreateIndex
CREATE INDEX "SecretFinding_turnSeq_idx" ON "SecretFinding"("turnSeq");

-- CreateIndex
CREATE INDEX "SecretFinding_kind_idx" ON "SecretFinding"("kind");

-- CreateIndex
CREATE INDEX "SecretRedaction_threadId_idx" ON "SecretRedaction"("threadId");

-- AddForeignKey
ALTER TABLE "SecretFinding" ADD CONSTRAINT "SecretFinding_turnSeq_fkey" FOREIGN KEY ("turnSeq") REFERENCES "Turn"("seq") ON DELETE CASCADE ON UPDATE CASCADE;


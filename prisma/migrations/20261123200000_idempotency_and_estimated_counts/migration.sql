-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "threadId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "status" INTEGER,
    "response" TEXT,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("threadId", "key")
);

-- CreateIndex
CREATE INDEX "IdempotencyKey_createdAt_idx" ON "IdempotencyKey"("createdAt");

-- AlterTable (in place: the table Prisma would copy holds a row per turn)
ALTER TABLE "TurnTokenCount" ADD COLUMN "estimated" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "TurnTokenCount" ADD COLUMN     "estimated" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "threadId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "status" INTEGER,
    "response" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("threadId","key")
);

-- CreateIndex
CREATE INDEX "IdempotencyKey_createdAt_idx" ON "IdempotencyKey"("createdAt");


-- CreateTable
CREATE TABLE "ReplyLease" (
    "threadId" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "stopRequested" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ReplyLease_pkey" PRIMARY KEY ("threadId")
);


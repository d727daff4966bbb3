-- CreateTable
CREATE TABLE "ReplyLease" (
    "threadId" TEXT NOT NULL PRIMARY KEY,
    "owner" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "stopRequested" BOOLEAN NOT NULL DEFAULT false
);


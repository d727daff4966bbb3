-- Threads belong to people (issue 39): the person who created, imported or pushed a thread owns
-- it, and it is private to them until they share it with the team (lib/domain/access). Existing
-- threads get no owner, which means the first admin's. Columns are added in place rather than
-- by copying the Thread and User tables (SQLite allows a REFERENCES column whose default is NULL).

-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "ownerId" TEXT REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Thread" ADD COLUMN "visibility" TEXT NOT NULL DEFAULT 'private';
ALTER TABLE "Thread" ADD COLUMN "machine" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN "defaultVisibility" TEXT NOT NULL DEFAULT 'private';

-- CreateTable
CREATE TABLE "ProjectVisibility" (
    "userId" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "visibility" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("userId", "project"),
    CONSTRAINT "ProjectVisibility_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Thread_ownerId_lastUpdatedAt_idx" ON "Thread"("ownerId", "lastUpdatedAt" DESC);

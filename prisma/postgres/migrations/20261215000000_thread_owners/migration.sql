-- Threads belong to people (issue 39): the person who created, imported or pushed a thread owns
-- it, and it is private to them until they share it with the team (lib/domain/access). Existing
-- threads get no owner, which means the first admin's.
-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "machine" TEXT,
ADD COLUMN     "ownerId" TEXT,
ADD COLUMN     "visibility" TEXT NOT NULL DEFAULT 'private';

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "defaultVisibility" TEXT NOT NULL DEFAULT 'private';

-- CreateTable
CREATE TABLE "ProjectVisibility" (
    "userId" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "visibility" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProjectVisibility_pkey" PRIMARY KEY ("userId","project")
);

-- CreateIndex
CREATE INDEX "Thread_ownerId_lastUpdatedAt_idx" ON "Thread"("ownerId", "lastUpdatedAt" DESC);

-- AddForeignKey
ALTER TABLE "Thread" ADD CONSTRAINT "Thread_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectVisibility" ADD CONSTRAINT "ProjectVisibility_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;


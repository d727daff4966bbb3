-- AlterTable
ALTER TABLE "CompactionJob" ADD COLUMN "revisionThreadId" TEXT;


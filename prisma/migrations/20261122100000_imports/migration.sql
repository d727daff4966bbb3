-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "project" TEXT;

-- CreateTable
CREATE TABLE "ImportedFile" (
    "sha256" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "importedAt" DATETIME NOT NULL,
    "threadIds" TEXT NOT NULL DEFAULT '[]'
);

-- CreateIndex
CREATE INDEX "Thread_project_idx" ON "Thread"("project");


-- The tools each thread used, for the Tool filter. Filled by the application on its next list
-- read (lib/db/thread-tools.ts), not here: it reads the turns.

-- CreateTable
CREATE TABLE "ThreadTool" (
    "threadId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    PRIMARY KEY ("threadId", "key"),
    CONSTRAINT "ThreadTool_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ThreadToolState" (
    "threadId" TEXT NOT NULL PRIMARY KEY,
    "turnCount" INTEGER NOT NULL,
    "lastUpdatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "ThreadTool_key_threadId_idx" ON "ThreadTool"("key", "threadId");

-- The tools each thread used, for the Tool filter. Filled by the application on its next list
-- read (lib/db/threads/thread-tools.ts), not here: it reads the turns.

-- CreateTable
CREATE TABLE "ThreadTool" (
    "threadId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "ThreadTool_pkey" PRIMARY KEY ("threadId","key")
);

-- CreateTable
CREATE TABLE "ThreadToolState" (
    "threadId" TEXT NOT NULL,
    "turnCount" INTEGER NOT NULL,
    "lastUpdatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ThreadToolState_pkey" PRIMARY KEY ("threadId")
);

-- CreateIndex
CREATE INDEX "ThreadTool_key_threadId_idx" ON "ThreadTool"("key", "threadId");

-- AddForeignKey
ALTER TABLE "ThreadTool" ADD CONSTRAINT "ThreadTool_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

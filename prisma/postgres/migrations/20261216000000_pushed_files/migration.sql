-- What laptops pushed (threadline push, issue 39): per person, machine and file, how much the
-- server holds, so that a push resumes where the last acknowledged one ended.

-- CreateTable
CREATE TABLE "PushedFile" (
    "userId" TEXT NOT NULL,
    "machine" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "offset" DOUBLE PRECISION NOT NULL,
    "stored" DOUBLE PRECISION NOT NULL,
    "sha256" TEXT NOT NULL,
    "failure" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PushedFile_pkey" PRIMARY KEY ("userId","machine","path")
);

-- AddForeignKey
ALTER TABLE "PushedFile" ADD CONSTRAINT "PushedFile_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;


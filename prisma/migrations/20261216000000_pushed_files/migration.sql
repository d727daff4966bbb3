-- What laptops pushed (threadline push, issue 39): per person, machine and file, how much the
-- server holds, so that a push resumes where the last acknowledged one ended.

-- CreateTable
CREATE TABLE "PushedFile" (
    "userId" TEXT NOT NULL,
    "machine" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "offset" REAL NOT NULL,
    "stored" REAL NOT NULL,
    "sha256" TEXT NOT NULL,
    "failure" TEXT,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("userId", "machine", "path"),
    CONSTRAINT "PushedFile_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);


-- CreateTable
CREATE TABLE "SourceFile" (
    "path" TEXT NOT NULL PRIMARY KEY,
    "size" REAL NOT NULL,
    "mtime" TEXT NOT NULL,
    "failure" TEXT
);


-- CreateTable
CREATE TABLE "SourceFile" (
    "path" TEXT NOT NULL,
    "size" DOUBLE PRECISION NOT NULL,
    "mtime" TEXT NOT NULL,
    "failure" TEXT,

    CONSTRAINT "SourceFile_pkey" PRIMARY KEY ("path")
);


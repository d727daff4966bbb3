-- CreateTable
CREATE TABLE "TurnTokenCount" (
    "turnSeq" INTEGER NOT NULL,
    "threadId" TEXT NOT NULL,
    "tokenizer" TEXT NOT NULL,
    "tokens" INTEGER NOT NULL,

    PRIMARY KEY ("turnSeq", "tokenizer"),
    CONSTRAINT "TurnTokenCount_turnSeq_fkey" FOREIGN KEY ("turnSeq") REFERENCES "Turn" ("seq") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FileSnapshot" (
    "turnSeq" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "content" TEXT NOT NULL,

    PRIMARY KEY ("turnSeq", "position"),
    CONSTRAINT "FileSnapshot_turnSeq_fkey" FOREIGN KEY ("turnSeq") REFERENCES "Turn" ("seq") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "TurnTokenCount_threadId_tokenizer_idx" ON "TurnTokenCount"("threadId", "tokenizer");


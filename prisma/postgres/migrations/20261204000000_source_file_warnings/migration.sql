-- AlterTable
ALTER TABLE "SourceFile" ADD COLUMN     "warning" TEXT;


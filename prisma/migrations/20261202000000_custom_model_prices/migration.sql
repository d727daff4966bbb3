-- AlterTable
ALTER TABLE "CustomModel" ADD COLUMN "inputPricePerMTok" REAL;
ALTER TABLE "CustomModel" ADD COLUMN "outputPricePerMTok" REAL;


-- AlterTable
ALTER TABLE "CustomModel" ADD COLUMN     "inputPricePerMTok" DOUBLE PRECISION,
ADD COLUMN     "outputPricePerMTok" DOUBLE PRECISION;


import "server-only";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { AppError } from "@/lib/domain/errors";
import { nativeDocumentSchema } from "@/lib/domain/native-format";
import { previousImport, storeParsedSource, storeTurnStream, unchangedReport, type FileImportReport, type SourceFile } from "@/lib/db/imports";
import { importDocuments } from "@/lib/db/transfer";
import { issuesOf } from "@/lib/validation/common";
import { claudeCodeTurns, looksLikeClaudeCode, planClaudeCodeSession } from "./claude-code";
import { fileDigest, fileLines, firstNonBlankLine } from "./file-lines";
import { detectFormat, parseDetected, type ImportFormat } from "./index";
import { ImportFormatError } from "./types";

/**
 * Imports one file of any supported format: skipped when the same content was imported before,
 * else detected (or `format`), parsed and stored in one transaction. Never throws for bad input:
 * a file that cannot be imported comes back with status "failed" and the reason, so one bad file
 * never stops the others.
 */
export async function importFile(name: string, text: string, format?: ImportFormat): Promise<FileImportReport> {
  const file: SourceFile = { name, sha256: createHash("sha256").update(text).digest("hex"), size: Buffer.byteLength(text) };
  return reportFailures(name, format, async () => {
    return (await previousImport(file.sha256, name)) ?? importText(file, text, format);
  });
}

/**
 * Imports a file on disk, as importFile does. Claude Code sessions are streamed, twice (plan,
 * then turns), so a 200 MB session never sits in memory; other formats are read whole.
 */
export async function importPath(path: string, name = path, format?: ImportFormat): Promise<FileImportReport> {
  return reportFailures(name, format, async () => {
    const file: SourceFile = { name, ...(await fileDigest(path)) };
    const previous = await previousImport(file.sha256, name);
    if (previous) return previous;
    if ((format === undefined || format === "claude-code") && /\.jsonl$/i.test(name) && (format === "claude-code" || isClaudeCodeLine(await firstNonBlankLine(path), name))) {
      const supply = () => fileLines(path);
      const plan = await planClaudeCodeSession(supply, { name });
      const outline = { format: "claude-code" as const, threads: plan.threads.map((p) => p.thread), skipped: plan.skipped, warnings: plan.warnings };
      return storeTurnStream(outline, claudeCodeTurns(supply, plan), file);
    }
    return importText(file, await readFile(path, "utf8"), format);
  });
}

function isClaudeCodeLine(line: string | null, name: string): boolean {
  if (line === null) return false;
  try {
    return looksLikeClaudeCode(JSON.parse(line), name);
  } catch {
    return false;
  }
}

async function importText(file: SourceFile, text: string, format: ImportFormat | undefined): Promise<FileImportReport> {
  const detected = detectFormat(file.name, text, format);
  if (detected.format === "threadline") {
    const parsed = nativeDocumentSchema.safeParse(detected.document);
    if (!parsed.success) {
      const first = issuesOf(parsed.error)[0];
      throw new ImportFormatError(`${file.name}: not a valid threadline/v1 document: ${first ? `${first.field}: ${first.message}` : "invalid"}`);
    }
    const result = await importDocuments([parsed.data], "strict");
    return { ...unchangedReport(file.name, "threadline"), status: "imported", threads: { created: result.threadIds.length, updated: 0, unchanged: 0 }, turnsAdded: result.turnCount, threadIds: result.threadIds, warnings: result.warnings };
  }
  return storeParsedSource(await parseDetected(file.name, detected), file);
}

/** Bad input becomes a "failed" report naming the reason; anything else is a bug and throws. */
async function reportFailures(name: string, format: ImportFormat | undefined, run: () => Promise<FileImportReport>): Promise<FileImportReport> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ImportFormatError || error instanceof AppError) {
      return { ...unchangedReport(name, format ?? null), status: "failed", error: error.message };
    }
    throw error;
  }
}

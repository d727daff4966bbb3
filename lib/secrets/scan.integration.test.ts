/**
 * The scan for secrets on a real database: it backfills from its cursor, picks up later turns, and
 * scanning turns again (a restart before their findings and cursor were written) does not count
 * their secrets twice. An import records its turns' findings itself, the ones the scan would, and
 * moves the cursor past them only when nothing before them was left to scan.
 */
import { describe, expect, it, vi } from "vitest";
import { startBulkImports } from "@/lib/db/imports/import-batch";
import { db } from "@/lib/db/engine/client";
import { databaseKind } from "@/lib/db/engine/create-client";
import { storeParsedSource, storeTurnStream } from "@/lib/db/imports/turn-stream-import";
import { importedThreadId } from "@/lib/importers/stable-id";
import type { ImportedThread, ThreadTurn } from "@/lib/importers/types";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { newThread, newTurn } from "@/lib/testing/integration";
import { scanForSecrets, secretScanStatus, startSecretScan } from "./scan";

const samples = secretSamples(41);

describe("the scan for secrets", () => {
  it("records each secret once, resumes from its cursor, and replaces what it scans again", async () => {
    const thread = await newThread({ toolName: "e2e" });
    for (const sample of samples.slice(0, 5)) await newTurn(thread.id, { role: "user", content: sample.line(sample.value) });
    await scanForSecrets();
    const client = await db();
    const count = () => client.secretFinding.count({ where: { threadId: thread.id } });
    expect(await count()).toBe(5);
    const status = await secretScanStatus();
    expect(status.scannedSeq).toBe(status.lastSeq);

    // Lost progress: the cursor back at the start; the same turns are scanned again.
    await client.appSetting.update({ where: { key: "secrets.scannedSeq" }, data: { value: "0" } });
    await scanForSecrets();
    expect(await count()).toBe(5);

    for (const sample of samples.slice(5, 8)) await newTurn(thread.id, { role: "assistant", content: sample.line(sample.value) });
    await scanForSecrets();
    expect(await count()).toBe(8);
    expect((await secretScanStatus()).scannedSeq).toBe((await secretScanStatus()).lastSeq);
  });

  it("an import records the findings the scan would, and moves the cursor past its turns when the scan had caught up", async () => {
    await scanForSecrets();
    const key = "secrets-on-import";
    await storeParsedSource(sessionWithSecrets(key, samples.slice(10, 14)), sourceFile(key));
    const threadId = importedThreadId("claude-code", key);
    const imported = await findingsOf(threadId);
    const status = await secretScanStatus();
    // Two in the content of user turns, two in tool results: each in the content and in the stored parts.
    expect(imported.map((f) => f.field).sort()).toEqual(["content", "content", "content", "content", "parts", "parts"]);
    // On PostgreSQL the import moves the cursor only while no other transaction of the cluster is in flight (one could
    // still commit a lower seq): test files running beside this one make that a matter of timing, so there it may stay.
    if (databaseKind(await db()) === "sqlite") expect(status.scannedSeq).toBe(status.lastSeq);
    else expect(status.scannedSeq).toBeLessThanOrEqual(status.lastSeq);

    // What the scan finds in the same turns, from the start: the same findings, none twice.
    await (await db()).appSetting.update({ where: { key: "secrets.scannedSeq" }, data: { value: "0" } });
    await scanForSecrets();
    const scanned = await findingsOf(threadId);
    expect(scanned).toHaveLength(6);
    expect(scanned).toEqual(imported);
  });

  it("on PostgreSQL, an import leaves its turns to the scan when another writer's turn was committed among them", async (context) => {
    if (databaseKind(await db()) !== "postgres") context.skip(); // SQLite's write lock keeps every other writer out
    await scanForSecrets();
    const other = await newThread({ toolName: "e2e" });
    const key = "secrets-interleaved";
    const { threads, format } = sessionWithSecrets(key, samples.slice(17, 19));
    const {
      turns: [first, ...rest],
      ...header
    } = threads[0]!;
    // A first turn of a million characters is written at once (turn-batches.ts), before the other
    // writer's turn; the rest after it.
    const big = { ...first!, content: `${first!.content} ${"x".repeat(1_000_000)}` };
    async function* turns(): AsyncGenerator<ThreadTurn> {
      yield { threadIndex: 0, turn: big };
      await newTurn(other.id, { role: "user", content: samples[19]!.line(samples[19]!.value) });
      for (const turn of rest) yield { threadIndex: 0, turn };
    }
    await storeTurnStream({ format, threads: [header], skipped: [], warnings: [] }, turns(), sourceFile(key));
    const client = await db();
    const otherSeq = (await client.turn.findFirstOrThrow({ where: { threadId: other.id } })).seq;
    const importedSeqs = (await client.turn.findMany({ where: { threadId: importedThreadId("claude-code", key) } })).map((t) => t.seq);
    expect(Math.min(...importedSeqs)).toBeLessThan(otherSeq);
    expect(Math.max(...importedSeqs)).toBeGreaterThan(otherSeq);
    expect((await secretScanStatus()).scannedSeq).toBeLessThan(otherSeq);
    await scanForSecrets();
    expect(await client.secretFinding.count({ where: { threadId: other.id } })).toBe(1);
  });

  it("an import leaves the cursor where it was when turns before its own are not scanned yet, and the scan finds both", async () => {
    await scanForSecrets();
    const client = await db();
    const thread = await newThread({ toolName: "e2e" });
    await newTurn(thread.id, { role: "user", content: samples[14]!.line(samples[14]!.value) });
    const { scannedSeq: before } = await secretScanStatus();
    const key = "secrets-behind-scan";
    await storeParsedSource(sessionWithSecrets(key, samples.slice(15, 17)), sourceFile(key));
    expect((await secretScanStatus()).scannedSeq).toBe(before);
    expect(await client.secretFinding.count({ where: { threadId: thread.id } })).toBe(0);
    await scanForSecrets();
    expect(await client.secretFinding.count({ where: { threadId: thread.id } })).toBe(1);
    expect(await client.secretFinding.count({ where: { threadId: importedThreadId("claude-code", key) } })).toBe(3);
    const status = await secretScanStatus();
    expect(status.scannedSeq).toBe(status.lastSeq);
  });

  it("waits out a full sync in progress, says so, and scans what it wrote once it has ended", async () => {
    const run = startBulkImports();
    startSecretScan(); // as the server starts it, with its first sync under way
    const thread = await newThread({ toolName: "e2e" });
    for (const sample of samples.slice(8, 10)) await newTurn(thread.id, { role: "user", content: sample.line(sample.value) });
    const count = async () => (await db()).secretFinding.count({ where: { threadId: thread.id } });
    await new Promise((resolve) => setTimeout(resolve, 400)); // past the scan's wake after writes
    expect((await secretScanStatus()).waitingForSync).toBe(true);
    expect(await count()).toBe(0);
    await run.finish();
    await vi.waitFor(async () => expect(await count()).toBe(2), { timeout: 5_000, interval: 50 });
    expect((await secretScanStatus()).waitingForSync).toBe(false);
  });
});

const sourceFile = (name: string) => ({ name, sha256: name.padEnd(64, "0").slice(0, 64), size: 1 });

/** A session whose user turns and tool results hold the samples' secrets, alternately. */
function sessionWithSecrets(key: string, secrets: typeof samples) {
  const thread: ImportedThread = {
    key,
    toolName: "claude-code",
    title: `Session ${key}`,
    turns: secrets.map((sample, i) => {
      const line = sample.line(sample.value);
      const content = `${i % 2 === 0 ? "I ran" : "Output"}: ${line}`;
      return {
        key: `t${i}`,
        role: i % 2 === 0 ? "user" : "tool",
        content,
        timestamp: new Date(Date.UTC(2026, 0, 5, 9, 0, i)).toISOString(),
        ...(i % 2 === 0 ? {} : { parts: [{ type: "tool_result" as const, toolCallId: `call_${i}`, content: line }] }),
      };
    }),
  };
  return { format: "claude-code" as const, threads: [thread], skipped: [], warnings: [] };
}

/** A thread's findings as the scan or an import wrote them (not their ids or times), in turn and field order. */
async function findingsOf(threadId: string) {
  const rows = await (
    await db()
  ).secretFinding.findMany({ where: { threadId }, orderBy: [{ turnIndex: "asc" }, { field: "asc" }, { start: "asc" }] });
  return rows.map(({ turnSeq, turnId, turnIndex, field, kind, rules, start, end, fingerprint }) => ({
    turnSeq,
    turnId,
    turnIndex,
    field,
    kind,
    rules,
    start,
    end,
    fingerprint,
  }));
}

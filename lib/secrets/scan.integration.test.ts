/**
 * The scan for secrets on a real database: it backfills from its cursor, picks up later turns, and
 * scanning turns again (a restart before their findings and cursor were written) does not count
 * their secrets twice.
 */
import { describe, expect, it, vi } from "vitest";
import { startBulkImports } from "@/lib/db/imports/import-batch";
import { db } from "@/lib/db/engine/client";
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

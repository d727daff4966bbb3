/**
 * Aider chat histories on a real database: the real history imported from a repository folder,
 * re-imported unchanged, grown (a run that goes on, a new run) and appended, exported as
 * threadline/v1 and imported back with the same turns; posted to /api/import by content or with
 * ?format=aider; and followed when THREADLINE_SOURCES names the repository folder.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/import/route";
import { db } from "@/lib/db/engine/client";
import { exportThread, importDocuments } from "@/lib/db/imports/transfer";
import { nativeDocumentSchema } from "@/lib/domain/transfer/native-format";
import { createSourceSync } from "@/lib/sources/sync";
import { expectError, fetchThread, forgetSyncedImports, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { importPath } from "./import-file";
import { transcriptFiles } from "./transcript-files";

const FIXTURE = path.join(process.cwd(), "fixtures/real/aider/afi-core/.aider.chat.history.md");
/** Turns per run of the real history (lib/importers/aider/real-fixtures.test.ts). */
const RUN_TURNS = [4, 9, 4, 9, 1, 53, 11, 7, 36];

const GROWN_RUN = "\n#### one more thing  \n\nSure, done.\n\n> Tokens: 18k sent, 4 received. Cost: $0.04 message, $0.45 session.  \n";
const NEW_RUN =
  "\n# aider chat started at 2025-08-05 09:00:00\n\n> Aider v0.86.1  \n> Main model: gpt-4.1 with diff edit format  \n\n#### hello again  \n\nHello!\n\n> Tokens: 2.1k sent, 3 received. Cost: $0.0042 message, $0.0042 session.  \n";

let dir: string;
let repo: string;
let history: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "threadline-aider-"));
  repo = path.join(dir, "afi-core");
  mkdirSync(path.join(repo, "src"), { recursive: true });
  history = path.join(repo, ".aider.chat.history.md");
  cpSync(FIXTURE, history);
  // What else a repository holds: not transcripts, never read.
  writeFileSync(path.join(repo, "README.md"), "# afi-core\n");
  writeFileSync(path.join(repo, "src", "index.ts"), "export {};\n");
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  restoreServerEnv();
  await forgetSyncedImports();
});

async function turnsOf(threadId: string) {
  const { turns } = await fetchThread(threadId);
  return turns.map((t) => ({
    role: t.role,
    content: t.content,
    parts: t.parts,
    modelName: t.modelName,
    modelProvider: t.modelProvider,
    modelMetadata: t.modelMetadata,
    timestamp: t.timestamp,
    files: t.files,
  }));
}

describe("Aider chat history import", () => {
  it("is found in a repository folder, imports one thread per run, re-imports unchanged, and takes appended turns and runs", async () => {
    const found = [];
    for await (const file of transcriptFiles(dir)) found.push(file.path);
    expect(found).toEqual([history]);

    const first = await importPath(history);
    expect(first).toMatchObject({
      status: "imported",
      format: "aider",
      skipped: [],
      warnings: [],
      threads: { created: 9, updated: 0, unchanged: 0 },
    });
    expect(first.turnsAdded).toBe(RUN_TURNS.reduce((a, b) => a + b, 0));
    expect(first.threadResults.map((r) => r.identity)).toEqual(Array(9).fill("name"));
    const last = await fetchThread(first.threadIds[8]!);
    expect(last.thread).toMatchObject({ toolName: "aider", project: repo });
    expect(last.turns).toHaveLength(36);
    const reply = last.turns.find((t) => t.role === "assistant")!;
    expect(reply.modelName).toBe("gpt-4.1");
    expect(reply.modelMetadata).toMatchObject({
      usageRounded: true,
      usage: { inputTokens: 11000, outputTokens: 248, reportedCostUsd: 0.02, source: "reported" },
    });
    expect(reply.timestamp).toBe("2025-08-04T13:59:12.000Z");

    expect(await importPath(history)).toMatchObject({ status: "unchanged", threadIds: first.threadIds });

    appendFileSync(history, GROWN_RUN);
    const grown = await importPath(history);
    expect(grown).toMatchObject({ status: "imported", threads: { created: 0, updated: 1, unchanged: 8 }, turnsAdded: 2 });
    expect(grown.threadResults[8]).toMatchObject({ id: first.threadIds[8], change: "appended", turnsAdded: 2 });

    appendFileSync(history, NEW_RUN);
    const appended = await importPath(history);
    expect(appended).toMatchObject({ status: "imported", threads: { created: 1, updated: 0, unchanged: 9 }, turnsAdded: 3 });
    expect(appended.threadIds.slice(0, 9)).toEqual(first.threadIds);
    expect((await fetchThread(appended.threadIds[9]!)).thread).toMatchObject({ title: "hello again", project: repo });
  });

  it("exports every run as threadline/v1 and imports it back with the same turns", async () => {
    const report = await importPath(history);
    for (const id of report.threadIds) {
      const document = nativeDocumentSchema.parse(JSON.parse(await exportThread(id)));
      const copy = await importDocuments([document], "copy");
      expect(copy.threadIds).toHaveLength(1);
      expect(await turnsOf(copy.threadIds[0]!)).toEqual(await turnsOf(id));
    }
  });

  it("is taken by POST /api/import by its content; forced on a file that is not one, fails with the reason", async () => {
    const post = (query: string, body: string) =>
      importRoute(new Request(`http://localhost/api/import?${query}`, { method: "POST", body }));
    const ok = await post("name=afi-core/.aider.chat.history.md", readFileSync(FIXTURE, "utf8"));
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ format: "aider", threads: { created: 9 } });

    const wrong = await post("name=README.md&format=aider", "# My project\n\nNotes, not a chat.\n");
    const error = await expectError(wrong, 400, "unsupported_format");
    expect(error.message).toBe('README.md: not an Aider chat history: no "# aider chat started at" line');
    expect(await (await db()).thread.count()).toBe(9);
  });

  it("follows a repository folder named in THREADLINE_SOURCES: the history imports, appended runs follow", async () => {
    setServerEnv({ HOME: dir, THREADLINE_SOURCES: repo });
    const read: string[] = [];
    const sync = createSourceSync({
      importFile: (file) => (read.push(file), importPath(file, file, undefined, { follow: true })),
      log: () => undefined,
    });
    const first = await sync.sync();
    expect(first.folders).toHaveLength(1);
    expect(first.folders[0]).toMatchObject({ path: repo, state: "found", filesSeen: 1, imported: 1, failed: 0 });
    expect(read).toEqual([history]);
    const count = () => db().then((client) => client.thread.count({ where: { source: "import:aider" } }));
    expect(await count()).toBe(9);

    expect((await sync.sync()).folders[0]).toMatchObject({ filesSeen: 1, imported: 0, unchanged: 1 });
    expect(read).toHaveLength(1);

    appendFileSync(history, NEW_RUN);
    expect((await sync.sync()).folders[0]).toMatchObject({ filesSeen: 1, imported: 1, failed: 0 });
    expect(await count()).toBe(10);
  });
});

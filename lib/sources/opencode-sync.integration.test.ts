/**
 * Following ~/.local/share/opencode by default: a temporary HOME whose OpenCode data folder holds
 * the real export sessions written as OpenCode does (one in the JSON tree, one in opencode.db with
 * OpenCode's schema, credentials beside them). Files actually read are counted through the importer.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { forgetSyncedImports, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { insertMessage, realOpenCodeExports, writeOpenCodeDatabase, writeStorageTree } from "@/lib/testing/opencode-storage";
import { makeSourcesHome } from "@/lib/testing/sources-home";
import { countingSync, ON_POSTGRES } from "@/lib/testing/source-sync";

let home: ReturnType<typeof makeSourcesHome>;
beforeEach(() => {
  home = makeSourcesHome({ withClaudeCode: false });
});
afterEach(async () => {
  home.remove();
  restoreServerEnv();
  await forgetSyncedImports();
});

async function openCodeThreads(): Promise<number> {
  return (await db()).thread.count({ where: { source: "import:opencode" } });
}

describe.skipIf(ON_POSTGRES)("following OpenCode's data folder", () => {
  it("imports the JSON tree and opencode.db without failures, then re-reads a session whose part changed and the database whose WAL grew", async () => {
    const [tree, database] = realOpenCodeExports().map((e) => e.doc);
    const data = path.join(home.home, ".local", "share", "opencode");
    const [sessionFile] = writeStorageTree(data, [tree!]);
    const dbFile = path.join(data, "opencode.db");
    const writer = writeOpenCodeDatabase(dbFile, [database!]);
    writeFileSync(path.join(data, "auth.json"), JSON.stringify({ openai: { type: "api", key: "sk-not-read" } }));
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: undefined });
    const { sync, read } = countingSync({ follow: true });

    const status = await sync.sync();
    const folder = status.folders.find((f) => f.path === data);
    expect(folder).toMatchObject({ state: "found", filesSeen: 2, imported: 2, failed: 0, failures: [] });
    expect(read.sort()).toEqual([dbFile, sessionFile].sort());
    expect(await openCodeThreads()).toBe(2);

    // Nothing changed: nothing read.
    read.length = 0;
    await sync.sync();
    expect(read).toEqual([]);

    // A live session rewrites a text part: its session is read again, and only it.
    const message = tree!.messages.findLast(
      (m) => m.info.role === "assistant" && m.info.summary !== true && m.parts.some((p) => p.type === "text"),
    )!;
    const textPart = message.parts.find((p) => p.type === "text")!;
    const partFile = path.join(data, "storage", "part", message.info.id, `${textPart.id}.json`);
    writeFileSync(
      partFile,
      JSON.stringify({ ...JSON.parse(readFileSync(partFile, "utf8")), text: `${textPart.text}\n\n(edited by the sync test)` }, null, 2),
    );
    await sync.sync();
    expect(read).toEqual([sessionFile]);
    const edited = await (await db()).turn.findFirst({ where: { content: { contains: "(edited by the sync test)" } } });
    expect(edited?.role).toBe("assistant");

    // OpenCode writes a new prompt: it lands in opencode.db-wal; the database is read again.
    read.length = 0;
    const sessionId = database!.info.id as string;
    insertMessage(writer, sessionId, {
      info: { id: "msg_ffffffffffffZZZZZZZZZZZZZZ", sessionID: sessionId, role: "user", time: { created: Date.now() }, agent: "build" },
      parts: [{ id: "prt_ffffffffffffZZZZZZZZZZZZZZ", type: "text", text: "and the README too" }],
    });
    await sync.sync();
    expect(read).toEqual([dbFile]);
    expect(await (await db()).turn.count({ where: { content: "and the README too" } })).toBe(1);
    writer.close();

    // A session whose files are removed is forgotten by the sync; its thread stays.
    rmSync(sessionFile!);
    const after = await sync.sync();
    expect(after.folders.find((f) => f.path === data)).toMatchObject({ filesSeen: 1, failed: 0 });
    expect(await openCodeThreads()).toBe(2);
    await sync.close();
  });
});

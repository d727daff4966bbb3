/**
 * OpenCode sessions through the real import service and a real database: every real export
 * imported by importPath, re-imported unchanged, exported as threadline/v1 and imported back into
 * an empty database with identical turns; the same sessions written into OpenCode's JSON tree and
 * into an opencode.db (OpenCode's schema) import to exactly the same threads; bad files fail whole.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/import/route";
import { db } from "@/lib/db/engine/client";
import { exportThread, importDocuments } from "@/lib/db/imports/transfer";
import { nativeDocumentSchema } from "@/lib/domain/transfer/native-format";
import { fetchThread, restoreServerEnv, switchToFreshDatabase } from "@/lib/testing/integration";
import {
  insertMessage,
  realOpenCodeExports,
  writeOpenCodeDatabase,
  writeStorageTree,
  type ExportDocument,
} from "@/lib/testing/opencode-storage";
import { importPath } from "./import-file";
import { openCodeTranscriptOf } from "./opencode-files";
import { transcriptFiles } from "./transcript-files";

const work = mkdtempSync(path.join(os.tmpdir(), "threadline-opencode-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => restoreServerEnv());

const EXPORTS = realOpenCodeExports();

/** What is stored of a thread's turns, without what differs by when it was written. */
async function storedTurns(threadId: string) {
  const turns = await (await db()).turn.findMany({ where: { threadId }, orderBy: { index: "asc" } });
  return turns.map(({ seq: _seq, ...turn }) => turn);
}

describe.each(EXPORTS.map(({ file, doc }) => ({ name: path.basename(file), file, doc })))("real export $name", ({ file, doc }) => {
  it("imports, re-imports unchanged, and comes back identical through a threadline/v1 export into an empty database", async () => {
    await switchToFreshDatabase();
    const first = await importPath(file);
    expect(first).toMatchObject({ status: "imported", format: "opencode", threads: { created: 1, updated: 0, unchanged: 0 }, skipped: [] });
    const threadId = first.threadIds[0]!;
    const assistants = doc.messages.filter((m) => m.info.role === "assistant" && m.info.summary !== true).length;
    const stored = await storedTurns(threadId);
    expect(stored.filter((t) => t.role === "assistant")).toHaveLength(assistants);
    expect(first.turnsAdded).toBe(stored.length);

    expect(await importPath(file)).toMatchObject({ status: "unchanged", threadIds: [threadId] });
    // Another file name with the same content: the same thread, every turn unchanged.
    const copy = path.join(work, `copy-${path.basename(file)}`);
    writeFileSync(copy, JSON.stringify(doc));
    expect(await importPath(copy)).toMatchObject({ status: "unchanged", threadResults: [{ id: threadId, change: "unchanged" }] });

    const before = await fetchThread(threadId);
    // Usage exactly as the messages report it, the cost OpenCode reported kept beside Threadline's price.
    const raw = doc.messages
      .filter((m) => m.info.role === "assistant")
      .reduce((sum, m) => sum + m.info.tokens.input + m.info.tokens.cache.read, 0);
    expect(before.thread.usage!.inputTokens + before.thread.usage!.cacheReadTokens).toBe(raw);
    expect(before.thread.usage!.source).toBe("reported");

    const exported = await exportThread(threadId);
    await switchToFreshDatabase();
    const parsed = nativeDocumentSchema.parse(JSON.parse(exported));
    expect(await importDocuments([parsed])).toMatchObject({ threadIds: [threadId], turnCount: stored.length });
    expect(await storedTurns(threadId)).toEqual(stored);
    expect(await fetchThread(threadId)).toEqual(before);
    expect(await exportThread(threadId)).toBe(exported);
  });
});

describe("OpenCode's own storage", () => {
  const docs = EXPORTS.map((e) => e.doc);

  it("a JSON-tree folder: only the session records are transcripts, and each imports the same turns as its export", async () => {
    await switchToFreshDatabase();
    const exported = await Promise.all(EXPORTS.map(({ file }) => importPath(file)));
    const data = path.join(work, "tree", "opencode");
    writeStorageTree(data, docs);
    writeFileSync(path.join(data, "auth.json"), JSON.stringify({ openai: { type: "oauth", access: "secret" } }));
    const found = [];
    for await (const entry of transcriptFiles(data)) found.push(path.relative(data, entry.path));
    expect(found.sort()).toEqual(docs.map((d) => `storage/session/${d.info.projectID}/${d.info.id}.json`).sort());
    for (const entry of found) {
      const report = await importPath(path.join(data, entry));
      // Imported before from the export: read from the tree, the very same thread and turns.
      expect(report).toMatchObject({ status: "unchanged", format: "opencode", threads: { unchanged: 1 }, skipped: [] });
      expect(report.threadResults).toEqual([expect.objectContaining({ change: "unchanged", turnsAdded: 0, turnsRemoved: 0 })]);
      expect(exported.flatMap((r) => r.threadIds)).toContain(report.threadIds[0]);
    }
  });

  it("opencode.db: every session, read-only, the same turns as the exports; a new message in the WAL is appended", async () => {
    await switchToFreshDatabase();
    const exported = await Promise.all(EXPORTS.map(({ file }) => importPath(file)));
    const file = path.join(work, "db", "opencode.db");
    const writer = writeOpenCodeDatabase(file, docs);
    const report = await importPath(file);
    // Imported before from the exports: read from the database, the very same threads and turns.
    expect(report).toMatchObject({
      status: "unchanged",
      format: "opencode",
      threads: { created: 0, updated: 0, unchanged: docs.length },
      skipped: [],
    });
    expect(report.threadResults.map((r) => r.change)).toEqual(docs.map(() => "unchanged"));
    expect(report.threadIds.sort()).toEqual(exported.flatMap((r) => r.threadIds).sort());
    expect(await importPath(file)).toMatchObject({ status: "unchanged", threads: { unchanged: docs.length } });

    // OpenCode keeps writing while we read: a new prompt lands in the write-ahead log.
    const session = docs[0]!.info.id as string;
    insertMessage(writer, session, {
      info: {
        id: "msg_ffffffffffffZZZZZZZZZZZZZZ",
        sessionID: session,
        role: "user",
        time: { created: Date.now() },
        agent: "build",
        model: { providerID: "openai", modelID: "gpt-5.3-codex" },
      },
      parts: [
        {
          id: "prt_ffffffffffffZZZZZZZZZZZZZZ",
          sessionID: session,
          messageID: "msg_ffffffffffffZZZZZZZZZZZZZZ",
          type: "text",
          text: "one more thing",
        },
      ],
    });
    const grown = await importPath(file);
    expect(grown.status).toBe("imported");
    expect(grown.threadResults.find((r) => r.change !== "unchanged")).toMatchObject({ change: "appended", turnsAdded: 1 });
    writer.close();
  });

  it("the Kilo CLI's kilo.db and storage folder (OpenCode's schema, a fork of it) import as Kilo Code sessions", async () => {
    await switchToFreshDatabase();
    const kiloDb = path.join(work, "kilo-db", "kilo", "kilo.db");
    writeOpenCodeDatabase(kiloDb, docs).close();
    const fromDb = await importPath(kiloDb);
    expect(fromDb).toMatchObject({ status: "imported", format: "kilo-code", threads: { created: docs.length }, skipped: [] });
    const threads = await (await db()).thread.findMany({ where: { id: { in: fromDb.threadIds } } });
    expect(threads.map((t) => t.source)).toEqual(docs.map(() => "import:kilo-code"));
    expect(new Set(threads.map((t) => t.toolName))).toEqual(new Set(["kilo-code"]));

    // ~/.local/share/kilo/storage: the JSON tree, read as the Kilo sessions the database holds.
    const data = path.join(work, "kilo-tree", "kilo");
    writeStorageTree(data, docs);
    const records = [];
    for await (const found of transcriptFiles(path.join(data, "storage"))) records.push(found.path);
    const fromTree = await Promise.all(records.map((record) => importPath(record)));
    expect(fromTree.map((r) => r.format)).toEqual(docs.map(() => "kilo-code"));
    expect(fromTree.flatMap((r) => r.threadIds).sort()).toEqual([...fromDb.threadIds].sort());

    // A kilo.db that is not one is refused, naming what it lacks.
    const notKilo = path.join(work, "kilo-db", "bad", "kilo.db");
    const bad = new Database((mkdirSync(path.dirname(notKilo), { recursive: true }), notKilo));
    bad.exec("CREATE TABLE session (id TEXT)");
    bad.close();
    expect(await importPath(notKilo)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("kilo.db: not a Kilo CLI database: no message, part table"),
    });
  });

  it("opencode.db uploaded to POST /api/import (spooled under a name of its own) imports by its SQLite header; another database is refused, naming what it lacks", async () => {
    await switchToFreshDatabase();
    const file = path.join(work, "upload", "opencode.db");
    writeOpenCodeDatabase(file, docs).close();
    const post = (query: string, body: Buffer) =>
      importRoute(new Request(`http://localhost/api/import?${query}`, { method: "POST", body: new Uint8Array(body) }));
    const ok = await post("name=opencode.db", readFileSync(file));
    expect(ok.status, await ok.clone().text()).toBe(201);
    expect(await ok.json()).toMatchObject({ status: "imported", format: "opencode", threads: { created: docs.length } });

    const other = path.join(work, "upload", "notes.db");
    const notes = new Database(other);
    notes.exec("CREATE TABLE note (id TEXT, body TEXT)");
    notes.close();
    const refused = await post("name=notes.db", readFileSync(other));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /notes\.db: an SQLite database of no agent Threadline reads\. Expected an OpenCode database \(tables session, message, part\)/,
    );
  });

  it("ties a child session stored after its parent to the parent's task call", async () => {
    await switchToFreshDatabase();
    const parentFile = EXPORTS.find(({ doc }) => doc.info.id === "ses_39b5d713cffeRgAoxPIwS3Plus")!;
    const parent = await importPath(parentFile.file);
    const child: ExportDocument = {
      info: {
        ...parentFile.doc.info,
        id: "ses_39b5d3ed8ffea9fQ9vQMuZnTtO",
        slug: "brave-child",
        title: "Commit changes via gitter (@gitter subagent)",
        parentID: "ses_39b5d713cffeRgAoxPIwS3Plus",
      },
      messages: [
        {
          info: {
            id: "msg_c64a2b0b1001aaaaaaaaaaaaaa",
            sessionID: "ses_39b5d3ed8ffea9fQ9vQMuZnTtO",
            role: "user",
            time: { created: 1771214913900 },
            agent: "gitter",
            model: { providerID: "openai", modelID: "gpt-5.3-codex" },
          },
          parts: [{ id: "prt_c64a2b0b1002aaaaaaaaaaaaaa", type: "text", text: "Goal: Turn current working tree into commits" }],
        },
      ],
    };
    const [sessionFile] = writeStorageTree(path.join(work, "child", "opencode"), [child]);
    const report = await importPath(sessionFile!);
    expect(report.status).toBe("imported");
    const stored = await (await db()).thread.findUnique({ where: { id: report.threadIds[0]! } });
    expect(stored!.parentThreadId).toBe(parent.threadIds[0]);
    expect(JSON.parse(stored!.metadata!).relation).toMatchObject({
      kind: "subagent",
      toolCallId: "call_JV2AfZQdyiUa2gcwxGFvJ1FF",
      agentId: "ses_39b5d3ed8ffea9fQ9vQMuZnTtO",
    });
  });

  it("maps a changed message, part or -wal file to the transcript it belongs to", async () => {
    const data = path.join(work, "map", "opencode");
    const [sessionFile] = writeStorageTree(data, [docs[0]!]);
    const message = docs[0]!.messages[1]!;
    const storage = path.join(data, "storage");
    expect(await openCodeTranscriptOf(path.join(storage, "message", docs[0]!.info.id, `${message.info.id}.json`))).toBe(sessionFile);
    expect(await openCodeTranscriptOf(path.join(storage, "part", message.info.id, `${message.parts[0].id}.json`))).toBe(sessionFile);
    expect(await openCodeTranscriptOf(path.join(storage, "part", message.info.id, "prt_gone.json"))).toBe(sessionFile);
    expect(await openCodeTranscriptOf(path.join(storage, "part", message.info.id))).toBe(sessionFile);
    expect(await openCodeTranscriptOf(path.join(data, "opencode.db-wal"))).toBe(path.join(data, "opencode.db"));
    expect(await openCodeTranscriptOf(path.join(data, "other.json"))).toBeNull();
  });

  it("fails a wrong file in a known place whole, naming it and why", async () => {
    await switchToFreshDatabase();
    const brokenSession = path.join(work, "bad", "storage", "session", "p1", "ses_broken.json");
    writeStorageTree(path.join(work, "bad"), []);
    mkdirSync(path.dirname(brokenSession), { recursive: true });
    writeFileSync(brokenSession, "{ not json");
    expect(await importPath(brokenSession)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("ses_broken.json: an OpenCode session record that is not valid JSON"),
    });

    const notOpenCode = path.join(work, "bad", "opencode.db");
    const other = new Database(notOpenCode);
    other.exec("CREATE TABLE notes (id text)");
    other.close();
    expect(await importPath(notOpenCode)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("not an OpenCode database: no session, message, part table"),
    });
    const garbage = path.join(work, "bad2", "opencode.db");
    mkdirSync(path.dirname(garbage), { recursive: true });
    writeFileSync(garbage, "hello, not sqlite at all".repeat(100));
    expect(await importPath(garbage)).toMatchObject({
      status: "failed",
      error: expect.stringContaining("opencode.db: not an SQLite database"),
    });
    expect(await (await db()).thread.count()).toBe(0);
  });
});

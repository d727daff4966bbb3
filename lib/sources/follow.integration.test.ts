/**
 * Following folders between syncs, on a real database and real temporary folders (a temporary
 * HOME): the change events of the tree watch, and the poll that stands in for them. Each test
 * changes files the way an agent does and waits (expect.poll, generous bounds) for what a sync
 * would import, without asking for one. Files actually read are counted through the importer.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, chmodSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/engine/client";
import { importPath } from "@/lib/imports/import-file";
import { forgetSyncedImports, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { REAL_TRANSCRIPTS } from "@/lib/testing/real-transcripts";
import { CLAUDE_CODE_FIXTURES, makeSourcesHome } from "@/lib/testing/sources-home";
import { createSourceSync, type SourceSync, type SourceSyncOptions } from "./sync";

const DEMO_SESSION = path.join(CLAUDE_CODE_FIXTURES, "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
const CODEX_ROLLOUT = path.join(
  REAL_TRANSCRIPTS,
  "codex/sessions/2025/09/19/rollout-2025-09-19T09-02-12-01996135-afde-7911-97f0-d863511eca56.jsonl",
);
const GEMINI_CHATS = path.join(REAL_TRANSCRIPTS, "gemini-cli/tmp/9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea/chats");
const GEMINI_JSONL = path.join(GEMINI_CHATS, "session-2026-04-23T12-52-0ab84937.jsonl");
const GEMINI_LEGACY = path.join(
  REAL_TRANSCRIPTS,
  "gemini-cli/tmp/ab14fe397f91d5f283525b3178d2314aef552f761131c42172a21b7bf735e73d/chats/session-2025-10-11T13-00-2d9ea14f.json",
);
const runningAsRoot = process.getuid?.() === 0;
/** Long enough for a debounced sync on a loaded machine; a test waits for the outcome, not this long. */
const SOON = { timeout: 15_000, interval: 50 };

let home: ReturnType<typeof makeSourcesHome>;
const open: SourceSync[] = [];
beforeEach(() => {
  home = makeSourcesHome({ withClaudeCode: false });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((sync) => sync.close()));
  chmodAll(home.home);
  home.remove();
  restoreServerEnv();
  await forgetSyncedImports();
});

/** Gives back what a test took away, so the folder can be removed. */
function chmodAll(dir: string): void {
  try {
    chmodSync(dir, 0o755);
  } catch {
    // gone already
  }
}

/** A following sync whose importer records the files it reads. */
function following(extra: Partial<SourceSyncOptions> = {}) {
  const read: string[] = [];
  const sync = createSourceSync({ watch: true, log: () => undefined, importFile: (file) => (read.push(file), importPath(file)), ...extra });
  open.push(sync);
  return { sync, read };
}

const turnTexts = async (threadId: string) =>
  (await (await db()).turn.findMany({ where: { threadId }, orderBy: { index: "asc" }, select: { content: true } })).map((t) => t.content);
const threadsOf = async (source: string) =>
  (await db()).thread.findMany({ where: { source }, select: { id: true, parentThreadId: true, turnCount: true } });
const jsonLines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);

describe("following folders between syncs", () => {
  it("a Claude Code rewind: the prompt written over becomes a fork, the main thread follows the new prompt", async () => {
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const session = path.join(home.claudeProjects, "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
    mkdirSync(path.dirname(session));
    const lines = jsonLines(DEMO_SESSION);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const main = entries.filter((e) => e.isSidechain === false);
    // A prompt as this Claude Code version writes one (not a meta entry, not a tool result).
    const promptTemplate = main.find(
      (e) => e.type === "user" && e.isMeta !== true && typeof (e.message as { content: unknown }).content === "string",
    )!;
    const replyTemplate = main.findLast((e) => e.type === "assistant")!;
    const last = main.at(-1)!.uuid as string;
    let clock = Date.parse("2025-09-07T10:00:00.000Z");
    const turn = (parent: string, prompt: string, answer: string) => {
      const [u, a] = [randomUUID(), randomUUID()];
      const user = {
        ...promptTemplate,
        uuid: u,
        parentUuid: parent,
        timestamp: new Date((clock += 1000)).toISOString(),
        message: { role: "user", content: prompt },
      };
      const reply = {
        ...replyTemplate,
        uuid: a,
        parentUuid: u,
        timestamp: new Date((clock += 1000)).toISOString(),
        message: { ...(replyTemplate.message as object), id: `msg_${u}`, content: [{ type: "text", text: answer }] },
      };
      return `${JSON.stringify(user)}\n${JSON.stringify(reply)}\n`;
    };
    // The session as it was: the real one and one more exchange after its last answer.
    writeFileSync(session, `${lines.join("\n")}\n${turn(last, "Abandoned question: rename the app?", "Abandoned answer.")}`);
    const { sync, read } = following();
    expect((await sync.sync()).folders[0]).toMatchObject({ state: "watching", watchMode: "events", watchNote: null, imported: 1 });
    const initial = await threadsOf("import:claude-code"); // the session and its inline sub-agents
    const [before] = initial.filter((t) => t.parentThreadId === null);
    expect(await turnTexts(before!.id)).toContain("Abandoned question: rename the app?");

    // Esc-Esc: the user goes back to before that question and asks another; Claude Code appends
    // the new prompt with the same parent.
    appendFileSync(session, turn(last, "Rewound question: add a README instead", "Rewound answer."));
    await expect.poll(async () => (await threadsOf("import:claude-code")).length, SOON).toBe(initial.length + 1);
    const threads = await threadsOf("import:claude-code");
    const fork = threads.find((t) => t.parentThreadId === before!.id && !initial.some((i) => i.id === t.id))!;
    expect(fork, "the abandoned branch is a fork of the main thread").toBeDefined();
    expect(await turnTexts(fork.id)).toEqual(["Abandoned question: rename the app?", "Abandoned answer."]);
    const mainTexts = await turnTexts(before!.id);
    expect(mainTexts.slice(-2)).toEqual(["Rewound question: add a README instead", "Rewound answer."]);
    expect(mainTexts).not.toContain("Abandoned question: rename the app?");
    expect(read.every((file) => file === session)).toBe(true);
    await expect.poll(() => sync.status().folders[0], SOON).toMatchObject({ state: "watching", filesSeen: 1, imported: 1, failed: 0 });
  });

  it("a Gemini CLI rewind: a $rewindTo line drops the messages after it, and a session rewritten by a rename over it is read again", async () => {
    const chats = path.join(home.home, ".gemini", "tmp", "project", "chats");
    mkdirSync(chats, { recursive: true });
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: path.join(home.home, ".gemini", "tmp") });
    const jsonl = path.join(chats, path.basename(GEMINI_JSONL));
    cpSync(GEMINI_JSONL, jsonl);
    const { sync } = following();
    expect((await sync.sync()).folders[0]).toMatchObject({ state: "watching", imported: 1 });
    const [thread] = await threadsOf("import:gemini-cli");
    const before = await turnTexts(thread!.id);
    const lastUser = jsonLines(GEMINI_JSONL)
      .map((line) => JSON.parse(line) as { id?: string; type?: string; content?: unknown })
      .findLast((record) => record.type === "user")!;
    const droppedText = (lastUser.content as { text: string }[])[0]!.text;
    expect(before.some((text) => text.includes(droppedText))).toBe(true);

    // /rewind in Gemini CLI: a $rewindTo line, then the new exchange.
    const at = "2026-04-23T13:30:00.000Z";
    appendFileSync(
      jsonl,
      [
        { $rewindTo: lastUser.id },
        { id: randomUUID(), timestamp: at, type: "user", content: [{ text: "Asked again after the rewind" }] },
        { id: randomUUID(), timestamp: at, type: "gemini", content: "Answered after the rewind", model: "gemini-3-flash-preview" },
      ]
        .map((record) => `${JSON.stringify(record)}\n`)
        .join(""),
    );
    await expect
      .poll(async () => (await turnTexts(thread!.id)).some((text) => text.includes("Answered after the rewind")), SOON)
      .toBe(true);
    const after = await turnTexts(thread!.id);
    expect(
      after.some((text) => text.includes(droppedText)),
      "the rewound message is gone from the thread",
    ).toBe(false);
    expect(after.some((text) => text.includes("Asked again after the rewind"))).toBe(true);

    // A legacy .json session rewritten whole, by writing a temporary file and renaming it over.
    const legacy = path.join(chats, path.basename(GEMINI_LEGACY));
    const doc = JSON.parse(readFileSync(GEMINI_LEGACY, "utf8")) as { messages: { id: string; type: string; content: unknown }[] };
    writeFileSync(legacy, JSON.stringify({ ...doc, messages: doc.messages.slice(0, 4) }));
    await expect.poll(async () => (await threadsOf("import:gemini-cli")).length, SOON).toBe(2);
    const legacyThread = (await threadsOf("import:gemini-cli")).find((t) => t.id !== thread!.id)!;
    const shortCount = (await turnTexts(legacyThread.id)).length;
    writeFileSync(`${legacy}.tmp`, JSON.stringify(doc));
    renameSync(`${legacy}.tmp`, legacy);
    await expect.poll(async () => (await turnTexts(legacyThread.id)).length, SOON).toBeGreaterThan(shortCount);
    expect(sync.status().folders[0]).toMatchObject({ state: "watching", filesSeen: 2, failed: 0 });
  });

  it("a Codex rollout that grows, in date folders made while it is followed, including a half-written line", async () => {
    const sessions = path.join(home.home, ".codex", "sessions");
    mkdirSync(sessions, { recursive: true });
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: sessions });
    const { sync, read } = following();
    expect((await sync.sync()).folders[0]).toMatchObject({ state: "watching", filesSeen: 0 });

    // A new day: ~/.codex/sessions/2025/09/19 is made, and the rollout appears in it.
    const rollout = path.join(sessions, "2025", "09", "19", path.basename(CODEX_ROLLOUT));
    mkdirSync(path.dirname(rollout), { recursive: true });
    const lines = jsonLines(CODEX_ROLLOUT);
    writeFileSync(rollout, `${lines.slice(0, 12).join("\n")}\n`);
    await expect.poll(async () => (await threadsOf("import:codex")).length, SOON).toBe(1);
    const [thread] = await threadsOf("import:codex");
    const turnsAt = async () => (await db()).turn.count({ where: { threadId: thread!.id } });
    const first = await turnsAt();
    expect(first).toBeGreaterThan(0);

    // The agent writes on: more lines, the last one half written.
    const next = lines.slice(12, 40);
    const half = lines[40]!;
    appendFileSync(rollout, `${next.join("\n")}\n${half.slice(0, Math.floor(half.length / 2))}`);
    await expect.poll(turnsAt, SOON).toBeGreaterThan(first);
    const grown = await turnsAt();
    appendFileSync(rollout, `${half.slice(Math.floor(half.length / 2))}\n${lines.slice(41).join("\n")}\n`);
    await expect.poll(turnsAt, SOON).toBeGreaterThan(grown);
    // Read only when it changed: nothing else was, and the folder counts one file.
    expect(new Set(read)).toEqual(new Set([rollout]));
    await expect.poll(() => sync.status().folders[0], SOON).toMatchObject({ state: "watching", filesSeen: 1, failed: 0 });

    // All of it, as one import of the whole file gives.
    const whole = (await importPath(rollout)).status;
    expect(whole).toBe("unchanged");
  });

  it("a deleted session is forgotten (its threads stay), and a deleted project folder too", async () => {
    cpSync(CLAUDE_CODE_FIXTURES, home.claudeProjects, { recursive: true });
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const { sync } = following();
    expect((await sync.sync()).folders[0]).toMatchObject({ filesSeen: 7, imported: 7 });
    const threads = (await threadsOf("import:claude-code")).length;
    const client = await db();

    rmSync(path.join(home.claudeProjects, "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"));
    await expect.poll(() => sync.status().folders[0]?.filesSeen, SOON).toBe(6);
    rmSync(path.join(home.claudeProjects, "-home-marco-projects-spotter"), { recursive: true });
    await expect.poll(() => sync.status().folders[0]?.filesSeen, SOON).toBe(4);
    await expect.poll(() => client.sourceFile.count(), SOON).toBe(4);
    expect((await threadsOf("import:claude-code")).length).toBe(threads);
  });

  it("an unreadable file is listed with its reason, and imported once it can be read, without a sync being asked for", async () => {
    const folder = path.join(home.claudeProjects, "-path-to-Demo");
    mkdirSync(folder);
    const session = path.join(folder, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
    // chmod 000 stops a reader, except root (tests run as root in CI): there a link that points at
    // itself stands in, which no one can read.
    if (runningAsRoot) symlinkSync(session, session);
    else {
      cpSync(DEMO_SESSION, session);
      chmodSync(session, 0o000);
    }
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const { sync } = following();
    const first = (await sync.sync()).folders[0]!;
    expect(first).toMatchObject({ state: "watching", failed: 1, imported: 0 });
    expect(first.failures).toEqual([
      { file: session, reason: runningAsRoot ? expect.stringMatching(/ELOOP/) : expect.stringMatching(/permission denied/) },
    ]);

    if (runningAsRoot) {
      rmSync(session);
      cpSync(DEMO_SESSION, session);
    } else chmodSync(session, 0o644);
    await expect.poll(() => sync.status().folders[0], SOON).toMatchObject({ failed: 0, failures: [], filesSeen: 1, imported: 1 });
    expect((await threadsOf("import:claude-code")).length).toBeGreaterThan(0);
  });

  it.skipIf(runningAsRoot)("an unreadable subfolder is listed, and followed once it can be read", async () => {
    const folder = path.join(home.claudeProjects, "-path-to-Demo");
    mkdirSync(folder);
    cpSync(DEMO_SESSION, path.join(folder, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"));
    chmodSync(folder, 0o000);
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const { sync } = following();
    expect((await sync.sync()).folders[0]).toMatchObject({
      failed: 1,
      failures: [{ file: folder, reason: expect.stringMatching(/permission denied/) }],
    });
    chmodSync(folder, 0o755);
    await expect.poll(() => sync.status().folders[0], SOON).toMatchObject({ failed: 0, filesSeen: 1, imported: 1 });
  });

  it("off: nothing is followed, and a folder that was followed no longer is", async () => {
    mkdirSync(path.join(home.claudeProjects, "p"));
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const { sync, read } = following();
    expect((await sync.sync()).folders[0]).toMatchObject({ state: "watching" });
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: "off" });
    expect(await sync.sync()).toEqual({ origin: "off", syncing: false, heldElsewhere: false, folders: [] });
    cpSync(DEMO_SESSION, path.join(home.claudeProjects, "p", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"));
    // Well past the debounce (0.3-1 s) and a poll: had anything still followed it, it would have read it.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(read).toEqual([]);
    expect(await (await db()).thread.count()).toBe(0);
  });

  it("polling (THREADLINE_SOURCES_POLL=1): the folder says so, and new and grown sessions are picked up by a stat-only walk", async () => {
    const folder = path.join(home.claudeProjects, "-path-to-Demo");
    mkdirSync(folder);
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects, THREADLINE_SOURCES_POLL: "1" });
    const { sync, read } = following({ pollMs: 200 });
    const status = (await sync.sync()).folders[0]!;
    expect(status).toMatchObject({ state: "watching", watchMode: "polling" });
    expect(status.watchNote).toMatch(/THREADLINE_SOURCES_POLL.*every 0.2 s/);

    const session = path.join(folder, "deeper", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
    mkdirSync(path.dirname(session));
    const lines = jsonLines(DEMO_SESSION);
    writeFileSync(session, `${lines.slice(0, 20).join("\n")}\n`);
    await expect.poll(() => read.length, SOON).toBe(1);
    const client = await db();
    const turns = await client.turn.count();
    appendFileSync(session, `${lines.slice(20).join("\n")}\n`);
    await expect.poll(() => client.turn.count(), SOON).toBeGreaterThan(turns);
    // The grown file may be read once more (found unchanged by its content): the size and time
    // remembered are the walk's, taken before the append may have ended. After that, polls of an
    // unchanged folder read nothing.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const reads = read.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(read.length).toBe(reads);
    expect(read.every((file) => file === session)).toBe(true);
  });

  it("a watch that cannot be set up (the inotify limit) or that fails later leaves the folder polled, saying why", async () => {
    mkdirSync(path.join(home.claudeProjects, "p"));
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    const limit = Object.assign(new Error("System limit for number of file watchers reached"), { code: "ENOSPC" });
    const refused = following({ pollMs: 200, watchTree: () => Promise.reject(limit) });
    const status = (await refused.sync.sync()).folders[0]!;
    expect(status).toMatchObject({ state: "watching", watchMode: "polling" });
    expect(status.watchNote).toMatch(/cannot watch it.*max_user_watches.*ENOSPC/);
    cpSync(DEMO_SESSION, path.join(home.claudeProjects, "p", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"));
    await expect.poll(() => refused.sync.status().folders[0], SOON).toMatchObject({ imported: 1 });
    await refused.sync.close();

    // A watch that starts, then fails: polled from then on.
    let fail: ((reason: string, error: NodeJS.ErrnoException) => void) | null = null;
    const later = following({
      pollMs: 200,
      watchTree: async (_root, options) => ((fail = options.onFail), { folders: () => 1, close: () => undefined }),
    });
    // The lease the first one held is released once its last sync has ended.
    await expect.poll(async () => (await later.sync.sync()).heldElsewhere, SOON).toBe(false);
    expect(later.sync.status().folders[0]).toMatchObject({ watchMode: "events" });
    fail!("too many open files or watchers (EMFILE)", limit);
    expect(later.sync.status().folders[0]).toMatchObject({
      state: "watching",
      watchMode: "polling",
      watchNote: expect.stringMatching(/watching stopped.*EMFILE/),
    });
    cpSync(DEMO_SESSION, path.join(home.claudeProjects, "p", "0b7e6a0c-0000-4000-8000-000000000000.jsonl"));
    await expect.poll(() => later.read, SOON).toContain(path.join(home.claudeProjects, "p", "0b7e6a0c-0000-4000-8000-000000000000.jsonl"));
  });

  it("the slow check compares a folder followed by its events at every tenth run only", async () => {
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: home.claudeProjects });
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      // Events followed, and none reported: a file written meanwhile is found by a comparison only.
      const { sync, read } = following({ resyncMs: 60_000, watchTree: async () => ({ folders: () => 1, close: () => undefined }) });
      expect((await sync.sync()).folders[0]).toMatchObject({ state: "watching", watchMode: "events" });
      const missed = path.join(home.claudeProjects, "p", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
      mkdirSync(path.dirname(missed));
      cpSync(DEMO_SESSION, missed);
      for (let run = 1; run < 10; run++) vi.advanceTimersByTime(60_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(read).not.toContain(missed);
      vi.advanceTimersByTime(60_000);
      await expect.poll(() => read, SOON).toContain(missed);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a folder to follow that appears later is followed from the slow check on", async () => {
    const later = path.join(home.home, "later");
    setServerEnv({ HOME: home.home, THREADLINE_SOURCES: later });
    const { sync } = following({ resyncMs: 200 });
    expect((await sync.sync()).folders[0]).toMatchObject({ state: "missing", watchMode: null });
    mkdirSync(path.join(later, "p"), { recursive: true });
    cpSync(DEMO_SESSION, path.join(later, "p", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"));
    await expect.poll(() => sync.status().folders[0], SOON).toMatchObject({ state: "watching", watchMode: "events", imported: 1 });
  });
});

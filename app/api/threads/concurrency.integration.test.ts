/**
 * Concurrency of the write path, through the real route handlers on a real SQLite file: many
 * writers on one thread in this process, writers in several processes at once, and mixed traffic.
 * Invariants: no turn lost or duplicated, indexes 0..n-1 contiguous, each writer's turns in the
 * order it wrote them, turnCount equal to the stored turns, and only 201/409 answers.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import type { Thread, Turn } from "@/lib/domain/types";
import { json } from "@/lib/testing/api";
import { api, fetchThread, newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { serverSettings } from "@/lib/env";

beforeEach(() => setServerEnv({ MAX_CONVERSATION_TURNS: "100000" }));
afterEach(() => restoreServerEnv());

type Written = { content: string; status: number; index?: number };

/** One writer: `count` turns, one after another, content "<name>:<i>". */
async function writer(threadId: string, name: string, count: number): Promise<Written[]> {
  const out: Written[] = [];
  for (let i = 0; i < count; i++) {
    const content = `${name}:${i}`;
    const response = await api.appendTurn(threadId, { role: i % 2 ? "assistant" : "user", content, modelName: `model-${i % 3}` });
    const body = await json<{ turn?: Turn; error?: unknown }>(response);
    expect(response.status, JSON.stringify(body)).toBe(201);
    out.push({ content, status: response.status, index: body.turn?.index });
  }
  return out;
}

/**
 * Checks the stored thread against what the writers were told: every acknowledged turn stored
 * once, at the index it was given, indexes contiguous, each writer's turns in its own order.
 */
async function expectIntact(
  threadId: string,
  written: Written[],
  writers: string[],
  perWriter: number,
): Promise<{ thread: Thread; turns: Turn[] }> {
  const stored = await fetchThread(threadId);
  const total = writers.length * perWriter;
  expect(written.filter((w) => w.status === 201)).toHaveLength(total);
  expect(stored.turns).toHaveLength(total);
  expect(stored.thread.turnCount).toBe(total);
  expect(stored.turns.map((t) => t.index)).toEqual(Array.from({ length: total }, (_, i) => i));
  const contents = stored.turns.map((t) => t.content);
  expect(new Set(contents).size).toBe(total);
  expect([...contents].sort()).toEqual(written.map((w) => w.content).sort());
  const byContent = new Map(stored.turns.map((t) => [t.content, t]));
  for (const w of written) expect(byContent.get(w.content)!.index, w.content).toBe(w.index);
  for (const name of writers) {
    const own = contents.filter((c) => c.startsWith(`${name}:`));
    expect(own, name).toEqual(Array.from({ length: perWriter }, (_, i) => `${name}:${i}`));
  }
  // Denormalised totals match the rows.
  expect(stored.thread.tokenEstimate).toBe(stored.turns.reduce((sum, t) => sum + t.tokenEstimate, 0));
  const rows = await (await db()).turn.count({ where: { threadId } });
  expect(rows).toBe(total);
  return stored;
}

describe("in-process concurrency", () => {
  it("16 parallel writers x 10 turns on one thread: 160 turns, 0..159, nothing lost or reordered", async () => {
    const thread = await newThread({ toolName: "concurrency" });
    const names = Array.from({ length: 16 }, (_, w) => `writer-${w}`);
    const written = (await Promise.all(names.map((name) => writer(thread.id, name, 10)))).flat();
    const stored = await expectIntact(thread.id, written, names, 10);
    expect(stored.thread.modelsUsed.sort()).toEqual(["model-0", "model-1", "model-2"]);
    // The first user turn names the thread, whichever writer got index 0.
    expect(stored.thread.title).toBe(stored.turns.find((t) => t.role === "user")!.content);
  });

  it("200 appends fired at once all land, with unique contiguous indexes", async () => {
    const thread = await newThread({ toolName: "concurrency" });
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => api.appendTurn(thread.id, { role: "user", content: `burst:${i}` })),
    );
    const bodies = await Promise.all(responses.map((r) => json<{ turn: Turn }>(r)));
    expect(responses.map((r) => r.status)).toEqual(Array(200).fill(201));
    expect(bodies.map((b) => b.turn.index).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const stored = await fetchThread(thread.id);
    expect(stored.turns.map((t) => t.index)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(new Set(stored.turns.map((t) => t.content)).size).toBe(200);
  });

  it("the turn limit holds under a race: exactly MAX_CONVERSATION_TURNS succeed, the rest get 409", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "25" });
    const thread = await newThread({ toolName: "concurrency" });
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => api.appendTurn(thread.id, { role: "user", content: `race:${i}` })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(25);
    expect(statuses.filter((s) => s === 409)).toHaveLength(35);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect((await json<{ error: { code: string } }>(response)).error.code).toBe("turn_limit");
    }
    const stored = await fetchThread(thread.id);
    expect(stored.thread.turnCount).toBe(25);
    expect(stored.turns.map((t) => t.index)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it("threads created while appends are refused (rolled back) are all stored", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "1" });
    const full = await newThread({ toolName: "concurrency" });
    await newTurn(full.id, { role: "user", content: "the only turn" });
    const created: string[] = [];
    const refused: number[] = [];
    const loops: Promise<void>[] = [];
    for (let l = 0; l < 6; l++) {
      loops.push(
        (async () => {
          for (let i = 0; i < 30; i++) refused.push((await api.appendTurn(full.id, { role: "user", content: "over" })).status);
        })(),
        (async () => {
          for (let i = 0; i < 30; i++) {
            const response = await api.createThread({ toolName: "created-during-rollbacks" });
            expect(response.status).toBe(201);
            created.push((await json<{ thread: Thread }>(response)).thread.id);
          }
        })(),
      );
    }
    await Promise.all(loops);
    expect(refused).toEqual(Array(180).fill(409));
    expect(created).toHaveLength(180);
    const stored = await (await db()).thread.count({ where: { id: { in: created } } });
    expect(stored, "threads answered 201 but not stored").toBe(180);
    for (const id of created.slice(0, 5)) await fetchThread(id);
  });

  it("mixed traffic: creates, reads, refused and accepted appends never lose or half-show a write", async () => {
    setServerEnv({ MAX_CONVERSATION_TURNS: "100" });
    // A thread at the limit, filled in one request (imports are not held to the limit).
    const now = new Date().toISOString();
    const full = { id: crypto.randomUUID() };
    const turns = Array.from({ length: 100 }, (_, i) => ({ id: crypto.randomUUID(), role: "user", content: `fill:${i}`, timestamp: now }));
    const filled = await api.importDocuments({
      format: "threadline/v1",
      threads: [{ ...full, toolName: "concurrency", createdAt: now, lastUpdatedAt: now, turns }],
    });
    expect(filled.status).toBe(201);
    const busy = await newThread({ toolName: "concurrency" });

    const created: string[] = [];
    const refused: number[] = [];
    const torn: string[] = [];
    const names = Array.from({ length: 4 }, (_, w) => `mixed-${w}`);
    const writing = Promise.all(names.map((name) => writer(busy.id, name, 25)));
    const loops: Promise<void>[] = [];
    for (let l = 0; l < 4; l++) {
      // Appends refused at the limit: their transactions roll back.
      loops.push(
        (async () => {
          for (let i = 0; i < 25; i++) refused.push((await api.appendTurn(full.id, { role: "user", content: "over" })).status);
        })(),
      );
      // Creates answered 201 must be stored.
      loops.push(
        (async () => {
          for (let i = 0; i < 25; i++) {
            const response = await api.createThread({ toolName: "mixed-create" });
            expect(response.status).toBe(201);
            created.push((await json<{ thread: Thread }>(response)).thread.id);
          }
        })(),
      );
      // Readers must see a whole write or none of it.
      loops.push(
        (async () => {
          for (let i = 0; i < 25; i++) {
            const { thread, turns } = await fetchThread(busy.id);
            const indexes = turns.map((t) => t.index).join(",");
            if (thread.turnCount !== turns.length || indexes !== turns.map((_, n) => n).join(",")) {
              torn.push(`turnCount ${thread.turnCount}, turns ${turns.length}`);
            }
          }
        })(),
      );
    }
    const [perWriter] = await Promise.all([writing, ...loops]);
    const written = perWriter.flat();

    expect(refused).toEqual(Array(100).fill(409));
    const stored = await (await db()).thread.findMany({ where: { id: { in: created } }, select: { id: true } });
    expect(created).toHaveLength(100);
    expect(stored.length, "threads answered 201 but not stored").toBe(created.length);
    expect(torn, "reads that saw a write half done").toEqual([]);
    await expectIntact(busy.id, written, names, 25);
    expect((await fetchThread(full.id)).thread.turnCount).toBe(100);
  });
});

describe("multi-process concurrency", () => {
  const WORKER = path.resolve("lib/testing/append-turns-worker.ts");
  const TSX = path.resolve("node_modules/.bin/tsx");

  type Worker = { ready: Promise<void>; done: Promise<{ results: (Written & { error?: unknown })[]; stderr: string }>; go: () => void };

  function startWorker(threadId: string, name: string, writers: number, turns: number): Worker {
    const child = spawn(TSX, ["--conditions=react-server", WORKER, threadId, name, String(writers), String(turns)], {
      cwd: process.cwd(),
      env: { ...process.env, DATABASE_URL: serverSettings().databaseUrl, MAX_CONVERSATION_TURNS: "100000" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let markReady: () => void = () => {};
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.startsWith("ready\n")) markReady();
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const done = new Promise<{ results: Written[]; stderr: string }>((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", (code) => {
        markReady(); // never leave the barrier hanging
        const line = stdout.split("\n").find((l) => l.startsWith("{"));
        if (code !== 0 || !line) reject(new Error(`worker ${name} exited with ${code}\n${stderr}\n${stdout}`));
        else resolve({ ...(JSON.parse(line) as { results: Written[] }), stderr });
      });
    });
    return { ready, done, go: () => child.stdin.end("go\n") };
  }

  it("4 processes (2 writers each) plus this process append to one thread in one SQLite file", { timeout: 60_000 }, async () => {
    const thread = await newThread({ toolName: "multi-process" });
    const workers = ["p1", "p2", "p3", "p4"].map((name) => startWorker(thread.id, name, 2, 15));
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const local = ["local-w0", "local-w1"].map((name) => writer(thread.id, name, 15));
    const [outcomes, localWritten] = await Promise.all([Promise.all(workers.map((w) => w.done)), Promise.all(local)]);

    const remote = outcomes.flatMap((o) => o.results);
    const failures = remote.filter((r) => r.status !== 201);
    expect(failures, JSON.stringify(failures.slice(0, 3))).toEqual([]);
    for (const outcome of outcomes) expect(outcome.stderr).not.toMatch(/SQLITE_BUSY|database is locked|Error/);
    const names = [...["p1", "p2", "p3", "p4"].flatMap((p) => [`${p}-w0`, `${p}-w1`]), "local-w0", "local-w1"];
    const { turns } = await expectIntact(thread.id, [...remote, ...localWritten.flat()], names, 15);
    // The processes really wrote at the same time: their turns interleave rather than forming
    // one block per process (five blocks would be four switches).
    const processes = turns.map((t) => t.content.split("-")[0]);
    const switches = processes.filter((p, i) => i > 0 && p !== processes[i - 1]).length;
    expect(switches).toBeGreaterThanOrEqual(10);
  });

  it("imports and purges here while 2 processes append: no SQLITE_BUSY, no 500", { timeout: 60_000 }, async () => {
    const thread = await newThread({ toolName: "multi-process" });
    const workers = ["q1", "q2"].map((name) => startWorker(thread.id, name, 2, 30));
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    let finished = false;
    const outcomes = Promise.all(workers.map((w) => w.done)).finally(() => (finished = true));

    // An import reads (conflict checks) before it writes: the case that SQLite refuses at once
    // when another process committed in between, unless the write lock is taken first.
    const answers: string[] = [];
    let cycles = 0;
    while (!finished || cycles < 10) {
      cycles += 1;
      const id = crypto.randomUUID();
      const now = new Date().toISOString();
      const doc = {
        format: "threadline/v1",
        threads: [
          {
            id,
            toolName: "mp-import",
            createdAt: now,
            lastUpdatedAt: now,
            turns: [{ id: crypto.randomUUID(), role: "user", content: "x", timestamp: now }],
          },
        ],
      };
      const imported = await api.importDocuments(doc);
      if (imported.status !== 201) answers.push(`import ${imported.status} ${await imported.text()}`);
      const purged = await api.deleteThread(id);
      if (purged.status !== 204) answers.push(`delete ${purged.status} ${await purged.text()}`);
      expect(cycles).toBeLessThan(10_000);
      await new Promise((resolve) => setImmediate(resolve)); // let the workers' exit events in
    }
    const remote = (await outcomes).flatMap((o) => o.results);
    expect(answers).toEqual([]);
    expect(remote.filter((r) => r.status !== 201)).toEqual([]);
    await expectIntact(thread.id, remote, ["q1-w0", "q1-w1", "q2-w0", "q2-w1"], 30);
    expect(await (await db()).thread.count({ where: { toolName: "mp-import" } })).toBe(0);
  });
});

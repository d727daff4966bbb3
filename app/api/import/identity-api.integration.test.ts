/**
 * Import identity through POST /api/import on a real database: formats without ids (role/content
 * lists, pydantic-ai without a conversation id) are a new conversation when posted without a name,
 * and with a name end up stored exactly as last imported (appended, rewritten from the first
 * difference or truncated, never partly kept). Formats with ids keep their identity from the source,
 * and a turn whose content changed under the same key is rewritten too.
 */
import { describe, expect, it } from "vitest";
import { makeRng } from "@/lib/testing/rng";
import { json, jsonRequest } from "@/lib/testing/api";
import { fetchThread } from "@/lib/testing/integration";
import type { ThreadImportResult } from "@/lib/importers/types";
import { POST as importRoute } from "./route";

type Report = {
  status: string;
  format: string;
  threads: { created: number; updated: number; unchanged: number };
  turnsAdded: number;
  threadIds: string[];
  threadResults: ThreadImportResult[];
  warnings: string[];
};
type Entry = { role: string; content: string };

async function post(body: unknown, name?: string): Promise<{ status: number; report: Report }> {
  const query = name === undefined ? "" : `?${new URLSearchParams({ name })}`;
  const response = await importRoute(jsonRequest("POST", `/api/import${query}`, typeof body === "string" ? body : JSON.stringify(body)));
  const report = await json<Report>(response);
  expect([200, 201], JSON.stringify(report)).toContain(response.status);
  return { status: response.status, report };
}

async function stored(threadId: string): Promise<Entry[]> {
  const { turns } = await fetchThread(threadId);
  return turns.map((t) => ({ role: t.role, content: t.content }));
}

const list = (...contents: string[]): Entry[] => contents.map((content, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content }));

describe("role/content lists without a name", () => {
  it("are a new conversation every time, each stored intact, even when the same content comes again", async () => {
    const first = list("first question", "first answer", "first follow-up", "first closing answer");
    const second = list("another topic", "another answer");
    const a = await post(first);
    const b = await post(second);
    const again = await post(first);
    for (const { status, report } of [a, b, again]) {
      expect(status).toBe(201);
      expect(report.threadResults).toHaveLength(1);
      expect(report.threadResults[0]).toMatchObject({ change: "created", identity: "new" });
    }
    const ids = [a, b, again].map((r) => r.report.threadIds[0]!);
    expect(new Set(ids).size).toBe(3);
    expect(await stored(ids[0]!)).toEqual(first);
    expect(await stored(ids[1]!)).toEqual(second);
    expect(await stored(ids[2]!)).toEqual(first);
  });
});

describe("role/content lists with a name", () => {
  it("re-imported identically: unchanged", async () => {
    const turns = list("q1", "a1");
    const created = await post(turns, "same.json");
    expect(created.report.threadResults[0]).toMatchObject({ change: "created", identity: "name", turnsAdded: 2 });
    const again = await post(turns, "same.json");
    expect(again.status).toBe(200);
    expect(again.report).toMatchObject({ status: "unchanged", threadIds: created.report.threadIds });
    expect(again.report.threadResults).toEqual([
      expect.objectContaining({ id: created.report.threadIds[0], change: "unchanged", identity: "name" }),
    ]);
  });

  it("extended: appended, the stored turns kept", async () => {
    const id = (await post(list("q1", "a1"), "grows.json")).report.threadIds[0]!;
    const grown = list("q1", "a1", "q2", "a2", "q3");
    const { report } = await post(grown, "grows.json");
    expect(report.threadResults).toEqual([
      expect.objectContaining({ id, change: "appended", turnsAdded: 3, turnsRemoved: 0, identity: "name" }),
    ]);
    expect(report.threads).toEqual({ created: 0, updated: 1, unchanged: 0 });
    expect(await stored(id)).toEqual(grown);
  });

  it("edited in the middle: rewritten from that turn, nothing stale kept", async () => {
    const id = (await post(list("q1", "a1", "q2", "a2", "q3"), "edited.json")).report.threadIds[0]!;
    const edited = list("q1", "a1", "q2 changed", "a2", "q3");
    const { report } = await post(edited, "edited.json");
    expect(report.threadResults).toEqual([
      expect.objectContaining({ id, change: "rewritten", fromTurn: 3, turnsAdded: 3, turnsRemoved: 3 }),
    ]);
    expect(await stored(id)).toEqual(edited);

    // A role alone is a difference too.
    const roleChanged = edited.map((t, i) => (i === 1 ? { ...t, role: "system" } : t));
    const second = await post(roleChanged, "edited.json");
    expect(second.report.threadResults[0]).toMatchObject({ change: "rewritten", fromTurn: 2 });
    expect(await stored(id)).toEqual(roleChanged);
  });

  it("shorter: truncated", async () => {
    const id = (await post(list("q1", "a1", "q2", "a2"), "shrinks.json")).report.threadIds[0]!;
    const { report } = await post(list("q1", "a1"), "shrinks.json");
    expect(report.threadResults).toEqual([
      expect.objectContaining({ id, change: "truncated", fromTurn: 3, turnsAdded: 0, turnsRemoved: 2 }),
    ]);
    expect(await stored(id)).toEqual(list("q1", "a1"));
  });

  it("back to content imported before: stored as that content again, not skipped as already imported", async () => {
    const original = list("q1", "a1", "q2");
    const id = (await post(original, "reverted.json")).report.threadIds[0]!;
    await post(list("q1", "a1 edited", "q2"), "reverted.json");
    const { report } = await post(original, "reverted.json");
    expect(report.threadResults[0]).toMatchObject({ change: "rewritten", fromTurn: 2 });
    expect(await stored(id)).toEqual(original);
  });

  it("the same content under two names: two conversations", async () => {
    const turns = list("shared q", "shared a");
    const one = await post(turns, "one.json");
    const two = await post(turns, "two.json");
    expect(two.report.threadResults[0]).toMatchObject({ change: "created", identity: "name" });
    expect(two.report.threadIds[0]).not.toBe(one.report.threadIds[0]);
    await post(list("shared q", "changed only in two"), "two.json");
    expect(await stored(one.report.threadIds[0]!)).toEqual(turns);
  });
});

/** A pydantic-ai history of alternating prompts and text responses, without run or conversation ids unless given. */
function pydanticHistory(contents: string[], extra: Record<string, string> = {}) {
  return contents.map((content, i) =>
    i % 2 === 0
      ? { kind: "request", parts: [{ part_kind: "user-prompt", content, timestamp: "2026-01-01T10:00:00Z" }], ...extra }
      : { kind: "response", parts: [{ part_kind: "text", content }], model_name: "gpt-4o", timestamp: "2026-01-01T10:00:01Z", ...extra },
  );
}

describe("pydantic-ai histories", () => {
  it("without ids: a new conversation per nameless import; with a name, stored as last imported", async () => {
    const a = await post(pydanticHistory(["hello", "hi", "more", "sure"]));
    const b = await post(pydanticHistory(["other", "reply"]));
    expect(a.report.threadResults[0]).toMatchObject({ change: "created", identity: "new" });
    expect(b.report.threadIds[0]).not.toBe(a.report.threadIds[0]);
    expect(await stored(a.report.threadIds[0]!)).toEqual(list("hello", "hi", "more", "sure"));
    expect(await stored(b.report.threadIds[0]!)).toEqual(list("other", "reply"));

    const id = (await post(pydanticHistory(["p1", "r1", "p2", "r2"]), "agent.json")).report.threadIds[0]!;
    const { report } = await post(pydanticHistory(["p1", "r1 redone", "p2"]), "agent.json");
    expect(report.threadResults[0]).toMatchObject({ id, change: "rewritten", fromTurn: 2, identity: "name" });
    expect(await stored(id)).toEqual(list("p1", "r1 redone", "p2"));
  });

  it("with a conversation id: the source's identity, with or without a name", async () => {
    const history = pydanticHistory(["p1", "r1"], { conversation_id: "conv-42" });
    const first = await post(history);
    const second = await post(history, "elsewhere.json");
    expect(first.report.threadResults[0]).toMatchObject({ change: "created", identity: "source" });
    expect(second.report.threadIds).toEqual(first.report.threadIds);
    expect(second.report.threadResults[0]).toMatchObject({ change: "unchanged", identity: "source" });
  });
});

describe("formats with ids", () => {
  const palThread = (contents: string[]) => [
    {
      thread_id: "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
      parent_thread_id: null,
      created_at: "2026-01-01T10:00:00+00:00",
      last_updated_at: "2026-01-01T10:05:00+00:00",
      tool_name: "chat",
      turns: contents.map((content, i) => ({
        role: i % 2 === 0 ? "user" : "assistant",
        content,
        timestamp: `2026-01-01T10:0${i}:00+00:00`,
        tool_name: "chat",
      })),
      initial_context: {},
    },
  ];

  it("keep their identity from the source, named or not; a turn edited in place is rewritten (PAL keys turns by position)", async () => {
    const first = await post(palThread(["q1", "a1", "q2"]));
    expect(first.report.threadResults[0]).toMatchObject({
      id: "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
      change: "created",
      identity: "source",
    });
    const same = await post(palThread(["q1", "a1", "q2"]), "pal.json");
    expect(same.report.threadResults[0]).toMatchObject({ change: "unchanged", identity: "source" });
    const edited = await post(palThread(["q1", "a1 fixed", "q2"]));
    expect(edited.report.threadResults[0]).toMatchObject({ change: "rewritten", fromTurn: 2, identity: "source" });
    expect(await stored(first.report.threadIds[0]!)).toEqual(list("q1", "a1 fixed", "q2"));
  });
});

type Edit = (entries: unknown[], rng: () => number) => unknown[];

describe("property: after any sequence of imports under one name, what is stored is the last import", () => {
  const words = ["alpha", "beta", "gamma", "delta", "  padded  ", "ünïcode ✅", "multi\nline"];
  const roles = ["user", "assistant", "system"];
  const pick = <T>(rng: () => number, from: readonly T[]): T => from[Math.floor(rng() * from.length)]!;
  const entry = (rng: () => number): unknown =>
    rng() < 0.1
      ? pick(rng, [{ role: "user", content: "   " }, { role: "robot", content: "x" }, "not an object"])
      : { role: pick(rng, roles), content: `${pick(rng, words)} ${Math.floor(rng() * 5)}` };
  const at = (entries: unknown[], rng: () => number) => Math.floor(rng() * (entries.length + 1));

  const edits: Edit[] = [
    (e, rng) => [...e, entry(rng)], // append
    (e, rng) => [...e, entry(rng), entry(rng), entry(rng)], // append several
    (e, rng) => e.slice(0, Math.floor(rng() * e.length)), // truncate
    (e, rng) => {
      const i = at(e, rng);
      return [...e.slice(0, i), entry(rng), ...e.slice(i)];
    }, // insert
    (e, rng) => {
      const i = Math.floor(rng() * e.length);
      return [...e.slice(0, i), ...e.slice(i + 1)];
    }, // delete
    (e, rng) =>
      e.map((x, i, all) =>
        i === Math.floor(rng() * all.length) && typeof x === "object" ? { ...x, content: `${pick(rng, words)} edited` } : x,
      ), // edit content
    (e, rng) =>
      e.map((x, i, all) => (i === Math.floor(rng() * all.length) && typeof x === "object" ? { ...x, role: pick(rng, roles) } : x)), // edit role
    (e, rng) => {
      const copy = [...e];
      const i = Math.floor(rng() * copy.length);
      const j = Math.floor(rng() * copy.length);
      [copy[i], copy[j]] = [copy[j], copy[i]];
      return copy;
    }, // reorder
    (e) => e, // the same again
  ];

  /** What the importer keeps of a list: the valid entries, trimmed. */
  const expected = (entries: unknown[]): Entry[] =>
    entries.flatMap((x) => {
      if (typeof x !== "object" || x === null) return [];
      const { role, content } = x as { role?: unknown; content?: unknown };
      return typeof role === "string" && roles.includes(role) && typeof content === "string" && content.trim()
        ? [{ role, content: content.trim() }]
        : [];
    });

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}`, async () => {
      const rng = makeRng(seed);
      const name = `property-${seed}.json`;
      let entries: unknown[] = [{ role: "user", content: "start" }];
      let threadId: string | null = null;
      for (let step = 0; step < 30; step++) {
        entries = pick(rng, edits)(entries, rng);
        const want = expected(entries);
        if (want.length === 0) continue; // nothing to import: the list is refused, the thread left as it was
        const { report } = await post(entries, name);
        threadId ??= report.threadIds[0]!;
        expect(report.threadIds, `step ${step}`).toEqual([threadId]);
        expect(await stored(threadId), `step ${step}: ${JSON.stringify(entries)}`).toEqual(want);
      }
    });
  }
});

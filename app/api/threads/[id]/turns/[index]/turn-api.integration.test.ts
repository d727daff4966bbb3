/** Integration tests of GET /api/threads/:id/turns/:index through the real route handler. */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import type { Turn } from "@/lib/domain/types";
import { json } from "@/lib/testing/api";
import { api, expectError, fetchThread, newThread, newTurn } from "@/lib/testing/integration";

describe("GET /api/threads/:id/turns/:index", () => {
  it("returns one turn, every field as in the whole thread but usage (which needs the turns before it)", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "first", files: ["a.ts"], fileSnapshots: [{ path: "a.ts", content: "x" }] });
    const long = `${"line\n".repeat(50_000)}the end`;
    await newTurn(thread.id, { role: "assistant", content: long, modelName: "gpt-5" });
    const { turns } = await fetchThread(thread.id);
    for (const index of [0, 1]) {
      const response = await api.getTurn(thread.id.toUpperCase(), index);
      expect(response.status).toBe(200);
      expect(await json<{ turn: Turn }>(response)).toEqual({ turn: { ...turns[index], usage: null, cost: undefined } });
    }
  });

  it("answers 404 for a turn that does not exist and an unknown thread", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "only" });
    expect((await expectError(await api.getTurn(thread.id, 1), 404, "not_found")).message).toContain("no turn 1");
    await expectError(await api.getTurn("7a000000-0000-4000-8000-000000000000", 0), 404, "not_found");
    await expectError(await api.getTurn("nope", 0), 404, "not_found");
  });

  it("answers 400 naming index for anything but a turn id or an index in decimal digits", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "only" });
    for (const [index, message] of [
      ["0x0", "must be a whole number written in decimal digits"],
      ["1e0", "must be a whole number written in decimal digits"],
      ["1.5", "must be a whole number written in decimal digits"],
      ["+0", "must be a whole number written in decimal digits"],
      [" 0", "must be a whole number written in decimal digits"],
      ["abc", "must be a whole number written in decimal digits"],
      ["00", "must be written without leading zeros (10, not 010)"],
      ["-1", "must be at least 0"],
      ["99999999999999999999", "must be at most 2147483647"],
    ]) {
      const error = await expectError(await api.getTurn(thread.id, index!), 400, "validation_failed");
      expect(error.message, index).toBe(`index: ${message}`);
    }
  });

  it("treats an expired thread as not found unless includeExpired=1 (the UI shows expired threads)", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "old" });
    await (await db()).thread.update({ where: { id: thread.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expectError(await api.getTurn(thread.id, 0), 404, "expired");
    const response = await api.getTurn(thread.id, 0, "?includeExpired=1");
    expect(response.status).toBe(200);
    expect((await json<{ turn: Turn }>(response)).turn.content).toBe("old");
  });

  it("finds a turn by its id too (a link to a turn names its id), in that thread only", async () => {
    const thread = await newThread();
    await newTurn(thread.id, { role: "user", content: "first" });
    const second = await newTurn(thread.id, { role: "assistant", content: "second" });
    const response = await api.getTurn(thread.id, second.id.toUpperCase());
    expect(response.status).toBe(200);
    expect((await json<{ turn: Turn }>(response)).turn).toMatchObject({ id: second.id, index: 1, content: "second" });
    const other = await newThread();
    expect((await expectError(await api.getTurn(other.id, second.id), 404, "not_found")).message).toContain(`no turn ${second.id}`);
  });
});

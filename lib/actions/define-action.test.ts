import { afterEach, describe, expect, it, vi } from "vitest";
import { redirect } from "next/navigation";
import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { defineAction, defineFormAction } from "./define-action";
import { fieldError, formMessage } from "./result";

const schema = z.strictObject({ name: z.string().min(1, "must not be empty"), size: z.number().int().min(1, "must be at least 1") });

afterEach(() => vi.restoreAllMocks());

describe("defineAction", () => {
  it("runs with the parsed input and answers its data", async () => {
    const action = defineAction("saving", schema, async ({ name, size }) => `${name}:${size}`);
    await expect(action({ name: "a", size: 2 })).resolves.toEqual({ ok: true, data: "a:2" });
  });

  it("answers the schema's issues as field errors, without running", async () => {
    const run = vi.fn();
    const result = await defineAction("saving", schema, run)({ name: "", size: 0 });
    expect(run).not.toHaveBeenCalled();
    expect(result).toEqual({
      ok: false,
      error: {
        code: "validation_failed",
        message: "name: must not be empty (and 1 more)",
        fieldErrors: { name: "must not be empty", size: "must be at least 1" },
      },
    });
  });

  it("answers an AppError's code and message, and field errors from its details", async () => {
    const conflict = defineAction("saving", schema, async () => {
      throw new AppError("conflict", 'name: "a" exists already', [{ field: "name", message: '"a" exists already' }]);
    });
    await expect(conflict({ name: "a", size: 1 })).resolves.toEqual({
      ok: false,
      error: { code: "conflict", message: 'name: "a" exists already', fieldErrors: { name: '"a" exists already' } },
    });
  });

  it("logs an unexpected error once, by name and stack but not its message, and names no internals", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await defineAction("removing", schema, async () => {
      throw new Error("insert failed for value sk-secret-123");
    })({ name: "a", size: 1 });
    expect(result).toEqual({ ok: false, error: { code: "internal", message: "Removing failed; see the server log." } });
    expect(log).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(log.mock.calls)).not.toContain("sk-secret-123");
    expect(String(log.mock.calls[0]![1])).toMatch(/^Error\n/);
  });
});

describe("defineFormAction", () => {
  const form = (entries: Record<string, string>) => {
    const data = new FormData();
    for (const [key, value] of Object.entries(entries)) data.set(key, value);
    data.set("$ACTION_ID_abc", "");
    return data;
  };
  const action = defineFormAction(
    "saving",
    { schema, read: (f) => ({ name: f.get("name"), size: Number(f.get("size")) }), echo: (f) => ({ name: String(f.get("name")) }) },
    async ({ name }) => ({ message: `Added ${name}.` }),
  );

  it("reads its own fields and answers a message", async () => {
    const state = await action(null, form({ name: "m", size: "3" }));
    expect(formMessage(state)).toBe("Added m.");
    expect(fieldError(state, "name")).toBeUndefined();
  });

  it("echoes what a refused form sent, with its field errors", async () => {
    const state = await action(null, form({ name: "", size: "0" }));
    expect(state).toMatchObject({ ok: false, error: { values: { name: "" } } });
    expect(fieldError(state, "size")).toBe("must be at least 1");
    expect(formMessage(state)).toBe("Check the highlighted fields.");
  });

  it("lets a redirect in run go through, as Next.js needs to send it", async () => {
    const leaving = defineFormAction("saving", { schema, read: (f) => ({ name: f.get("name"), size: 1 }), public: true }, async () =>
      redirect("/login?setup=done"),
    );
    const error = await leaving(null, form({ name: "a" })).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error & { digest?: string }).digest).toMatch(/^NEXT_REDIRECT;.*\/login\?setup=done/);
  });
});

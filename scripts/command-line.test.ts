import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commandLine } from "./lib.mjs";

const root = path.resolve(__dirname, "..");

describe("commandLine (node:util parseArgs, strict)", () => {
  it("reads flags, valued options in both spellings, and positionals", () => {
    const options = { seed: { type: "boolean" }, "allowed-hosts": { type: "string" } } as const;
    const parsed = commandLine("t", "usage", options, { positionals: true, args: ["3100", "seeded", "--seed", "--allowed-hosts=a.test"] });
    expect(parsed.values).toEqual({ seed: true, "allowed-hosts": "a.test" });
    expect(parsed.positionals).toEqual(["3100", "seeded"]);
    expect(commandLine("t", "usage", { from: { type: "string" } }, { args: ["--from", "file:a.db"] }).values.from).toBe("file:a.db");
  });

  it.each([
    ["scripts/e2e-server.mjs", ["3100", "x", "--sed"], "e2e-server: Unknown option '--sed'"],
    ["scripts/postgres-schema.mjs", ["--chek"], "db:schema: Unknown option '--chek'"],
    ["scripts/start.mjs", ["--prod"], "npm start: Unknown option '--prod'"],
  ])("%s refuses a mistyped option with its usage, before doing anything", (script, args, message) => {
    const result = spawnSync(process.execPath, [path.join(root, script), ...args], { cwd: root, encoding: "utf8", timeout: 20_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("usage:");
  });
});

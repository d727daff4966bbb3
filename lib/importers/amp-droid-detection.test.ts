// The Amp and Factory Droid detectors over every real fixture: each claims its own agent's files and
// nothing of any other agent's, and no other format claims theirs (detection by content, never by name).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { looksLikeAmpThread } from "./amp";
import { looksLikeFactoryDroidSession } from "./factory-droid";
import { detectFormat, detectLineFormat, numberedLines } from "./index";

const ROOT = path.join(process.cwd(), "fixtures/real");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

const files = filesUnder(ROOT).filter((f) => /\.jsonl?$/.test(f));
const agentOf = (file: string) => path.relative(ROOT, file).split(path.sep)[0]!;
/** Droid's side file: never a transcript, and no format reads it alone. */
const isDroidSettings = (file: string) => file.endsWith(".settings.json");

function firstValue(file: string): unknown {
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".json")) return JSON.parse(text);
  return JSON.parse(text.split("\n").find((line) => line.trim())!);
}

describe("Amp and Factory Droid detection over the real fixtures", () => {
  it("has fixtures of both and of other agents to look at", () => {
    const agents = new Set(files.map(agentOf));
    expect(agents).toContain("amp");
    expect(agents).toContain("factory-droid");
    expect(agents.size).toBeGreaterThan(4);
  });

  it.each(files.map((f) => [path.relative(ROOT, f), f] as const))("%s", (_rel, file) => {
    const agent = agentOf(file);
    const value = firstValue(file);
    const name = path.basename(file);
    expect(looksLikeAmpThread(value, name)).toBe(agent === "amp");
    expect(looksLikeFactoryDroidSession(value, name)).toBe(agent === "factory-droid" && !isDroidSettings(file));
    if (agent === "amp") expect(detectFormat(name, readFileSync(file, "utf8")).format).toBe("amp");
    if (agent === "factory-droid" && !isDroidSettings(file))
      expect(detectLineFormat(name, numberedLines(readFileSync(file, "utf8"))).format).toBe("factory-droid");
    if (isDroidSettings(file)) expect(() => detectFormat(name, readFileSync(file, "utf8"))).toThrow(/no format Threadline reads/);
  });
});

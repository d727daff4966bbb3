import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectFormat, parseDetected } from "../index";
import { someFixtures } from "@/lib/testing/real-fixtures";

const ROOT = path.join(process.cwd(), "fixtures/real/aider");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

const FILES = someFixtures(existsSync(ROOT) ? filesUnder(ROOT).map((file) => ({ file, name: path.relative(ROOT, file) })) : [], ROOT);

/**
 * What the raw file says, read with the simplest code and none of the importer's: runs are header
 * lines; a prompt is a stretch of consecutive `#### ` lines that are not a repeated confirm answer
 * (those hold "(Y)es/(N)o"); usage is the `> Tokens:` lines, figures read with one regex each.
 */
function independentReading(text: string) {
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const figure = (line: string, label: string) => {
    const match = new RegExp(`([0-9.]+)(k?) ${label}`).exec(line);
    return match ? Math.round(Number(match[1]) * (match[2] ? 1000 : 1)) : 0;
  };
  let prompts = 0;
  let inPrompt = false;
  for (const line of lines) {
    const prompt = line.startsWith("#### ") && !line.includes("(Y)es/(N)o");
    if (prompt && !inPrompt) prompts += 1;
    inPrompt = prompt;
  }
  const tokens = lines.filter((l) => l.startsWith("> Tokens: "));
  return {
    runs: lines.filter((l) => l.startsWith("# aider chat started at ")).length,
    prompts,
    echoes: lines.filter((l) => l.startsWith("#### ") && l.includes("(Y)es/(N)o")).length,
    commits: lines.filter((l) => l.startsWith("> Commit ")).length,
    tokensLines: tokens.length,
    sent: tokens.reduce((sum, l) => sum + figure(l, "sent"), 0),
    received: tokens.reduce((sum, l) => sum + figure(l, "received"), 0),
    cost: tokens.reduce((sum, l) => sum + Number(/\$([0-9.]+) message/.exec(l)?.[1] ?? 0), 0),
    models: lines.filter((l) => l.startsWith("> Main model: ")).map((l) => l.slice("> Main model: ".length).split(" ")[0]),
    nonBlank: lines.filter((l) => l.trim() !== ""),
  };
}

describe.skipIf(FILES.length === 0)("real Aider chat histories", () => {
  it.each(FILES)("$name: every run, prompt, reply and Tokens line, nothing dropped", async ({ file, name }) => {
    const text = readFileSync(file, "utf8");
    const expected = independentReading(text);
    const detected = detectFormat(name, text);
    expect(detected.format).toBe("aider");
    const parsed = await parseDetected(name, detected);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.threads).toHaveLength(expected.runs);
    const turns = parsed.threads.flatMap((t) => t.turns);
    expect(turns.filter((t) => t.role === "user")).toHaveLength(expected.prompts);
    const withUsage = turns.filter((t) => t.usage);
    expect(withUsage).toHaveLength(expected.tokensLines);
    expect(withUsage.every((t) => t.role === "assistant" && t.metadata?.usageRounded === true)).toBe(true);
    const sum = (field: "inputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "outputTokens") =>
      withUsage.reduce((s, t) => s + (t.usage![field] ?? 0), 0);
    expect(sum("inputTokens") + sum("cacheReadTokens") + sum("cacheWriteTokens")).toBe(expected.sent);
    expect(sum("outputTokens")).toBe(expected.received);
    expect(withUsage.reduce((s, t) => s + (t.usage!.reportedCostUsd ?? 0), 0)).toBeCloseTo(expected.cost, 10);
    expect(turns.flatMap((t) => (t.metadata?.commits as unknown[] | undefined) ?? [])).toHaveLength(expected.commits);
    expect(turns.flatMap((t) => (t.metadata?.echoedAnswerLines as unknown[] | undefined) ?? [])).toHaveLength(expected.echoes);
    // Each reply is attributed to its run's main model.
    const replyModels = new Set(turns.filter((t) => t.role === "assistant").map((t) => t.modelName));
    expect([...replyModels].sort()).toEqual([...new Set(expected.models)].sort());
    // Nothing dropped: every non-blank line is a run header or found in a turn (prompts without
    // their `#### ` and break, Tokens lines in the reply's metadata, the rest as written).
    const kept = new Set<string>();
    for (const thread of parsed.threads) {
      for (const turn of thread.turns) {
        for (const line of turn.content.split("\n")) kept.add(turn.role === "user" ? `#### ${line}`.trimEnd() : line.trimEnd());
        for (const line of String(turn.metadata?.usageLine ?? "").split("\n")) kept.add(line.trimEnd());
        for (const part of turn.parts ?? [])
          if (part.type === "thinking") for (const line of part.text.split("\n")) kept.add(line.trimEnd());
      }
    }
    const missing = expected.nonBlank.filter((l) => !l.startsWith("# aider chat started at ") && !kept.has(l.trimEnd()));
    expect(missing).toEqual([]);
  });

  it("afi-core: the figures read by hand", async () => {
    const name = "afi-core/.aider.chat.history.md";
    const text = readFileSync(path.join(ROOT, name), "utf8");
    // 9 runs (one an update-and-restart without prompts), 39 Tokens lines, 13 commits, 9 repeated answers.
    expect(independentReading(text)).toMatchObject({ runs: 9, tokensLines: 39, commits: 13, echoes: 9 });
    const parsed = await parseDetected(name, detectFormat(name, text));
    // Turns per run (start-up, prompts, replies, status stretches), checked against the file's lines:
    // run 9 is 9 prompts, 14 replies and 13 start-up/status turns, ending "/bye", "Invalid command", "/exit".
    expect(parsed.threads.map((t) => t.turns.length)).toEqual([4, 9, 4, 9, 1, 53, 11, 7, 36]);
    expect(parsed.threads.map((t) => t.metadata?.model ?? null)).toEqual([
      "gpt-4o",
      "gpt-4o",
      "gpt-4o",
      "gpt-4o",
      null,
      "gpt-4o",
      "gpt-4o",
      "gpt-4o",
      "gpt-4.1",
    ]);
    expect(parsed.threads[0]).toMatchObject({
      key: `${name}#2025-07-15 11:38:37`,
      project: "afi-core",
      createdAt: "2025-07-15T11:38:37.000Z",
      metadata: { endedBy: "KeyboardInterrupt" },
    });
    // The last reply of run 9, and its run's cost as Aider summed it.
    const last = parsed.threads[8]!.turns.findLast((t) => t.role === "assistant")!;
    expect(last.usage).toEqual({ inputTokens: 18000, outputTokens: 66, reportedCostUsd: 0.04 });
    expect(last.metadata).toMatchObject({ sessionCostUsd: 0.41 });
  });
});

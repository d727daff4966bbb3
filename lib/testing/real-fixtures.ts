/**
 * The real transcripts the integration tests import (fixtures/real, provenance in its SOURCES.md),
 * and an independent pricing of Claude Code files: what Threadline's figures are checked against.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { calcPrice } from "@pydantic/genai-prices";
import { expect } from "vitest";

export const REAL_FIXTURE_ROOTS = [path.join(process.cwd(), "fixtures/real")];
/** The formats Threadline imports, each with real fixtures in fixtures/real. */
const IMPORTED = ["claude-code", "codex", "gemini-cli", "chatgpt", "opencode", "pi", "copilot", "aider"];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** `files`, or a thrown error naming `where` when there are none: a fixture test never passes by running no case. */
export function someFixtures<T>(files: T[], where: string): T[] {
  if (files.length === 0) throw new Error(`No real fixtures in ${where}: copy them in (see fixtures/real/SOURCES.md).`);
  return files;
}

/**
 * Each file with the name it is imported under: its path below the format's folder (a sub-agent's
 * names its session). A format whose folder is missing or empty throws, naming it: a test over the
 * fixtures never passes by running no case.
 */
export const fixtureFiles = REAL_FIXTURE_ROOTS.flatMap((root) =>
  IMPORTED.flatMap((format) => {
    const folder = path.join(root, format);
    const files = someFixtures(existsSync(folder) ? filesUnder(folder) : [], path.relative(process.cwd(), folder));
    return files.map((file) => ({ file, name: path.relative(folder, file) }));
  }),
);

/**
 * A Claude Code file's price without Threadline: each response once (message id and request id),
 * its last line's usage (the largest count of each field), priced by calcPrice as the library
 * reads Anthropic's usage: input_tokens with cache reads and writes, writes split 5-minute / 1-hour.
 */
export function independentClaudeCost(files: string[]): number {
  const responses = new Map<string, { model: string; at: Date; usage: Record<string, number> }>();
  for (const file of files) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const entry = JSON.parse(line);
      const usage = entry.type === "assistant" ? entry.message?.usage : null;
      if (!usage || entry.message.model === "<synthetic>") continue;
      const key = `${entry.message.id}|${entry.requestId}`;
      const known = responses.get(key) ?? {
        model: entry.message.model as string,
        at: new Date(entry.timestamp),
        usage: {} as Record<string, number>,
      };
      const counts: Record<string, number> = {
        input_tokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
        cache_write_tokens: usage.cache_creation_input_tokens ?? 0,
        cache_read_tokens: usage.cache_read_input_tokens ?? 0,
        output_tokens: usage.output_tokens ?? 0,
      };
      if (usage.cache_creation) {
        counts.cache_write_5m_tokens = usage.cache_creation.ephemeral_5m_input_tokens ?? 0;
        counts.cache_write_1h_tokens = usage.cache_creation.ephemeral_1h_input_tokens ?? 0;
      }
      for (const [field, value] of Object.entries(counts)) known.usage[field] = Math.max(known.usage[field] ?? 0, value);
      responses.set(key, known);
    }
  }
  let total = 0;
  for (const { model, at, usage } of responses.values()) {
    const price = calcPrice(usage, model, { providerId: "anthropic", timestamp: at });
    expect(price, model).not.toBeNull();
    total += price!.total_price;
  }
  return total;
}

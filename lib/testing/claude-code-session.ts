/**
 * Writes a synthetic Claude Code session (2.x JSONL layout, as docs/formats.md §1, "Claude Code", describes it)
 * of a given size, for the 200 MB streaming test and the import benchmark. Each exchange is what
 * real sessions are made of: a prompt; one API message written as three lines (thinking, text,
 * tool_use) sharing a message id; the tool result, its content repeated in toolUseResult as Claude
 * Code does; and a closing answer. Deterministic for a given seed.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { makeRng } from "./rng";

export type GeneratedSession = {
  sessionId: string;
  bytes: number;
  lines: number;
  exchanges: number;
  /** Turns the importer should make: prompt, assistant (3 blocks merged), tool result, answer. */
  turns: number;
  toolCalls: number;
  usage: { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; outputTokens: number };
};

const TURNS_PER_EXCHANGE = 4;

const WORDS =
  "the session token refresh handler returns cache invalidation retry budget model context window summary file import stream parser thread turn request response error value config test build deploy".split(
    " ",
  );
const CODE = [
  "export async function refreshSession(token: string): Promise<Session> {",
  "  const session = await store.get(token);",
  "  if (!session || session.expiresAt < Date.now()) throw new SessionExpired(token);",
  "  return { ...session, expiresAt: Date.now() + TTL_MS };",
  "}",
  "for (const entry of entries) if (entry.kind === 'turn') turns.push(toTurn(entry));",
  "const budget = Math.floor(contextWindow * 0.6) - reserved; // tokens left for history",
];

export function writeClaudeCodeSession(file: string, targetBytes: number, seed = 7): GeneratedSession {
  const random = makeRng(seed);
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
  const code = (lines: number) =>
    Array.from({ length: lines }, (_, i) => `${String(i + 1).padStart(5)}\t${CODE[Math.floor(random() * CODE.length)]}`).join("\n");

  const sessionId = uuid();
  const envelope = {
    isSidechain: false,
    userType: "external",
    cwd: "/home/user/projects/generated",
    sessionId,
    version: "2.1.39",
    gitBranch: "main",
  };
  const fd = openSync(file, "w");
  const result: GeneratedSession = {
    sessionId,
    bytes: 0,
    lines: 0,
    exchanges: 0,
    turns: 0,
    toolCalls: 0,
    usage: { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 },
  };
  let parent: string | null = null;
  let clock = Date.parse("2026-01-05T09:00:00.000Z");
  let pending = "";
  const write = (entry: Record<string, unknown>) => {
    const id = uuid();
    clock += 1000 + Math.floor(random() * 4000);
    pending += `${JSON.stringify({ parentUuid: parent, ...envelope, ...entry, uuid: id, timestamp: new Date(clock).toISOString() })}\n`;
    parent = id;
    result.lines += 1;
    if (pending.length > 1 << 20) flush();
  };
  const flush = () => {
    result.bytes += writeSync(fd, pending);
    pending = "";
  };

  try {
    while (result.bytes + pending.length < targetBytes) {
      const n = result.exchanges;
      const messageId = `msg_${hex(24)}`;
      const requestId = `req_${hex(24)}`;
      const usage = {
        input_tokens: 3 + (n % 7),
        cache_creation_input_tokens: 200 + (n % 50),
        cache_read_input_tokens: 10_000 + n * 3,
        output_tokens: 150 + (n % 90),
      };
      const assistant = (content: unknown[], id = messageId, request = requestId, u = usage) => ({
        type: "assistant",
        requestId: request,
        message: { model: "claude-sonnet-4-5-20250929", id, type: "message", role: "assistant", content, stop_reason: null, usage: u },
      });
      write({ type: "user", message: { role: "user", content: `Exchange ${n}: ${words(12 + Math.floor(random() * 40))}?` } });
      write(assistant([{ type: "thinking", thinking: words(40 + Math.floor(random() * 80)), signature: hex(64) }]));
      write(assistant([{ type: "text", text: `Let me read the file. ${words(20)}` }]));
      const callId = `toolu_${hex(24)}`;
      const path = `/home/user/projects/generated/src/module-${n % 97}.ts`;
      write(assistant([{ type: "tool_use", id: callId, name: "Read", input: { file_path: path } }]));
      const body = code(40 + Math.floor(random() * 160));
      write({
        type: "user",
        message: { role: "user", content: [{ tool_use_id: callId, type: "tool_result", content: body }] },
        toolUseResult: {
          type: "text",
          file: { filePath: path, content: body, numLines: body.split("\n").length, startLine: 1, totalLines: 400 },
        },
      });
      const closing = {
        input_tokens: 2,
        cache_creation_input_tokens: 1200,
        cache_read_input_tokens: 10_500 + n * 3,
        output_tokens: 300 + (n % 200),
      };
      write(
        assistant(
          [{ type: "text", text: `${words(60 + Math.floor(random() * 120))}.\n\n\`\`\`ts\n${code(6)}\n\`\`\`` }],
          `msg_${hex(24)}`,
          `req_${hex(24)}`,
          closing,
        ),
      );
      for (const u of [usage, closing]) {
        result.usage.inputTokens += u.input_tokens;
        result.usage.cacheWriteTokens += u.cache_creation_input_tokens;
        result.usage.cacheReadTokens += u.cache_read_input_tokens;
        result.usage.outputTokens += u.output_tokens;
      }
      result.exchanges += 1;
      result.toolCalls += 1;
      result.turns += TURNS_PER_EXCHANGE;
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return result;
}

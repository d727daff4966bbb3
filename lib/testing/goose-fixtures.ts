/**
 * The synthetic Goose fixtures of fixtures/real/goose/synthetic (see fixtures/real/SOURCES.md),
 * written as goose writes them: a sessions.db of schema 17 through ./goose-database.ts, and a
 * legacy session file as goose wrote it before sessions.db (session/storage.rs, SessionMetadata then
 * one Message per line). Built once with
 * `npx tsx -e 'import("./lib/testing/goose-fixtures.ts").then((m) => m.writeSyntheticGooseFixtures("fixtures/real/goose/synthetic/sessions"))'`.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createGooseDatabase, hideFromAgent, insertGooseMessage, insertGooseSession, type GooseMessageRow } from "./goose-database";

const CONTINUATION =
  "Your context was compacted. The previous message contains a summary of the conversation so far.\nDo not mention that you read a summary or that conversation summarization occurred.\nJust continue the conversation naturally based on the summarized context.";

const text = (value: string, audience?: string[]) => ({ type: "text", text: value, ...(audience ? { annotations: { audience } } : {}) });
const toolRequest = (id: string, name: string, args: Record<string, unknown>) => ({
  type: "toolRequest",
  id,
  toolCall: { status: "success", value: { name, arguments: args } },
});
const toolResponse = (id: string, items: unknown[], meta?: Record<string, unknown>) => ({
  type: "toolResponse",
  id,
  toolResult: { status: "success", value: { content: items, isError: false, ...(meta ? { _meta: meta } : {}) } },
});
const sonnet = { provider: "anthropic", requestedModel: "claude-sonnet-4-5", resolvedModel: "claude-sonnet-4-5-20250929" };
const haiku = { provider: "anthropic", requestedModel: "claude-haiku-4-5", resolvedModel: "claude-haiku-4-5-20251001" };
const usage = (input: number, output: number, cacheRead: number, cacheWrite: number, cost: number) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: cacheWrite,
  cost,
  costSource: "estimated",
});

/** What the compaction call of the synthetic parent session used: counted in its totals, carried by no message. */
export const SYNTHETIC_COMPACTION_CALL = { input: 16_400, output: 880 };

/**
 * The synthetic sessions.db of fixtures/real/goose/synthetic (schema 17, written as goose 017176d0
 * writes it): a session that delegates to a sub-agent, is compacted and edits a file; the
 * sub-agent's session; a session with an image and a provider error. See fixtures/real/SOURCES.md.
 */
function writeSyntheticGooseDatabase(file: string): void {
  const db = createGooseDatabase(file, 17);
  const t0 = 1_768_381_200; // 2026-01-14T09:00:00Z
  const extensions = {
    "enabled_extensions.v0": {
      extensions: [
        {
          type: "builtin",
          name: "developer",
          description: "",
          display_name: "Developer",
          timeout: 300,
          bundled: true,
          available_tools: [],
        },
        {
          type: "platform",
          name: "summon",
          description: "Load knowledge and delegate tasks to subagents",
          bundled: true,
          available_tools: [],
        },
      ],
    },
  };
  const sonnetConfig = {
    model_name: "claude-sonnet-4-5",
    context_limit: 200000,
    temperature: null,
    max_tokens: null,
    toolshim: false,
    toolshim_model: null,
  };
  const parentUsages = [
    usage(14_200, 210, 9_800, 4_100, 0.02006),
    usage(15_020, 96, 13_900, 900, 0.009),
    usage(15_400, 180, 14_900, 0, 0.00762),
  ];
  const afterUsages = [usage(4_100, 150, 0, 3_900, 0.01794), usage(4_420, 40, 3_900, 300, 0.00291)];
  const all = [...parentUsages, ...afterUsages];
  const sum = (field: "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "cost") =>
    all.reduce((n, u) => n + u[field], 0);
  const input = sum("inputTokens") + SYNTHETIC_COMPACTION_CALL.input;
  const output = sum("outputTokens") + SYNTHETIC_COMPACTION_CALL.output;
  insertGooseSession(db, {
    id: "20260114_1",
    name: "Fix flaky date test",
    session_type: "user",
    working_dir: "/home/dev/projects/calendar",
    created_at: "2026-01-14 09:00:00",
    extension_data: extensions,
    provider_name: "anthropic",
    model_config: sonnetConfig,
    goose_mode: "auto",
    input_tokens: 4_420,
    output_tokens: 40,
    total_tokens: 4_460,
    cache_read_tokens: 3_900,
    cache_write_tokens: 300,
    accumulated_input_tokens: input,
    accumulated_output_tokens: output,
    accumulated_total_tokens: input + output,
    accumulated_cache_read_tokens: sum("cacheReadTokens"),
    accumulated_cache_write_tokens: sum("cacheWriteTokens"),
    accumulated_cost: Math.round((sum("cost") + 0.0623) * 1e6) / 1e6,
  });
  const parent = "20260114_1";
  const add = (m: Omit<GooseMessageRow, "sessionId">, sessionId = parent) => insertGooseMessage(db, { sessionId, ...m });
  add({ messageId: "msg_a1", role: "user", created: t0 + 5, content: [text("The date test fails on CI but passes on my machine. Why?")] });
  add({
    messageId: "msg_a2",
    role: "assistant",
    created: t0 + 13,
    content: [
      { type: "thinking", thinking: "CI runs in UTC; the laptop does not. Run the test first.", signature: "EqQBCkgIBxABGAIiQL" },
      text("Let me run the test."),
      toolRequest("toolu_01", "developer__shell", { command: "cargo test date" }),
    ],
    metadata: { inference: sonnet, usage: { ...parentUsages[0], elapsedMs: 4210, timeToFirstTokenMs: 980 } },
  });
  const failure = "test date::tests::parses_midnight ... FAILED\nassertion `left == right` failed\n  left: 2026-01-13\n right: 2026-01-14";
  add({
    messageId: "msg_a3",
    role: "user",
    created: t0 + 20,
    content: [toolResponse("toolu_01", [text(failure, ["assistant"]), text(`$ cargo test date\n${failure}`, ["user"])])],
  });
  add({
    messageId: "msg_a4",
    role: "assistant",
    created: t0 + 26,
    content: [
      text("The test depends on the local time zone. I'll have a sub-agent find every call to Local::now()."),
      toolRequest("toolu_02", "summon__delegate", {
        instructions: "Find every call to chrono::Local::now() under src/ and report file:line.",
      }),
    ],
    metadata: { inference: sonnet, usage: parentUsages[1] },
  });
  add({
    messageId: "msg_a5",
    role: "user",
    created: t0 + 61,
    content: [toolResponse("toolu_02", [text("src/date.rs:14\nsrc/report.rs:88")], { subagent_session_id: "20260114_2" })],
  });
  add({
    messageId: "msg_a6",
    role: "assistant",
    created: t0 + 70,
    content: [
      text(
        "Two calls read the local zone: src/date.rs:14 and src/report.rs:88. Using Utc::now() there makes the test independent of the machine.",
      ),
    ],
    metadata: { inference: sonnet, usage: parentUsages[2] },
  });
  add({
    messageId: "msg_a7",
    role: "assistant",
    created: t0 + 400,
    content: [{ type: "systemNotification", notificationType: "inlineMessage", msg: "Compacting the conversation…" }],
    metadata: { userVisible: true, agentVisible: false },
  });
  hideFromAgent(db, parent);
  add({
    messageId: "msg_a8",
    role: "user",
    created: t0 + 412,
    content: [
      text(
        "## Summary\nThe user's date test fails on CI (UTC) but not locally. A sub-agent found two calls to Local::now(): src/date.rs:14 and src/report.rs:88. Switching them to Utc::now() was proposed.",
      ),
    ],
    metadata: { userVisible: false, agentVisible: true },
  });
  add({
    messageId: "msg_a9",
    role: "assistant",
    created: t0 + 412,
    content: [text(CONTINUATION)],
    metadata: { userVisible: false, agentVisible: true },
  });
  add({ messageId: "msg_a10", role: "user", created: t0 + 500, content: [text("Please make the change in src/date.rs.")] });
  add({
    messageId: "msg_a11",
    role: "assistant",
    created: t0 + 507,
    content: [
      toolRequest("toolu_03", "developer__text_editor", {
        command: "str_replace",
        path: "src/date.rs",
        old_str: "Local::now()",
        new_str: "Utc::now()",
      }),
    ],
    metadata: { inference: sonnet, usage: afterUsages[0] },
  });
  add({
    messageId: "msg_a12",
    role: "user",
    created: t0 + 508,
    content: [toolResponse("toolu_03", [text("The file src/date.rs has been edited.")])],
  });
  add({
    messageId: "msg_a13",
    role: "assistant",
    created: t0 + 512,
    content: [text("Done: src/date.rs now uses Utc::now().")],
    metadata: { inference: sonnet, usage: afterUsages[1] },
  });

  const child = "20260114_2";
  const childUsages = [usage(3_100, 60, 0, 0, 0.0034), usage(3_350, 24, 0, 0, 0.00347)];
  insertGooseSession(db, {
    id: child,
    name: "Delegated task",
    session_type: "sub_agent",
    working_dir: "/home/dev/projects/calendar",
    created_at: "2026-01-14 09:00:27",
    provider_name: "anthropic",
    model_config: { ...sonnetConfig, model_name: "claude-haiku-4-5" },
    goose_mode: "auto",
    accumulated_input_tokens: 6_450,
    accumulated_output_tokens: 84,
    accumulated_total_tokens: 6_534,
    accumulated_cache_read_tokens: 0,
    accumulated_cache_write_tokens: 0,
    accumulated_cost: 0.00687,
    parent_session_id: parent,
    parent_delegation: { execution_mode: "foreground", parent_delegate_message_id: "msg_a4", result_delivered_to_parent: true },
  });
  add(
    {
      messageId: "msg_b1",
      role: "user",
      created: t0 + 28,
      content: [text("Find every call to chrono::Local::now() under src/ and report file:line.")],
    },
    child,
  );
  add(
    {
      messageId: "msg_b2",
      role: "assistant",
      created: t0 + 33,
      content: [toolRequest("toolu_11", "developer__shell", { command: "rg -n 'Local::now' src" })],
      metadata: { inference: haiku, usage: childUsages[0] },
    },
    child,
  );
  add(
    {
      messageId: "msg_b3",
      role: "user",
      created: t0 + 34,
      content: [
        toolResponse("toolu_11", [
          text('src/date.rs:14:    let today = Local::now();\nsrc/report.rs:88:        Local::now().format("%F")'),
        ]),
      ],
    },
    child,
  );
  add(
    {
      messageId: "msg_b4",
      role: "assistant",
      created: t0 + 58,
      content: [text("src/date.rs:14\nsrc/report.rs:88")],
      metadata: { inference: haiku, usage: childUsages[1] },
    },
    child,
  );

  insertGooseSession(db, {
    id: "20260114_3",
    name: "CLI Session",
    session_type: "user",
    working_dir: "/home/dev",
    created_at: "2026-01-14 11:30:00",
    provider_name: "anthropic",
    model_config: sonnetConfig,
  });
  add(
    {
      messageId: "msg_c1",
      role: "user",
      created: t0 + 9_005,
      content: [
        text("What is in this screenshot?"),
        {
          type: "image",
          data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
          mimeType: "image/png",
        },
      ],
    },
    "20260114_3",
  );
  add(
    {
      messageId: "msg_c2",
      role: "assistant",
      created: t0 + 9_007,
      content: [
        {
          type: "error",
          kind: "authentication",
          message:
            "Ran into this error: Authentication failed: invalid x-api-key.\n\nPlease retry if you think this is a transient or recoverable error.",
        },
      ],
      metadata: { userVisible: true, agentVisible: false },
    },
    "20260114_3",
  );
  // Fixed times, so that the file does not depend on when it was written.
  db.prepare("UPDATE sessions SET updated_at = ? WHERE id = ?").run("2026-01-14 09:08:32", parent);
  db.prepare("UPDATE sessions SET updated_at = ? WHERE id = ?").run("2026-01-14 09:00:58", child);
  db.prepare("UPDATE sessions SET updated_at = ? WHERE id = ?").run("2026-01-14 11:30:07", "20260114_3");
  db.prepare("UPDATE messages SET timestamp = datetime(created_timestamp, 'unixepoch')").run();
  db.prepare("UPDATE schema_version SET applied_at = '2026-01-14 08:59:58'").run();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.pragma("journal_mode = DELETE");
  db.exec("VACUUM");
  db.close();
}

/** The synthetic legacy session file (fixtures/real/goose/legacy/sessions/20250614_181442.jsonl), as goose wrote it before sessions.db. */
function syntheticLegacyJsonl(): string {
  const lines = [
    {
      working_dir: "/home/dev/projects/notes",
      description: "Summarize meeting notes",
      schedule_id: null,
      message_count: 4,
      total_tokens: 5210,
      input_tokens: 4980,
      output_tokens: 230,
      accumulated_total_tokens: 9630,
      accumulated_input_tokens: 9110,
      accumulated_output_tokens: 520,
    },
    { role: "user", created: 1749924882, content: [text("Summarize notes/2025-06-13.md in three bullets.")] },
    {
      role: "assistant",
      created: 1749924886,
      content: [
        text("Reading the file."),
        toolRequest("call_a1", "developer__text_editor", { command: "view", path: "/home/dev/projects/notes/notes/2025-06-13.md" }),
      ],
    },
    {
      role: "user",
      created: 1749924887,
      content: [
        {
          type: "toolResponse",
          id: "call_a1",
          toolResult: {
            status: "success",
            value: [
              text("# Standup 2025-06-13\n- Alice: calendar export done\n- Bob: blocked on the date test\n- Carol: release on Monday", [
                "assistant",
              ]),
            ],
          },
        },
      ],
    },
    {
      role: "assistant",
      created: 1749924893,
      content: [text("- Alice finished the calendar export.\n- Bob is blocked on the date test.\n- Carol plans the release for Monday.")],
    },
  ];
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/** Writes both synthetic fixtures into `dir` (the sessions folder). */
export function writeSyntheticGooseFixtures(dir: string): void {
  rmSync(path.join(dir, "sessions.db"), { force: true });
  writeSyntheticGooseDatabase(path.join(dir, "sessions.db"));
  writeFileSync(path.join(dir, "20250614_181442.jsonl"), syntheticLegacyJsonl());
}

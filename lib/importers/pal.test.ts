import { describe, expect, it } from "vitest";
import { looksLikePalThreads, parsePalThreads } from "./pal";
import { ImportFormatError } from "./types";

/*
 * PAL keeps threads in memory only (docs/formats.md §9, "PAL": no real on-disk samples), so these
 * samples are written by hand, field for field as `ThreadContext.model_dump_json()` produces them
 * (BeehiveInnovations/pal-mcp-server utils/conversation_memory.py): every ConversationTurn field present (None ->
 * null), timestamps from `datetime.now(timezone.utc).isoformat()` (microseconds, +00:00),
 * initial_context without temperature/thinking_mode/model/continuation_id.
 */
const CHAT_THREAD_ID = "7d0c5e2a-8f3b-4c1d-9e6a-2b4f8a1c3d5e";
const REVIEW_THREAD_ID = "b3e1f4a2-6c7d-4e8f-a9b0-1c2d3e4f5a6b";

function chatThread() {
  return {
    thread_id: CHAT_THREAD_ID,
    parent_thread_id: null,
    created_at: "2026-01-01T10:00:00.123456+00:00",
    last_updated_at: "2026-01-01T10:03:10.654321+00:00",
    tool_name: "chat",
    turns: [
      {
        role: "user",
        content: "Review   auth.py\nfor token\thandling bugs",
        timestamp: "2026-01-01T10:00:00.200000+00:00",
        files: ["/w/auth.py"],
        images: null,
        tool_name: "chat",
        model_provider: null,
        model_name: null,
        model_metadata: null,
      },
      {
        role: "assistant",
        content: "Found two issues: the refresh token is never rotated, and expiry uses local time.",
        timestamp: "2026-01-01T10:01:00.000000+00:00",
        files: ["/w/auth.py"],
        images: null,
        tool_name: "chat",
        model_provider: "google",
        model_name: "gemini-2.5-pro",
        model_metadata: { usage: { input_tokens: 2100, output_tokens: 300, total_tokens: 2400 }, metadata: { finish_reason: "STOP" } },
      },
      {
        role: "user",
        content: "Look at this screenshot of the error too",
        timestamp: "2026-01-01T10:02:00.000000+00:00",
        files: null,
        images: ["/w/screens/401.png"],
        tool_name: "thinkdeep",
        model_provider: null,
        model_name: null,
        model_metadata: null,
      },
      {
        role: "assistant",
        content: "The 401 comes from the clock skew check.",
        timestamp: "2026-01-01T10:03:10.654321+00:00",
        files: null,
        images: ["/w/screens/401.png"],
        tool_name: "thinkdeep",
        model_provider: "openai",
        model_name: "o3-mini",
        model_metadata: { usage: { input_tokens: 3200, output_tokens: 450, total_tokens: 3650 }, metadata: {} },
      },
    ],
    initial_context: { prompt: "Review auth.py for token handling bugs", files: ["/w/auth.py"] },
  };
}

/** A continuation of the chat thread (parent_thread_id), by a workflow tool whose metadata holds workflow state, not usage. */
function reviewThread() {
  return {
    thread_id: REVIEW_THREAD_ID,
    parent_thread_id: CHAT_THREAD_ID,
    created_at: "2026-01-01T13:30:00+00:00",
    last_updated_at: "2026-01-01T13:31:00+00:00",
    tool_name: "codereview",
    turns: [
      {
        role: "user",
        content: "Step 1: review the fix",
        timestamp: "2026-01-01T13:30:00+00:00",
        files: ["/w/auth.py"],
        images: null,
        tool_name: "codereview",
        model_provider: null,
        model_name: null,
        model_metadata: null,
      },
      {
        role: "assistant",
        content: "Fix looks right; add a test for rotation.",
        timestamp: "2026-01-01T13:31:00+00:00",
        files: ["/w/auth.py"],
        images: null,
        tool_name: "codereview",
        model_provider: "google",
        model_name: "gemini-2.5-flash",
        model_metadata: { step_number: 1, total_steps: 2, next_step_required: true, findings: "rotation missing" },
      },
    ],
    initial_context: { step: "review the fix", step_number: 1, total_steps: 2, relevant_files: ["/w/auth.py"] },
  };
}

const source = { name: "pal-dump.json" };

describe("parsePalThreads: one ThreadContext", () => {
  const result = parsePalThreads(chatThread(), source);
  const thread = result.threads[0]!;

  it("keeps PAL's thread_id as key and sourceId, with the thread's own fields", () => {
    expect(result.format).toBe("pal");
    expect(result.threads).toHaveLength(1);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(thread.key).toBe(CHAT_THREAD_ID);
    expect(thread.sourceId).toBe(CHAT_THREAD_ID);
    expect(thread.parentKey).toBeNull();
    expect(thread.relation).toBeNull();
    expect(thread.toolName).toBe("chat");
    expect(thread.createdAt).toBe("2026-01-01T10:00:00.123Z");
    expect(thread.lastUpdatedAt).toBe("2026-01-01T10:03:10.654Z");
    expect(thread.initialContext).toEqual({ prompt: "Review auth.py for token handling bugs", files: ["/w/auth.py"] });
  });

  it("titles the thread with the first user turn, whitespace collapsed", () => {
    expect(thread.title).toBe("Review auth.py for token handling bugs");
  });

  it("turns: index keys, roles, per-turn tool, files and images", () => {
    expect(thread.turns.map((t) => [t.key, t.role, t.toolName])).toEqual([
      ["0", "user", "chat"],
      ["1", "assistant", "chat"],
      ["2", "user", "thinkdeep"],
      ["3", "assistant", "thinkdeep"],
    ]);
    expect(thread.turns[0]!.content).toBe("Review   auth.py\nfor token\thandling bugs"); // content kept verbatim
    expect(thread.turns[0]!.timestamp).toBe("2026-01-01T10:00:00.200Z");
    expect(thread.turns[0]!.files).toEqual(["/w/auth.py"]);
    expect(thread.turns[0]!.images).toBeUndefined();
    expect(thread.turns[2]!.images).toEqual(["/w/screens/401.png"]);
    expect(thread.turns[2]!.files).toBeUndefined();
  });

  it("assistant turns: model, provider, usage from model_metadata.usage, metadata kept whole", () => {
    const [, first, , second] = thread.turns;
    expect(first).toMatchObject({ modelProvider: "google", modelName: "gemini-2.5-pro", usage: { inputTokens: 2100, outputTokens: 300 } });
    expect(first!.metadata).toEqual({
      usage: { input_tokens: 2100, output_tokens: 300, total_tokens: 2400 },
      metadata: { finish_reason: "STOP" },
    });
    expect(second).toMatchObject({ modelProvider: "openai", modelName: "o3-mini", usage: { inputTokens: 3200, outputTokens: 450 } });
    const totals = thread.turns.reduce(
      (sum, t) => ({ input: sum.input + (t.usage?.inputTokens ?? 0), output: sum.output + (t.usage?.outputTokens ?? 0) }),
      { input: 0, output: 0 },
    );
    expect(totals).toEqual({ input: 5300, output: 750 });
  });

  it("user turns carry no model and no usage", () => {
    expect(thread.turns[0]).toMatchObject({ modelProvider: null, modelName: null, usage: null });
    expect(thread.turns[0]!.metadata).toBeUndefined();
  });
});

describe("parsePalThreads: a list of threads (a chain)", () => {
  const result = parsePalThreads([chatThread(), reviewThread()], source);

  it("gives one thread per ThreadContext, the continuation linked to its parent", () => {
    expect(result.threads.map((t) => t.key)).toEqual([CHAT_THREAD_ID, REVIEW_THREAD_ID]);
    const review = result.threads[1]!;
    expect(review.parentKey).toBe(CHAT_THREAD_ID);
    expect(review.relation).toEqual({ kind: "continuation" });
    expect(review.toolName).toBe("codereview");
    expect(review.title).toBe("Step 1: review the fix");
  });

  it("workflow tools' model_metadata is kept but gives no usage", () => {
    const assistant = result.threads[1]!.turns[1]!;
    expect(assistant.usage).toBeNull();
    expect(assistant.metadata).toMatchObject({ step_number: 1, findings: "rotation missing" });
  });
});

describe("parsePalThreads: bad entries are skipped, not fatal", () => {
  it("skips unusable turns with a path and a reason, without shifting the other keys", () => {
    const thread = chatThread();
    const turns: unknown[] = [...thread.turns];
    turns.splice(1, 0, { ...thread.turns[0], role: "system" }); // [1]
    turns.splice(2, 0, { ...thread.turns[0], content: 42 }); // [2]
    turns.splice(3, 0, "not a turn"); // [3]
    const result = parsePalThreads({ ...thread, turns }, source);
    expect(result.skipped).toEqual([
      { path: "turns[1].role", reason: "role: must be one of user, assistant" },
      { path: "turns[2].content", reason: "content: must be a string" },
      { path: "turns[3]", reason: "must be a ConversationTurn object" },
    ]);
    expect(result.threads[0]!.turns.map((t) => t.key)).toEqual(["0", "4", "5", "6"]);
  });

  it("skips list entries that are not threads, lack a thread_id or turns, or repeat a thread_id", () => {
    const result = parsePalThreads(
      [chatThread(), 7, { ...reviewThread(), thread_id: "" }, { ...reviewThread(), turns: "none" }, chatThread(), reviewThread()],
      source,
    );
    expect(result.threads.map((t) => t.key)).toEqual([CHAT_THREAD_ID, REVIEW_THREAD_ID]);
    expect(result.skipped).toEqual([
      { path: "[1]", reason: "must be a ThreadContext object" },
      { path: "[2].thread_id", reason: "thread_id: must be a non-empty string" },
      { path: "[3].turns", reason: "turns: must be a list" },
      { path: "[4]", reason: `thread_id: ${CHAT_THREAD_ID} already imported from [0]` },
    ]);
  });

  it("a thread_id that is not a UUID stays the key but is not a sourceId", () => {
    const result = parsePalThreads({ ...chatThread(), thread_id: "thread-1" }, source);
    expect(result.threads[0]!.key).toBe("thread-1");
    expect(result.threads[0]!.sourceId).toBeNull();
    expect(result.warnings).toEqual(["thread thread-1: thread_id is not a UUID, kept as the key but not as the source id"]);
  });

  it("missing tool_name falls back to the turns' tool, with a warning", () => {
    const { tool_name: _dropped, ...rest } = chatThread();
    const result = parsePalThreads(rest, source);
    expect(result.threads[0]!.toolName).toBe("chat");
    expect(result.warnings).toEqual([`thread ${CHAT_THREAD_ID}: tool_name missing, using "chat"`]);
  });

  it("reads zone-less timestamps as UTC and drops unreadable ones", () => {
    const thread = chatThread();
    thread.created_at = "2026-01-01T10:00:00.5";
    thread.turns[0]!.timestamp = "yesterday";
    const result = parsePalThreads(thread, source);
    expect(result.threads[0]!.createdAt).toBe("2026-01-01T10:00:00.500Z");
    expect(result.threads[0]!.turns[0]!.timestamp).toBeNull();
  });

  it("cuts a long title at 100 characters", () => {
    const thread = chatThread();
    thread.turns[0]!.content = `${"word ".repeat(40)}end`;
    const title = parsePalThreads(thread, source).threads[0]!.title!;
    expect(title).toHaveLength(100);
    expect(title.startsWith("word word")).toBe(true);
  });
});

describe("parsePalThreads: not PAL at all", () => {
  it("throws ImportFormatError for an object without thread_id/turns", () => {
    expect(() => parsePalThreads({ format: "threadline/v1", threads: [] }, source)).toThrow(ImportFormatError);
    expect(() => parsePalThreads("text", source)).toThrow(/not a PAL ThreadContext/);
  });

  it("throws ImportFormatError for a list in which nothing has a thread_id", () => {
    expect(() => parsePalThreads([{ role: "user", content: "hi" }], source)).toThrow(/no element of the list has a thread_id/);
  });

  it("an empty list is no threads, not an error", () => {
    expect(parsePalThreads([], source)).toEqual({ format: "pal", threads: [], skipped: [], warnings: [] });
  });
});

describe("looksLikePalThreads", () => {
  it("claims a ThreadContext and a list of them", () => {
    expect(looksLikePalThreads(chatThread(), "dump.json")).toBe(true);
    expect(looksLikePalThreads([reviewThread(), chatThread()], "threads.json")).toBe(true);
  });

  it("does not claim other shapes", () => {
    expect(looksLikePalThreads({ format: "threadline/v1", threads: [] }, "export.json")).toBe(false);
    expect(looksLikePalThreads([{ id: "c1", title: "t", mapping: {}, current_node: "n" }], "conversations.json")).toBe(false);
    expect(looksLikePalThreads([{ kind: "request", parts: [] }], "session.json")).toBe(false);
    expect(looksLikePalThreads([{ role: "user", content: "hi" }], "history.json")).toBe(false);
    expect(looksLikePalThreads({ thread_id: CHAT_THREAD_ID }, "dump.json")).toBe(false); // no turns
    expect(looksLikePalThreads(chatThread(), "dump.jsonl")).toBe(false);
  });
});

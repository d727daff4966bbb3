import "server-only";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { refuseViewer, requireManageableThread, requireReadableThread } from "@/lib/auth/thread-access";
import { buildContextPreview } from "@/lib/context/build-context";
import { forkThread } from "@/lib/db/threads/forks";
import { threadHandoff } from "@/lib/context/handoff";
import { runIdempotent, type IdempotencyScope, type IdempotentResult } from "@/lib/db/threads/idempotency";
import { withSessionUsage } from "@/lib/db/usage/session-usage";
import { appendTurn, createThread, listThreads } from "@/lib/db/threads/threads";
import { getThreadHead } from "@/lib/db/threads/turn-pages";
import { exportThread } from "@/lib/db/imports/transfer";
import type { Reader } from "@/lib/domain/access";
import { AppError, type AppErrorCode, type ErrorDetails } from "@/lib/domain/errors";
import { MAX_IDEMPOTENCY_KEY_LENGTH, parseIdempotencyKey, type IdempotentOperation } from "@/lib/domain/requests/idempotency";
import { parseOrThrow } from "@/lib/domain/parse";
import { maskDeep, maskSecrets } from "@/lib/domain/secrets/detect";
import {
  jsonObjectSchema,
  modelFieldSchema,
  pathListSchema,
  refuseProtoKeys,
  roleSchema,
  toolNameSchema,
  uuidSchema,
  fileSnapshotsSchema,
} from "@/lib/domain/schemas";
import { contextQuerySchema } from "@/lib/validation/context";
import { forkRequestSchema } from "@/lib/validation/forks";
import { handoffQuerySchema } from "@/lib/validation/handoff";
import { wholeNumber } from "@/lib/validation/numbers";
import { appendTurnSchema, createThreadSchema, listThreadsQuerySchema, MAX_PAGE_SIZE } from "@/lib/validation/threads";

/*
 * The MCP tools are the REST API's operations under other names: same lib functions, same
 * validation, same answers. The input shapes below are what clients see (as JSON Schema) and what
 * the SDK checks first, built from the REST schemas' field schemas; each handler then runs the
 * REST request schema itself, so cross-field rules and defaults are the API's. Nulls count as
 * absent, as in the API (function-calling models often send them for optional fields).
 */

const threadId = uuidSchema.describe("The thread's id (a UUID)");
const optional = <S extends z.ZodType>(schema: S, description: string) => schema.nullish().describe(description);

const createThreadShape = {
  toolName: toolNameSchema.describe('The tool (or agent) that starts the thread, e.g. "analyze"'),
  title: optional(z.string().max(500, "must be at most 500 characters"), "Defaults to the first user turn"),
  initialContext: optional(jsonObjectSchema, "Any JSON object stored with the thread"),
  parentThreadId: optional(uuidSchema, "The thread this one continues (its chain parent)"),
};

const idempotencyKey = optional(
  z.string(),
  `Retries with the same key and arguments within 24 hours answer the first call's result instead of writing again (as REST's Idempotency-Key header; 1-${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, per thread)`,
);

const addTurnShape = {
  threadId,
  idempotencyKey,
  role: roleSchema,
  content: z.string().describe("The turn's text"),
  files: optional(pathListSchema, "Paths of the files the turn referenced"),
  toolName: optional(toolNameSchema, "The tool that wrote the turn"),
  modelProvider: optional(modelFieldSchema, 'e.g. "openai", "anthropic", "google"'),
  modelName: optional(modelFieldSchema, 'e.g. "gpt-4o"'),
  fileSnapshots: optional(fileSnapshotsSchema, "Contents of some of `files` as the turn saw them: build_history embeds these"),
};

const listThreadsShape = {
  q: optional(z.string().max(500), "Matches titles (substring) and turn content (word prefixes)"),
  tool: optional(z.string().max(200), "The initiating tool or any turn's tool"),
  limit: optional(wholeNumber(1, MAX_PAGE_SIZE), `Page size, 1-${MAX_PAGE_SIZE} (default 25)`),
  cursor: optional(z.string().max(500), "The previous page's nextCursor"),
};

const buildHistoryShape = {
  threadId,
  model: optional(z.string().max(200), 'A model id from the catalog, e.g. "gpt-4o" (sets window and tokenizer)'),
  contextWindow: optional(wholeNumber(1_000, 100_000_000), "Context window in tokens; overrides the model's"),
  mode: optional(
    z.enum(["exact", "pal"], { error: 'must be "exact" or "pal"' }),
    '"exact" (default): the model\'s tokenizer; "pal": PAL\'s text and estimates byte for byte',
  ),
};

const forkThreadShape = {
  threadId,
  atTurn: wholeNumber(0).describe("The last turn (0-based index) the fork keeps"),
  idempotencyKey,
};

const exportThreadShape = {
  threadId,
  chain: optional(z.boolean(), "Export the whole chain (oldest first) instead of the one thread"),
};

const getHandoffShape = {
  threadId,
  format: optional(
    z.enum(["orchestrator"], { error: 'must be "orchestrator"' }),
    '"orchestrator" (default): the orchestrator seed\'s conversation_history',
  ),
  chain: optional(z.boolean(), "Hand over the whole chain (oldest first) instead of the one thread"),
  from: optional(wholeNumber(1), "The first turn handed over (1-based position in the thread's, or the chain's, turns)"),
  to: optional(wholeNumber(1), "The last turn handed over (1-based, included)"),
  model: optional(z.string().max(200), "A model whose tokenizer counts the text (adds tokens)"),
};

/** Drops null-valued fields: the request schemas take absent, not null. */
function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
}

/**
 * A result as JSON text (for any client) and as structured content (for those that read it), its
 * secrets masked as the REST API masks them: a tool's answer goes to a model. Masked before it is
 * written as text, so the text stays JSON. (The route masks the whole JSON-RPC answer again, the
 * net for a tool that does not answer through here.)
 */
function answer(value: object, text?: string): CallToolResult {
  const masked = maskDeep(value);
  return {
    content: [{ type: "text", text: text === undefined ? JSON.stringify(masked) : maskSecrets(text) }],
    structuredContent: masked as Record<string, unknown>,
  };
}

/** A tool error: the message as text, and the REST API's error shape as structured content. */
function toolError(code: AppErrorCode | "internal", message: string, details?: ErrorDetails): CallToolResult {
  const error = details === undefined ? { code, message } : { code, message, details };
  return { content: [{ type: "text", text: message }], structuredContent: { error }, isError: true };
}

/**
 * A write under the tool's idempotencyKey argument: the same store and scope (the thread) as the
 * REST API's Idempotency-Key header, so a retry through either answers the first result.
 */
async function idempotentTool(
  threadId: string,
  key: string | null | undefined,
  operation: IdempotentOperation,
  body: unknown,
  write: Parameters<typeof runIdempotent>[1],
): Promise<CallToolResult> {
  const scope: IdempotencyScope | null =
    key == null ? null : { threadId, key: parseIdempotencyKey(key, "idempotencyKey"), operation, body };
  return storedAnswer(await runIdempotent(scope, write));
}

/** A stored (or fresh) result as the tool's answer; a stored error as the tool error. */
function storedAnswer({ status, body }: IdempotentResult): CallToolResult {
  if (status < 400) return answer(body as object);
  const { error } = body as { error: { code: AppErrorCode; message: string; details?: ErrorDetails } };
  return toolError(error.code, error.message, error.details);
}

/**
 * The SDK drops a "__proto__" key from tool arguments (its zod records skip them, as ours do)
 * before any handler sees them, so the route checks the body as parsed: a tools/call whose
 * arguments hold one anywhere answers the tool error REST answers with its 400, naming the field
 * (in a batch, the whole batch is refused as invalid params). Null when there is none.
 */
export function protoKeyRefusal(body: unknown): { status: number; body: object } | null {
  const refusals = (Array.isArray(body) ? body : [body]).map((message) => ({
    id: (message as { id?: unknown } | null)?.id ?? null,
    error: protoKeyError(message),
  }));
  const refused = refusals.find(({ error }) => error !== null);
  if (!refused?.error) return null;
  const { code, message, details } = refused.error;
  if (Array.isArray(body)) return { status: 400, body: { jsonrpc: "2.0", id: null, error: { code: -32602, message } } };
  return { status: 200, body: { jsonrpc: "2.0", id: refused.id, result: toolError(code, message, details) } };
}

function protoKeyError(message: unknown): AppError | null {
  if (typeof message !== "object" || message === null) return null;
  const { method, params } = message as { method?: unknown; params?: { arguments?: unknown } | null };
  if (method !== "tools/call" || typeof params !== "object" || params === null) return null;
  try {
    parseOrThrow(refuseProtoKeys(z.unknown()), params.arguments);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** Runs a tool body; expected failures (AppError) become tool errors, anything else a generic one. */
async function run(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof AppError) return toolError(error.code, error.message, error.details);
    console.error("[threadline] unexpected error in MCP tool", error);
    return toolError("internal", "Internal error; see the server log.");
  }
}

const READ = { readOnlyHint: true, openWorldHint: false } as const;
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

/**
 * A Threadline MCP server with its seven tools. Stateless: the route builds one per request.
 * Argument errors, unknown or expired threads and the turn limit answer tool errors
 * (`isError: true`) naming the field or the reason, never protocol errors.
 */
export function createMcpServer(reader: Reader): McpServer {
  const server = new McpServer(
    { name: "threadline", title: "Threadline", version: "0.1.0" },
    {
      instructions:
        "Threadline stores conversation threads durably. create_thread starts one (parentThreadId continues another), " +
        "add_turn appends a turn, build_history answers the text a model would be sent to continue it within its context " +
        "window (what was cut is listed), get_handoff answers it as an orchestrator hands a conversation to the next agent. " +
        "Turn numbers in build_history and get_handoff are 1-based; atTurn in fork_thread is a 0-based index.",
    },
  );

  registerWritingTools(server, reader);
  registerReadingTools(server, reader);

  return server;
}

/** The tools that create or change threads: a viewer is refused; only its owner or an admin changes a thread. */
function registerWritingTools(server: McpServer, reader: Reader): void {
  server.registerTool(
    "create_thread",
    {
      title: "Create a thread",
      description: "Starts a conversation thread. Answers {thread}.",
      inputSchema: z.strictObject(createThreadShape),
      annotations: WRITE,
    },
    (args) =>
      run(async () => {
        refuseViewer(reader);
        return answer({ thread: await createThread(parseOrThrow(createThreadSchema, withoutNulls(args)), reader) });
      }),
  );

  server.registerTool(
    "add_turn",
    {
      title: "Add a turn",
      description:
        "Appends a turn to a thread (refreshes its expiry). Fails when the thread is unknown, expired, or at MAX_CONVERSATION_TURNS. Answers {turn}.",
      inputSchema: z.strictObject(addTurnShape),
      annotations: WRITE,
    },
    ({ threadId, idempotencyKey, ...fields }) =>
      run(async () => {
        const input = parseOrThrow(appendTurnSchema, withoutNulls(fields));
        await requireManageableThread(reader, threadId);
        return idempotentTool(threadId, idempotencyKey, "append_turn", input, async (claim) => {
          // As POST /turns: with a key, the turn and the key's record commit together.
          const turn = await appendTurn(threadId, input, {
            beforeCommit: claim ? (tx, stored) => claim.recordIn(tx, { status: 201, body: { turn: stored } }) : undefined,
          });
          return { status: 201, body: { turn } };
        });
      }),
  );

  server.registerTool(
    "fork_thread",
    {
      title: "Fork a thread",
      description:
        'A new thread holding copies of turns 0..atTurn, titled "<title> (fork)"; the source is not written. Answers {thread, fork}.',
      inputSchema: z.strictObject(forkThreadShape),
      annotations: WRITE,
    },
    ({ threadId, atTurn, idempotencyKey }) =>
      run(async () => {
        const body = parseOrThrow(forkRequestSchema, { atTurn });
        refuseViewer(reader);
        await requireReadableThread(reader, threadId);
        return idempotentTool(threadId, idempotencyKey, "fork", body, async () => ({
          status: 201,
          body: await forkThread(threadId, body.atTurn, reader),
        }));
      }),
  );
}

/** The tools that read threads: only those the caller may read (lib/domain/access). */
function registerReadingTools(server: McpServer, reader: Reader): void {
  server.registerTool(
    "get_thread",
    {
      title: "Get a thread",
      description: "A thread and all its turns, oldest first. Answers {thread, turns}.",
      inputSchema: z.strictObject({ threadId }),
      annotations: READ,
    },
    ({ threadId }) =>
      run(async () => {
        await requireReadableThread(reader, threadId);
        return answer(await withSessionUsage(await getThreadHead(threadId)));
      }),
  );

  server.registerTool(
    "list_threads",
    {
      title: "List threads",
      description: "Threads, most recent activity first, one page at a time. Answers {items, nextCursor}; pass nextCursor back as cursor.",
      inputSchema: z.strictObject(listThreadsShape),
      annotations: READ,
    },
    (args) => run(async () => answer(await listThreads(parseOrThrow(listThreadsQuerySchema, withoutNulls(args)), reader))),
  );

  server.registerTool(
    "build_history",
    {
      title: "Build the history for a model",
      description:
        "What a model would be sent to continue the thread: PAL's conversation history over its chain, budgeted for a context window. " +
        "Give model, contextWindow or both. Answers {history, totalTokens, tokenizer, exact, model, mode, allocation, turns {total, includedCount, excludedCount, firstIncluded}, files {included, skipped}}: turns firstIncluded..total are sent.",
      inputSchema: z.strictObject(buildHistoryShape),
      annotations: READ,
    },
    ({ threadId, ...query }) =>
      run(async () => {
        await requireReadableThread(reader, threadId);
        const preview = await buildContextPreview(threadId, parseOrThrow(contextQuerySchema, withoutNulls(query)));
        return answer({
          history: preview.text,
          totalTokens: preview.totalTokens,
          tokenizer: preview.tokenizer,
          exact: preview.exact,
          model: preview.model,
          mode: preview.mode,
          allocation: preview.allocation,
          turns: preview.turns,
          files: preview.files,
        });
      }),
  );

  server.registerTool(
    "get_handoff",
    {
      title: "Hand a thread to the next agent",
      description:
        "The thread (or its chain) as an orchestrator hands a conversation to the agent that takes the task next: roles user, assistant and system " +
        "(tool turns and empty ones skipped, with the reason), user content cut at 150 characters and assistant content at 8,192 with visible markers, " +
        'and `text`, the "CONVERSATION HISTORY (Context leading to this task)" section to put in the agent\'s prompt as it is. ' +
        "Answers {format, text, messages [{role, content, truncated}], skipped [{index, reason, cause}], conversationMessagesCount, origins, range, cut, tokens?}.",
      inputSchema: z.strictObject(getHandoffShape),
      annotations: READ,
    },
    ({ threadId, chain, ...query }) =>
      run(async () =>
        answer(
          await requireReadableThread(reader, threadId).then(() =>
            threadHandoff(
              threadId,
              parseOrThrow(handoffQuerySchema, withoutNulls({ ...query, chain: chain ? "1" : undefined })),
              maskSecrets,
            ),
          ),
        ),
      ),
  );

  server.registerTool(
    "export_thread",
    {
      title: "Export a thread",
      description:
        "The threadline/v1 document of the thread (or of its chain), as JSON text, with every secret found in it replaced by [REDACTED:<kind>:<fingerprint>] " +
        "(nothing detected is sent to a model); POST it to /api/import to restore. The lossless copy is REST's GET /api/threads/:id/export.",
      inputSchema: z.strictObject(exportThreadShape),
      annotations: READ,
    },
    ({ threadId, chain }) =>
      run(async () => {
        await requireReadableThread(reader, threadId);
        const document = await exportThread(threadId, { chain: chain ?? false, redact: true });
        // The exact bytes as text, so what a client saves imports byte-identical.
        return answer(JSON.parse(document) as object, document);
      }),
  );
}

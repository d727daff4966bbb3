import { AUTH_REFRESH_CHAIN, type DemoTurn as ConversationTurn } from "@/lib/domain/threads/demo-conversation";
import type { NativeDocument } from "@/lib/domain/transfer/native-format";
import type { FileSnapshot, JsonObject } from "@/lib/domain/types";

/**
 * The demo set seeded on first run: a cross-tool chain (analyze -> codereview -> debug) with files
 * and several models and providers, a 200-turn pairing session, and an expired thread. Ids are
 * fixed so links in docs and tests stay valid; times are relative to `now`.
 */
/** The source the demo threads are marked with: what the thread list's notice offers to remove (lib/db/demo-threads.ts). */
export const DEMO_SOURCE = "demo";

/** @internal exported for its tests */
export const DEMO_IDS = {
  analyze: "2b1f0c9e-6a52-4d0e-9c3a-5f7d9b1e0a01",
  codereview: "2b1f0c9e-6a52-4d0e-9c3a-5f7d9b1e0a02",
  debug: "2b1f0c9e-6a52-4d0e-9c3a-5f7d9b1e0a03",
  longSession: "2b1f0c9e-6a52-4d0e-9c3a-5f7d9b1e0a04",
  expired: "2b1f0c9e-6a52-4d0e-9c3a-5f7d9b1e0a05",
} as const;

type DemoTurn = ConversationTurn & { fileSnapshots?: FileSnapshot[] };

function turnId(threadId: string, index: number): string {
  // Same prefix as the thread, last block numbered: stable and unique across the demo set.
  return `${threadId.slice(0, 24)}${threadId.slice(-4)}${String(index).padStart(8, "0")}`;
}

function thread(
  id: string,
  opts: {
    title: string | null;
    toolName: string;
    parentThreadId?: string;
    start: Date;
    stepMs: number;
    expiresAt: Date | null;
    initialContext?: JsonObject;
  },
  turns: DemoTurn[],
) {
  const at = (i: number) => new Date(opts.start.getTime() + i * opts.stepMs).toISOString();
  return {
    id,
    parentThreadId: opts.parentThreadId ?? null,
    title: opts.title,
    toolName: opts.toolName,
    source: DEMO_SOURCE,
    project: null,
    initialContext: opts.initialContext ?? {},
    metadata: null,
    createdAt: at(0),
    lastUpdatedAt: at(Math.max(turns.length - 1, 0)),
    expiresAt: opts.expiresAt ? opts.expiresAt.toISOString() : null,
    turns: turns.map((t, index) => ({
      id: turnId(id, index),
      index,
      role: t.role,
      content: t.content,
      timestamp: at(index),
      files: t.files ?? [],
      images: t.images ?? [],
      toolName: t.toolName ?? null,
      modelProvider: t.modelProvider ?? null,
      modelName: t.modelName ?? null,
      modelMetadata: t.modelMetadata ?? null,
      parts: t.parts ?? null,
      fileSnapshots: t.fileSnapshots ?? [],
    })),
  };
}

/** What the demo's files looked like when the turns saw them (budget previews embed these). */
const SOURCES: Record<string, string> = {
  "src/auth/session.ts": [
    'import { decodeJwt, exchangeRefreshToken } from "./tokens";',
    "",
    "export type Session = { accessToken: string; refreshToken: string; expiresAt: number };",
    "",
    "export function isSessionValid(session: Session, now = Date.now()): boolean {",
    "  return now < session.expiresAt;",
    "}",
    "",
    "export async function refreshSession(session: Session) {",
    "  const { accessToken } = await exchangeRefreshToken(session.refreshToken);",
    "  session.accessToken = accessToken;",
    "  return session;",
    "}",
    "",
  ].join("\n"),
  "src/auth/tokens.ts": [
    "export const CLOCK_SKEW_MS = 30_000;",
    "",
    "export function decodeJwt(token: string): { exp: number; sub: string } {",
    '  const [, payload] = token.split(".");',
    '  return JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8"));',
    "}",
    "",
    "export async function exchangeRefreshToken(refreshToken: string) {",
    '  const response = await fetch("/oauth/token", { method: "POST", body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }) });',
    "  if (!response.ok) throw new Error(`refresh failed: ${response.status}`);",
    "  return (await response.json()) as { accessToken: string };",
    "}",
    "",
  ].join("\n"),
  "src/auth/refresh.ts": [
    'import { refreshSession, type Session } from "./session";',
    "",
    "export async function retryWithFreshToken(request: Request, session: Session) {",
    "  const retry = new Request(request, { headers: withAuth(request.headers, session.accessToken) });",
    "  await refreshSession(session);",
    "  return fetch(retry);",
    "}",
    "",
    "function withAuth(headers: Headers, token: string): Headers {",
    "  const copy = new Headers(headers);",
    '  copy.set("Authorization", `Bearer ${token}`);',
    "  return copy;",
    "}",
    "",
  ].join("\n"),
  "tests/auth/refresh.test.ts": [
    'import { describe, expect, it } from "vitest";',
    'import { retryWithFreshToken } from "../../src/auth/refresh";',
    "",
    'describe("retryWithFreshToken", () => {',
    '  it("sends the new token", async () => {',
    "    // see the CI logs: 401 within 50 ms of a refresh",
    "  });",
    "});",
    "",
  ].join("\n"),
};

function snapshots(paths: string[]): FileSnapshot[] {
  return paths.flatMap((path) => (SOURCES[path] ? [{ path, content: SOURCES[path] }] : []));
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export function buildDemoDocument(now: Date = new Date()): NativeDocument {
  const chainStart = new Date(now.getTime() - 5 * HOUR);
  // The prompt that starts each thread of the chain carries its files as they were then.
  const withSnapshots = (turns: readonly DemoTurn[]): DemoTurn[] =>
    turns.map((turn, index) => (index === 0 && turn.files ? { ...turn, fileSnapshots: snapshots(turn.files) } : turn));
  const analyze = thread(
    DEMO_IDS.analyze,
    {
      title: "Why do sessions drop after a token refresh?",
      toolName: "analyze",
      start: chainStart,
      stepMs: 4 * MINUTE,
      expiresAt: null,
      initialContext: { relevant_files: ["src/auth/session.ts", "src/auth/tokens.ts"], thinking_mode: "medium" },
    },
    withSnapshots(AUTH_REFRESH_CHAIN.analyze),
  );

  const codereview = thread(
    DEMO_IDS.codereview,
    {
      title: "Review the token refresh path",
      toolName: "codereview",
      parentThreadId: DEMO_IDS.analyze,
      start: new Date(chainStart.getTime() + 20 * MINUTE),
      stepMs: 5 * MINUTE,
      expiresAt: null,
    },
    withSnapshots(AUTH_REFRESH_CHAIN.codereview),
  );

  const debug = thread(
    DEMO_IDS.debug,
    {
      title: "Intermittent 401 right after refresh",
      toolName: "debug",
      parentThreadId: DEMO_IDS.codereview,
      start: new Date(chainStart.getTime() + 50 * MINUTE),
      stepMs: 6 * MINUTE,
      expiresAt: null,
    },
    withSnapshots(AUTH_REFRESH_CHAIN.debug),
  );

  const topics = [
    "schema",
    "migrations",
    "connection pool",
    "indexes",
    "backfill",
    "rollback plan",
    "dual writes",
    "read replicas",
    "cut-over",
    "monitoring",
  ];
  const models = [
    { modelProvider: "openai", modelName: "gpt-5" },
    { modelProvider: "anthropic", modelName: "claude-sonnet-4-5" },
    { modelProvider: "google", modelName: "gemini-2.5-flash" },
  ];
  const longTurns: DemoTurn[] = Array.from({ length: 200 }, (_, i) => {
    const topic = topics[Math.floor(i / 20) % topics.length] ?? "schema";
    const step = Math.floor(i / 2) + 1;
    if (i % 2 === 0) {
      return {
        role: "user",
        toolName: "chat",
        content:
          `Step ${step} (${topic}): what should we check before moving on? ${i % 10 === 0 ? "Here is the current plan file." : ""}`.trim(),
        files: i % 10 === 0 ? [`docs/billing-migration/${topic.replaceAll(" ", "-")}.md`] : [],
      };
    }
    const model = models[step % models.length] ?? models[0]!;
    const long = i % 25 === 1;
    return {
      role: "assistant",
      toolName: "chat",
      ...model,
      content: [
        `For **${topic}**, step ${step}:`,
        "",
        `- Verify the ${topic} change on a staging copy of the billing database.`,
        `- Record the row counts before and after; they must match.`,
        long
          ? "\n" +
            Array.from({ length: 40 }, (_, k) => `${k + 1}. Check invoice batch ${k + 1} totals against the ledger export.`).join("\n")
          : "",
        "",
        "```sql",
        `SELECT count(*) FROM invoices WHERE migrated_at IS NULL; -- ${topic}`,
        "```",
      ].join("\n"),
    };
  });
  const longSession = thread(
    DEMO_IDS.longSession,
    {
      title: "Pairing: migrating the billing service to PostgreSQL",
      toolName: "chat",
      start: new Date(now.getTime() - 3 * HOUR),
      stepMs: 30_000,
      expiresAt: null,
    },
    longTurns,
  );

  const expiredStart = new Date(now.getTime() - 3 * 24 * HOUR);
  const expired = thread(
    DEMO_IDS.expired,
    { title: null, toolName: "chat", start: expiredStart, stepMs: MINUTE, expiresAt: new Date(expiredStart.getTime() + MINUTE + 3 * HOUR) },
    [
      { role: "user", toolName: "chat", content: "Does JavaScript support regex lookbehind in all current browsers?" },
      {
        role: "assistant",
        toolName: "chat",
        modelProvider: "openai",
        modelName: "gpt-4o-mini",
        content: "Yes: `(?<=...)` and `(?<!...)` work in every current major browser, Safari since 16.4.",
      },
    ],
  );
  expired.title = "Does JavaScript support regex lookbehind in all current browsers?";

  return { format: "threadline/v1", threads: [analyze, codereview, debug, longSession, expired] };
}

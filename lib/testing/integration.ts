/**
 * Support for the API integration tests: route handlers called in-process with real Request
 * objects against the real SQLite file of the test file (see setup-database.ts). No mocks.
 */
import { expect } from "vitest";
import { POST as importRoute } from "@/app/api/import/route";
import { GET as chainRoute } from "@/app/api/threads/[id]/chain/route";
import { GET as exportRoute } from "@/app/api/threads/[id]/export/route";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/threads/[id]/route";
import { GET as turnRoute } from "@/app/api/threads/[id]/turns/[index]/route";
import { POST as turnsRoute } from "@/app/api/threads/[id]/turns/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/threads/route";
import { db } from "@/lib/db/engine/client";
import type { Thread, Turn } from "@/lib/domain/types";
import { resetServerSettingsForTests } from "@/lib/env";
import { json, jsonRequest, params } from "./api";
import { createTestDatabase } from "./test-database";

/** One function per endpoint; each returns the handler's Response untouched. */
export const api = {
  createThread: (body: unknown, headers: Record<string, string> = {}) => createRoute(jsonRequest("POST", "/api/threads", body, headers)),
  listThreads: (query: Record<string, string> | string = {}) =>
    listRoute(jsonRequest("GET", `/api/threads?${typeof query === "string" ? query : new URLSearchParams(query)}`)),
  getThread: (id: string) => getRoute(jsonRequest("GET", `/api/threads/${encodeURIComponent(id)}`), params({ id })),
  deleteThread: (id: string) => deleteRoute(jsonRequest("DELETE", `/api/threads/${encodeURIComponent(id)}`), params({ id })),
  appendTurn: (id: string, body: unknown) =>
    turnsRoute(jsonRequest("POST", `/api/threads/${encodeURIComponent(id)}/turns`, body), params({ id })),
  getTurn: (id: string, index: string | number, query = "") =>
    turnRoute(jsonRequest("GET", `/api/threads/${encodeURIComponent(id)}/turns/${index}${query}`), params({ id, index: String(index) })),
  chain: (id: string) => chainRoute(jsonRequest("GET", `/api/threads/${encodeURIComponent(id)}/chain`), params({ id })),
  exportThread: (id: string, query = "") =>
    exportRoute(jsonRequest("GET", `/api/threads/${encodeURIComponent(id)}/export${query}`), params({ id })),
  importDocuments: (body: unknown, query = "") => importRoute(jsonRequest("POST", `/api/import${query}`, body)),
};

/** Creates a thread through the API (as whoever `headers` sign in, with sign-in on) and returns it (fails the test on any other status). */
export async function newThread(
  body: Record<string, unknown> = { toolName: "chat" },
  headers: Record<string, string> = {},
): Promise<Thread> {
  const response = await api.createThread(body, headers);
  expect(response.status, await peek(response)).toBe(201);
  return (await json<{ thread: Thread }>(response)).thread;
}

/** Appends a turn through the API and returns it (fails the test on any other status). */
export async function newTurn(threadId: string, body: Record<string, unknown>): Promise<Turn> {
  const response = await api.appendTurn(threadId, body);
  expect(response.status, await peek(response)).toBe(201);
  return (await json<{ turn: Turn }>(response)).turn;
}

export async function fetchThread(id: string): Promise<{ thread: Thread; turns: Turn[] }> {
  const response = await api.getThread(id);
  expect(response.status, await peek(response)).toBe(200);
  return json(response);
}

/** The body text of a clone, for assertion messages. */
async function peek(response: Response): Promise<string> {
  return response.clone().text();
}

export type ErrorBody = { code: string; message: string; details?: unknown };

/**
 * Asserts the one error shape {error: {code, message, details?}} with the given status and code,
 * and that nothing in it looks like a stack trace or an internal.
 */
export async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get("content-type") ?? "").toContain("application/json");
  const body = JSON.parse(text) as { error: ErrorBody };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code, text).toBe(code);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.length).toBeGreaterThan(0);
  expectNoInternals(text);
  return body.error;
}

/** No stack frames, file paths of the server, or ORM internals in a response body. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat .+\(.+:\d+:\d+\)/); // "at fn (file:line:col)"
  expect(text).not.toMatch(/\.(ts|js|mjs):\d+/);
  expect(text).not.toMatch(/"stack"|node_modules|\/work\/|Prisma|SQLITE_/i);
}

// HOME: the followed sources' default folders are under it (os.homedir() reads it).
const SETTING_NAMES = [
  "DATABASE_URL",
  "CONVERSATION_TIMEOUT_HOURS",
  "MAX_CONVERSATION_TURNS",
  "THREADLINE_MAX_BODY_BYTES",
  "THREADLINE_MAX_LINE_MB",
  "THREADLINE_MAX_DOCUMENT_MB",
  "THREADLINE_FILE_ROOTS",
  "THREADLINE_SOURCES",
  "THREADLINE_SOURCES_POLL",
  "HOME",
  "THREADLINE_AUTH",
  "THREADLINE_ADMIN_EMAIL",
  "THREADLINE_ADMIN_PASSWORD",
  "THREADLINE_URL",
  "THREADLINE_AUTH_SECRET",
  "THREADLINE_PEER_HEADER",
  "THREADLINE_TRUSTED_PROXIES",
] as const;
type SettingName = (typeof SETTING_NAMES)[number];
let originalEnv: Record<SettingName, string | undefined> | undefined;

/** Sets server settings for this test and re-reads them (restore with restoreServerEnv()). */
export function setServerEnv(values: Partial<Record<SettingName, string | undefined>>): void {
  originalEnv ??= Object.fromEntries(SETTING_NAMES.map((name) => [name, process.env[name]])) as Record<SettingName, string | undefined>;
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetServerSettingsForTests();
}

/** Puts back the env this test file started with (its own database, default limits). */
export function restoreServerEnv(): void {
  if (!originalEnv) return;
  setServerEnv(originalEnv);
}

/**
 * Points the app at a new, empty, migrated database (a copy of the run's template) and returns
 * its URL. The previous client is disconnected; restoreServerEnv() switches back.
 */
export async function switchToFreshDatabase(): Promise<string> {
  await (await db()).$disconnect();
  const url = await createTestDatabase();
  setServerEnv({ DATABASE_URL: url });
  return url;
}

/** Row counts straight from the database, to prove that a failed request wrote nothing. */
export async function rowCounts(): Promise<{ threads: number; turns: number }> {
  const client = await db();
  const [threads, turns] = await Promise.all([client.thread.count(), client.turn.count()]);
  return { threads, turns };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Moves a thread's expiry into the past, as if its timeout had run out. */
export async function expireThread(id: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await (await db()).thread.update({ where: { id }, data: { lastUpdatedAt: new Date(past.getTime() - 3_600_000), expiresAt: past } });
}

/** A thread's usage read with its turns, before any model response. */
export const ZERO_USAGE = {
  inputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  source: "estimated",
};

/** A thread's cost read with its turns, before any model response. */
export const ZERO_COST = {
  totalUsd: 0,
  inputUsd: 0,
  outputUsd: 0,
  cacheReadUsd: 0,
  cacheWriteUsd: 0,
  unpricedResponses: 0,
  unpricedModels: [],
};

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Removes every thread, imported-file record and followed file a sources test left (between tests). */
export async function forgetSyncedImports(): Promise<void> {
  const client = await db();
  await client.thread.deleteMany({});
  await client.importedFile.deleteMany({});
  await client.sourceFile.deleteMany({});
}

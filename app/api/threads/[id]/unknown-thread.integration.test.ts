/**
 * Every REST route that takes a thread id answers an unknown id as PAL does: 404, saying the
 * thread was not found or may have expired, with the CONVERSATION_TIMEOUT_HOURS in effect. The
 * routes are listed from the files on disk, so a new one fails here until it is added below.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jsonRequest, params } from "@/lib/testing/api";
import { expectError, expireThread, newThread, restoreServerEnv, rowCounts, setServerEnv } from "@/lib/testing/integration";
import * as chain from "./chain/route";
import * as compactionJobs from "./compaction-jobs/route";
import * as compactions from "./compactions/route";
import * as context from "./context/route";
import * as continueRoute from "./continue/route";
import * as exportRoute from "./export/route";
import * as find from "./find/route";
import * as forks from "./forks/route";
import * as handoff from "./handoff/route";
import * as live from "./live/route";
import * as messages from "./messages/route";
import * as outline from "./outline/route";
import * as secretSettings from "./secret-settings/route";
import * as visibility from "./visibility/route";
import * as thread from "./route";
import * as shares from "./shares/route";
import * as turn from "./turns/[index]/route";
import * as turns from "./turns/route";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Call = { method: string; path: string; handler: Handler; body?: unknown; query?: string; extra?: Record<string, string> };

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Each route file (relative to app/api/threads/[id]), its module, and valid input for each method. */
const ROUTES: {
  file: string;
  module: Record<string, unknown>;
  input?: Partial<Record<(typeof METHODS)[number], Omit<Call, "method" | "path" | "handler">>>;
}[] = [
  { file: "route.ts", module: thread },
  { file: "chain/route.ts", module: chain },
  { file: "compaction-jobs/route.ts", module: compactionJobs, input: { POST: { body: { strategy: "full" } } } },
  { file: "compactions/route.ts", module: compactions, input: { POST: { body: { strategy: "full" } } } },
  { file: "context/route.ts", module: context, input: { GET: { query: "?contextWindow=100000" } } },
  { file: "continue/route.ts", module: continueRoute, input: { POST: { body: { toolName: "analyze", prompt: "Go on." } } } },
  { file: "export/route.ts", module: exportRoute, input: { POST: { body: { format: "html", password: "a long passphrase" } } } },
  { file: "find/route.ts", module: find, input: { GET: { query: "?q=needle" } } },
  { file: "forks/route.ts", module: forks, input: { POST: { body: { atTurn: 0 } } } },
  { file: "handoff/route.ts", module: handoff, input: { GET: { query: "?chain=1" } } },
  { file: "live/route.ts", module: live },
  { file: "messages/route.ts", module: messages, input: { POST: { body: { content: "hello" }, query: "?stream=0" } } },
  { file: "outline/route.ts", module: outline },
  { file: "secret-settings/route.ts", module: secretSettings, input: { PUT: { body: { sendToModels: true, confirm: true } } } },
  { file: "visibility/route.ts", module: visibility, input: { PUT: { body: { visibility: "team" } } } },
  { file: "shares/route.ts", module: shares, input: { POST: { body: { expiresInHours: 24 } } } },
  { file: "turns/route.ts", module: turns, input: { POST: { body: { role: "user", content: "hello" } } } },
  { file: "turns/[index]/route.ts", module: turn, input: { GET: { extra: { index: "0" } } } },
];

/** Every method of every route, called with `id`. */
function calls(): Call[] {
  return ROUTES.flatMap(({ file, module, input }) =>
    METHODS.filter((method) => typeof module[method] === "function").map((method) => ({
      method,
      path: `/api/threads/:id/${path.dirname(file).replace(/^\.$/, "")}`
        .replace(/\/$/, "")
        .replace("[index]", input?.[method]?.extra?.index ?? "0"),
      handler: module[method] as Handler,
      ...input?.[method],
    })),
  );
}

async function send(call: Call, id: string): Promise<Response> {
  const url = `${call.path.replace(":id", id)}${call.query ?? ""}`;
  return call.handler(jsonRequest(call.method, url, call.body), params({ id, ...call.extra }));
}

afterEach(() => restoreServerEnv());

describe("unknown thread ids on every REST route that takes one", () => {
  it("lists every route file under app/api/threads/[id]", () => {
    const root = path.join(process.cwd(), "app/api/threads/[id]");
    const onDisk = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) => path.basename(file) === "route.ts");
    expect(onDisk.map((file) => file.split(path.sep).join("/")).sort()).toEqual(ROUTES.map((route) => route.file).sort());
  });

  it("answers 404 naming the timeout from CONVERSATION_TIMEOUT_HOURS, and writes nothing", async () => {
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: "7" });
    const id = crypto.randomUUID();
    const before = await rowCounts();
    const all = calls();
    expect(all.map((call) => `${call.method} ${call.path}`)).toHaveLength(26);
    for (const call of all) {
      const error = await expectError(await send(call, id), 404, "not_found");
      expect(error.message, `${call.method} ${call.path}`).toBe(
        `Thread ${id} not found or may have expired: threads expire after 7 hours without activity (CONVERSATION_TIMEOUT_HOURS).`,
      );
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("follows the setting: minutes for a fraction, and no expiry blamed when threads never expire", async () => {
    const id = crypto.randomUUID();
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: "0.5" });
    for (const call of calls())
      expect((await expectError(await send(call, id), 404, "not_found")).message).toContain(
        "threads expire after 30 minutes without activity",
      );
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: "0" });
    for (const call of calls()) {
      const error = await expectError(await send(call, id), 404, "not_found");
      expect(error.message, `${call.method} ${call.path}`).toBe(
        `Thread ${id} not found: threads do not expire here (CONVERSATION_TIMEOUT_HOURS is 0), so it was never stored or has been purged.`,
      );
    }
  });

  it("answers an expired thread 404 expired with the timeout where the route hides expired threads", async () => {
    setServerEnv({ CONVERSATION_TIMEOUT_HOURS: "7" });
    const expired = await newThread({ toolName: "analyze" });
    await expireThread(expired.id);
    // DELETE /messages has nothing to stop in an expired thread: it says why, as the reads do.
    for (const call of calls().filter(
      (c) => `${c.method} ${c.path}` === "GET /api/threads/:id" || `${c.method} ${c.path}` === "DELETE /api/threads/:id/messages",
    )) {
      const error = await expectError(await send(call, expired.id), 404, "expired");
      expect(error.message, `${call.method} ${call.path}`).toContain("timeout 7 hours");
    }
  });
});

/**
 * Every route file under app/api, found on disk, and what tests need to call each of them
 * in-process: its handlers, its dynamic segments filled in, its URL, its answer's text. The tests
 * that hold every route to a rule (no secret in any answer, no input echoed) start here, so a new
 * route is held to them without being listed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const API_ROOT = path.join(process.cwd(), "app", "api");

/** A route (its folder relative to app/api, "threads/[id]/turns"), its file and source text. */
export type RouteFile = { route: string; file: string; source: string };

export type RouteParams = Record<string, string | string[]>;
export type RouteHandler = (request: Request, context: { params: Promise<RouteParams> }) => Promise<Response>;

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export function routeFiles(): RouteFile[] {
  const found: RouteFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "route.ts")
        found.push({ route: path.relative(API_ROOT, dir).split(path.sep).join("/"), file: full, source: readFileSync(full, "utf8") });
    }
  };
  walk(API_ROOT);
  return found;
}

/** The handlers a route file exports, by method. */
export async function routeHandlers(file: string): Promise<[HttpMethod, RouteHandler][]> {
  const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
  return HTTP_METHODS.filter((method) => typeof mod[method] === "function").map((method) => [method, mod[method] as RouteHandler]);
}

/** The names of a route's dynamic segments: "threads/[id]/turns/[index]" -> id, index; "[...path]" -> path. */
export function segmentNames(route: string): string[] {
  return route.split("/").flatMap((segment) => {
    const name = /^\[(?:\.\.\.)?(.+)\]$/.exec(segment)?.[1];
    return name ? [name] : [];
  });
}

/** Whether a segment is a catch-all ([...path]): its value is a list of segments. */
export function isCatchAll(route: string, name: string): boolean {
  return route.split("/").includes(`[...${name}]`);
}

/** Every combination of the sample values of a route's segments; `values` names them (and throws for one it does not know). */
export function paramSets(route: string, values: (name: string) => (string | string[])[]): RouteParams[] {
  let sets: RouteParams[] = [{}];
  for (const name of segmentNames(route)) {
    const options = values(name);
    if (options.length === 0) throw new Error(`${route}: no sample value for [${name}]; add one`);
    sets = sets.flatMap((set) => options.map((v) => ({ ...set, [name]: v })));
  }
  return sets;
}

/** The path a route answers with these segments filled in, "/api/threads/<id>/turns". */
export function urlOf(route: string, set: RouteParams): string {
  const filled = route
    .split("/")
    .map((segment) => {
      const name = /^\[(?:\.\.\.)?(.+)\]$/.exec(segment)?.[1];
      if (!name) return segment;
      const v = set[name]!;
      return Array.isArray(v) ? v.map(encodeURIComponent).join("/") : encodeURIComponent(v);
    })
    .join("/");
  return `/api/${filled}`.replace(/\/$/, "");
}

/** A body's text; an event stream's first events only (it does not end by itself). */
export async function bodyText(response: Response): Promise<string> {
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return response.text();
  const reader = response.body!.getReader();
  const { value: chunk } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(chunk);
}

/** The queries each GET route is called with ("" alone when absent): enough for a 200 with the thread's text. */
export const SAMPLE_QUERIES: Record<string, string[]> = {
  threads: ["", "?q=deploy", "?limit=100"],
  "threads/[id]/turns": ["?limit=100", "?from=3&limit=2"],
  "threads/[id]/turns/[index]": [""],
  "threads/[id]/context": ["?model=gpt-4o", "?model=gpt-4o&mode=pal", "?contextWindow=200000&perTurn=1"],
  "threads/[id]/find": ["?q=export", "?q=token"],
  search: ["?q=export", "?q=token", "?q=deploy&limit=100"],
  "threads/[id]/export": [
    "?redact=1",
    "?redact=1&chain=1",
    "",
    "?chain=1",
    "?format=html",
    "?format=md&chain=1&subagents=1",
    "?format=html&redact=0",
  ],
  "threads/[id]/handoff": ["", "?chain=1&model=gpt-4o"],
  secrets: ["", "?limit=500"],
  insights: ["", "?since=2000-01-01"],
};

/** A valid request to each write that takes a JSON object, by "METHOD route": its body, and its query when it needs one. */
export function sampleWrites(ids: { threadId: string; turnId: string }): Record<string, { body: Record<string, unknown>; query?: string }> {
  const { threadId, turnId } = ids;
  return {
    "POST threads": { body: { toolName: "chat", title: "A title", parentThreadId: threadId } },
    "POST threads/[id]/turns": { body: { role: "user", content: "hello", toolName: "chat", modelName: "gpt-4o", files: ["a.ts"] } },
    "POST threads/[id]/continue": { body: { toolName: "analyze", prompt: "Go on.", model: "gpt-4o" } },
    "POST threads/[id]/messages": { body: { content: "hello", model: "openai:gpt-4o" }, query: "?stream=0" },
    "POST threads/[id]/forks": { body: { atTurn: 0 } },
    "POST threads/[id]/compactions": { body: { strategy: "full", targetModel: "gpt-4o", instructions: "Keep it short." } },
    "POST threads/[id]/compaction-jobs": { body: { strategy: "full", targetModel: "gpt-4o" } },
    "PUT threads/[id]/secret-settings": { body: { sendToModels: false } },
    "POST threads/[id]/export": { body: { format: "html", password: "a long passphrase" } },
    "POST secrets/reveal": { body: { threadId, turnId, fingerprint: "abcd" } },
    "POST secrets/redact": { body: { threadId, turnId, fingerprint: "0123456789ab", confirm: true } },
    "POST sources/sync": { body: {} },
    "POST tokens": { body: { name: "ci" } },
    "POST threads/[id]/shares": { body: { expiresInHours: 24, subagents: false } },
    "PUT threads/[id]/visibility": { body: { visibility: "team" } },
    "PUT visibility/default": { body: { visibility: "team" } },
    "PUT visibility/projects": { body: { project: "/work/a-project", visibility: "team" } },
    "POST push": {
      body: {
        machine: "mia-laptop",
        home: "/home/mia",
        files: [{ path: ".claude/projects/p/s.jsonl", base: 0, from: 0, to: 3, sha256: "0".repeat(64), content: "e30K", complete: true }],
      },
    },
  };
}

/** Writes whose body is not a JSON object of fields ("METHOD route"), and what they take instead. */
export const WRITES_WITHOUT_FIELDS: Record<string, string> = {
  "POST import": "a file: a transcript, or Threadline documents",
  "POST mcp": "JSON-RPC messages; each tool's arguments are fields of their own",
  "POST auth/[...all]": "Better Auth's endpoints (sign-in is off in tests)",
  "POST [...path]": "nothing: no endpoint",
  "PUT [...path]": "nothing: no endpoint",
  "PATCH [...path]": "nothing: no endpoint",
  "OPTIONS [...path]": "nothing: no endpoint",
};

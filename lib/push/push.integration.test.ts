/**
 * `threadline push` (issue 39) as a team uses it: the real command (scripts/push.mjs, in child
 * processes with homes of their own) pushing to the production build (scripts/server.mjs, sign-in
 * on) on the test file's database, SQLite or PostgreSQL. Two people push their laptops; each sees
 * only their own threads until one shares, a viewer may not push, an admin's figures per person
 * are the sum of each person's own; a re-run sends nothing; a push killed half-way and started
 * again leaves exactly the turns the files hold; and the raw secret in a session is nowhere in the
 * server's database or its copies of the files.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFor, resetAuthForTests } from "@/lib/auth/server";
import { db } from "@/lib/db/engine/client";
import { startBuiltServer, type BuiltServer } from "@/lib/testing/built-server";
import { writeClaudeCodeSession } from "@/lib/testing/claude-code-session";
import { restoreServerEnv, setServerEnv } from "@/lib/testing/integration";
import { REAL_TRANSCRIPTS } from "@/lib/testing/real-transcripts";
import { CLAUDE_CODE_FIXTURES } from "@/lib/testing/sources-home";
import { ON_POSTGRES } from "@/lib/testing/source-sync";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const ADMIN = { email: "ada@team.test", password: "ada's admin password" };
const SECRET = `ghp_${"Zq9Xw8Vu7T".repeat(4).slice(0, 36)}`;

let work = "";
let server: BuiltServer;
let serverEnv: Record<string, string>;
const homes = { mia: "", noor: "", vic: "", desk: "" };
const tokens = {} as Record<"mia" | "noor" | "vic", string>;
const cookies = {} as Record<"admin" | "mia" | "noor" | "vic", string>;

async function api<T>(
  method: string,
  where: string,
  who: { cookie?: string; token?: string },
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${server.url}${where}`, {
    method,
    headers: {
      origin: server.url,
      ...(who.cookie && { cookie: who.cookie }),
      ...(who.token && { authorization: `Bearer ${who.token}` }),
      ...(body !== undefined && { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as T };
}

async function signIn(email: string, password: string): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { origin: server.url, "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))!
    .split(";")[0]!;
}

/** Starts `threadline push` from a clone, as `npm run push --` does, with `home` as its home folder. */
function startPush(
  home: string,
  token: string,
  args: string[],
): { child: ChildProcess; done: Promise<{ code: number | null; output: string }>; output: () => string } {
  // NODE_ENV unset, as in a shell.
  const env = { PATH: process.env.PATH, HOME: home } as unknown as NodeJS.ProcessEnv;
  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "push.mjs"), "--server", server.url, "--token", token, ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on("exit", (code) => resolve({ code, output })));
  return { child, done, output: () => output };
}

const push = (home: string, token: string, args: string[]) => startPush(home, token, args).done;

/** The transcript files under a home folder, counted apart from push's own walk. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

type Listed = { items: { id: string; machine: string | null }[] };
async function listOf(token: string): Promise<Listed["items"]> {
  const { status, json } = await api<Listed>("GET", "/api/threads?limit=100", { token });
  expect(status, JSON.stringify(json)).toBe(200);
  return json.items;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), "threadline-push-"));
  serverEnv = {
    DATABASE_URL: process.env.DATABASE_URL!,
    THREADLINE_AUTH: "on",
    THREADLINE_ADMIN_EMAIL: ADMIN.email,
    THREADLINE_ADMIN_PASSWORD: ADMIN.password,
    THREADLINE_SOURCES: "off",
    THREADLINE_PUSH_DIR: path.join(work, "pushed"),
    // Small requests, so that a push of a few megabytes takes many (and can be cut between them).
    THREADLINE_MAX_BODY_BYTES: String(1024 * 1024),
    HOME: path.join(work, "server-home"),
  };
  server = await startBuiltServer(serverEnv);
  // Mia's laptop: the real Claude Code sessions, one with a token pasted in a prompt.
  homes.mia = path.join(work, "mia");
  cpSync(CLAUDE_CODE_FIXTURES, path.join(homes.mia, ".claude", "projects"), { recursive: true });
  const demo = path.join(homes.mia, ".claude", "projects", "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
  const last = JSON.parse(readFileSync(demo, "utf8").trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
  appendFileSync(
    demo,
    `${JSON.stringify({ ...last, type: "user", uuid: "5d0c1e52-6a8f-4f0e-9d4b-2f1c3b4a5e6f", parentUuid: last.uuid, message: { role: "user", content: `deploy with ${SECRET}` } })}\n`,
  );
  // Noor's: the real Codex sessions. Vic's: one session.
  homes.noor = path.join(work, "noor");
  cpSync(path.join(REAL_TRANSCRIPTS, "codex", "sessions"), path.join(homes.noor, ".codex", "sessions"), { recursive: true });
  homes.vic = path.join(work, "vic");
  cpSync(path.join(CLAUDE_CODE_FIXTURES, "-path-to-Demo"), path.join(homes.vic, ".claude", "projects", "-path-to-Demo"), {
    recursive: true,
  });

  cookies.admin = await signIn(ADMIN.email, ADMIN.password);
  setServerEnv({
    THREADLINE_AUTH: "on",
    THREADLINE_ADMIN_EMAIL: ADMIN.email,
    THREADLINE_ADMIN_PASSWORD: ADMIN.password,
    THREADLINE_SOURCES: "off",
  });
  resetAuthForTests();
  for (const [name, role] of [
    ["mia", "member"],
    ["noor", "member"],
    ["vic", "viewer"],
  ] as const) {
    const email = `${name}@team.test`;
    const password = `${name}'s long password`;
    // As Settings' People form makes a person (a server action; the admin plugin's endpoints are not served over HTTP).
    await (
      await authFor(false)
    ).api.createUser({ body: { email, password, name, role: role as "member" }, headers: new Headers({ cookie: cookies.admin }) });
    cookies[name] = await signIn(email, password);
    const token = await api<{ token: string }>("POST", "/api/tokens", { cookie: cookies[name] }, { name: "laptop" });
    expect(token.status).toBe(201);
    tokens[name] = token.json.token;
  }
}, 600_000);

afterAll(async () => {
  restoreServerEnv();
  resetAuthForTests();
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("threadline push", () => {
  it("pushes each laptop's sessions as its person's, private to them", async () => {
    const mia = await push(homes.mia, tokens.mia, ["--once", "--machine", "mia-laptop"]);
    expect(mia.output).toContain(`sent ${filesUnder(homes.mia).length} files`);
    expect(mia.output).toContain("0 failed");
    expect(mia.code, mia.output).toBe(0);
    const noor = await push(homes.noor, tokens.noor, ["--once", "--machine", "noor-laptop"]);
    expect(noor.code, noor.output).toBe(0);
    expect(noor.output).toContain(`sent ${filesUnder(homes.noor).length} files`);

    const mias = await listOf(tokens.mia);
    const noors = await listOf(tokens.noor);
    // A thread (at least) per session file; none in both lists.
    expect(mias.length).toBeGreaterThanOrEqual(filesUnder(homes.mia).filter((file) => !file.includes("/subagents/")).length);
    expect(noors.length).toBe(filesUnder(homes.noor).length);
    expect(mias.filter((t) => noors.some((n) => n.id === t.id))).toEqual([]);
    expect(new Set(mias.map((t) => t.machine))).toEqual(new Set(["mia-laptop"]));
    expect(new Set(noors.map((t) => t.machine))).toEqual(new Set(["noor-laptop"]));
    expect((await api("GET", `/api/threads/${mias[0]!.id}`, { token: tokens.noor })).status).toBe(404);
    expect(await listOf(tokens.vic)).toEqual([]);
  });

  it("gives an admin every person's figures, each equal to the person's own", async () => {
    type Usage = {
      totals: { responses: number; costUsd: number; threads: number };
      rows: { key: string; title?: string | null; responses: number; costUsd: number }[];
    };
    const range = "since=2024-01-01&until=2026-12-31&tz=UTC";
    const own = async (token: string) => (await api<Usage>("GET", `/api/usage?${range}`, { token })).json.totals;
    const [mia, noor] = [await own(tokens.mia), await own(tokens.noor)];
    expect(mia.responses).toBeGreaterThan(0);
    expect(noor.responses).toBeGreaterThan(0);
    const team = (await api<Usage>("GET", `/api/usage?${range}&groupBy=person`, { cookie: cookies.admin })).json;
    const rowOf = (name: string) => team.rows.find((row) => row.title === name);
    expect(rowOf("mia")).toMatchObject({ responses: mia.responses });
    expect(rowOf("mia")!.costUsd).toBeCloseTo(mia.costUsd, 9);
    expect(rowOf("noor")).toMatchObject({ responses: noor.responses });
    expect(rowOf("noor")!.costUsd).toBeCloseTo(noor.costUsd, 9);
    expect(team.totals.responses).toBe(mia.responses + noor.responses);
    expect(team.totals.costUsd).toBeCloseTo(mia.costUsd + noor.costUsd, 9);
    const machines = (await api<Usage>("GET", `/api/usage?${range}&groupBy=machine`, { cookie: cookies.admin })).json.rows;
    expect(machines.map((row) => row.key).sort()).toEqual(["mia-laptop", "noor-laptop"]);
    // /insights groups them the same way: each machine's responses are its pusher's.
    type Insights = { machines: { machine: string; responses: number }[] };
    const insights = (await api<Insights>("GET", `/api/insights?${range}`, { cookie: cookies.admin })).json;
    expect(Object.fromEntries(insights.machines.map((row) => [row.machine, row.responses]))).toEqual({
      "mia-laptop": mia.responses,
      "noor-laptop": noor.responses,
    });
  });

  it("shows a thread its owner shares to the team and to viewers; a viewer may not push", async () => {
    const mias = await listOf(tokens.mia);
    // Shared with the team, one of Mia's threads is Noor's and Vic's to read.
    expect((await api("PUT", `/api/threads/${mias[0]!.id}/visibility`, { cookie: cookies.mia }, { visibility: "team" })).status).toBe(200);
    expect((await listOf(tokens.noor)).map((t) => t.id)).toContain(mias[0]!.id);
    expect((await listOf(tokens.vic)).map((t) => t.id)).toEqual([mias[0]!.id]);

    const vic = await push(homes.vic, tokens.vic, ["--once"]);
    expect(vic.code).toBe(1);
    expect(vic.output).toContain("A viewer cannot push");
    expect(vic.output).not.toContain(tokens.vic);
  });

  it("sends nothing when run again, and changes nothing the server holds", async () => {
    const before = await (await db()).pushedFile.findMany({ orderBy: [{ machine: "asc" }, { path: "asc" }] });
    const again = await push(homes.mia, tokens.mia, ["--once", "--machine", "mia-laptop"]);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain(`sent 0 files (0 KB, secrets redacted), ${filesUnder(homes.mia).length} files unchanged`);
    expect(await (await db()).pushedFile.findMany({ orderBy: [{ machine: "asc" }, { path: "asc" }] })).toEqual(before);
  });

  it("keeps following: a line an agent appends reaches the server within seconds, redacted", async () => {
    const turnsFrom = async (machine: string) => (await db()).turn.count({ where: { thread: { machine } } });
    const before = await turnsFrom("mia-laptop");
    const following = startPush(homes.mia, tokens.mia, ["--machine", "mia-laptop", "--interval", "1"]);
    try {
      // Its first pass has found every file as the server holds it: what follows is a later pass's.
      while (!following.output().includes("files unchanged") && following.child.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const demo = path.join(homes.mia, ".claude", "projects", "-path-to-Demo", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl");
      const last = JSON.parse(readFileSync(demo, "utf8").trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
      const token = `xoxb-${"1234567890-".repeat(2)}${"aBcDeFgHiJkLmNoP".repeat(2)}`;
      appendFileSync(
        demo,
        `${JSON.stringify({ ...last, uuid: "6e1d2f63-7b9a-4a1f-8e5c-3a2b4c5d6e7f", parentUuid: last.uuid, message: { role: "user", content: `and the slack bot ${token}` } })}\n`,
      );
      const started = Date.now();
      while ((await turnsFrom("mia-laptop")) === before && Date.now() - started < 30_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(
        await turnsFrom("mia-laptop"),
        `no new turn within 30 s; the push said:\n${(following.child.kill(), await following.done).output}`,
      ).toBe(before + 1);
      const added = await (await db()).turn.findFirst({ where: { content: { contains: "and the slack bot" } }, select: { content: true } });
      expect(added?.content).toMatch(/^and the slack bot \[REDACTED:slack-token:[0-9a-f]+\]$/);
    } finally {
      following.child.kill();
      await following.done;
    }
  });

  it("keeps the raw secret out of the server's database and its copies of the files", async () => {
    const copies = filesUnder(path.join(work, "pushed"));
    expect(copies.length).toBe(filesUnder(homes.mia).length + filesUnder(homes.noor).length);
    const copied = copies.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(copied).toContain("deploy with [REDACTED:github-token:");
    expect(copied).not.toContain(SECRET);
    const database = ON_POSTGRES
      ? execFileSync("pg_dump", ["--data-only", process.env.DATABASE_URL!], { maxBuffer: 512 * 1024 * 1024 }).toString("utf8")
      : ["", "-wal"]
          .map((suffix) => process.env.DATABASE_URL!.slice("file:".length) + suffix)
          .filter((file) => statSync(file, { throwIfNoEntry: false }))
          .map((file) => readFileSync(file).toString("latin1"))
          .join("\n");
    expect(database).toContain("deploy with [REDACTED:github-token:");
    expect(database).not.toContain(SECRET);
  });

  it("leaves out a line no request can carry, says so, and sends the rest of its file", async () => {
    const home = path.join(work, "long-line");
    const file = path.join(home, ".claude", "projects", "-home-mia-long", "session.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    const session = writeClaudeCodeSession(file, 100_000, 7);
    const last = JSON.parse(readFileSync(file, "utf8").trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
    const line = (uuid: string, parentUuid: unknown, content: string) =>
      `${JSON.stringify({ ...last, type: "user", uuid, parentUuid, message: { role: "user", content } })}\n`;
    // 1.5 MB of pasted log, more than a request of this server (1 MB) holds, then one more prompt.
    appendFileSync(file, line("7f2e3a74-8cab-4b20-9f6d-4b3c5d6e7f80", last.uuid, "log ".repeat(400_000)));
    appendFileSync(file, line("8a3f4b85-9dbc-4c31-a07e-5c4d6e7f8091", "7f2e3a74-8cab-4b20-9f6d-4b3c5d6e7f80", "and after the log?"));
    const run = await push(home, tokens.mia, ["--once", "--machine", "long-line"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/left out: .*session\.jsonl: a line of 1\.5 MB at byte \d+ is more than the server takes in one request/);
    const thread = await (
      await db()
    ).thread.findFirst({ where: { machine: "long-line" }, select: { _count: { select: { turns: true } } } });
    expect(thread?._count.turns).toBe(session.turns + 1);
    expect(await (await db()).turn.count({ where: { content: "and after the log?" } })).toBe(1);
  });

  it("leaves exactly the files' turns after a push killed half-way and started again", async () => {
    homes.desk = path.join(work, "desk");
    const folder = path.join(homes.desk, ".claude", "projects", "-home-mia-work");
    mkdirSync(folder, { recursive: true });
    // 16 sessions of 150 KB, sent a few to a request of at most 0.7 MB, and one of 2.5 MB sent in
    // several (the walk goes by name): what each should hold, as written.
    const names = [...Array.from({ length: 16 }, (_, i) => `session-${String(i).padStart(2, "0")}.jsonl`), "session-99.jsonl"];
    const sessions = names.map((name, seed) =>
      writeClaudeCodeSession(path.join(folder, name), name === "session-99.jsonl" ? 2_500_000 : 150_000, seed + 100),
    );
    const threadsStored = async () => (await db()).thread.count({ where: { machine: "desk" } });
    const filesAcknowledged = async () => (await db()).pushedFile.count({ where: { machine: "desk" } });
    const pushUntil = async (ready: () => Promise<boolean>) => {
      const run = startPush(homes.desk, tokens.mia, ["--once", "--machine", "desk"]);
      while (!(await ready()) && run.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
      return run;
    };
    // The server crashes as the push's first thread is stored: its batch written and imported in
    // part, nothing of it acknowledged. It starts again on the same database and folder.
    const first = await pushUntil(async () => (await threadsStored()) > 0);
    await server.crash();
    first.child.kill("SIGKILL");
    expect((await first.done).code).toBeNull();
    server = await startBuiltServer(serverEnv);
    // Then the push is killed once the server has acknowledged files: each run goes on from there.
    const second = await pushUntil(async () => (await filesAcknowledged()) > 0);
    second.child.kill("SIGKILL");
    const killed = await second.done;
    expect(killed.code, `it finished before it was killed:\n${killed.output}`).toBeNull();

    const rest = await push(homes.desk, tokens.mia, ["--once", "--machine", "desk"]);
    expect(rest.code, rest.output).toBe(0);
    // The last run sends what the others did not get acknowledged, not everything again.
    const [, amount, unit] = /sent \d+ files? \((\d+(?:\.\d+)?) (KB|MB)/.exec(rest.output) ?? [];
    const resent = Number(amount) * (unit === "MB" ? 1024 * 1024 : 1024);
    const whole = sessions.reduce((sum, session) => sum + Math.ceil(session.bytes / 3) * 4, 0);
    expect(resent).toBeGreaterThan(0);
    expect(resent).toBeLessThan(whole * 0.95);

    const threads = await (
      await db()
    ).thread.findMany({ where: { machine: "desk" }, select: { title: true, _count: { select: { turns: true } } } });
    expect(threads.length).toBe(sessions.length);
    expect(threads.map((t) => t._count.turns).sort((a, b) => a - b)).toEqual(sessions.map((s) => s.turns).sort((a, b) => a - b));
    // The server's copies hold each file's bytes once (nothing to redact in these).
    for (const file of names) {
      const name = `.claude/projects/-home-mia-work/${file}`;
      const copy = filesUnder(path.join(work, "pushed")).find((file) => file.endsWith(`/desk/${name}`))!;
      expect(readFileSync(copy).equals(readFileSync(path.join(homes.desk, name))), name).toBe(true);
    }
    const again = await push(homes.desk, tokens.mia, ["--once", "--machine", "desk"]);
    expect(again.output).toContain("sent 0 files");
  });
});

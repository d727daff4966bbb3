// `threadline push` (issue 39): a laptop's ~/.claude/projects of 2,000 sessions (x BENCH_SCALE, the
// first-sync section's folder) pushed to a server with sign-in on, on a fresh SQLite database of
// its own: the first push (every file sent, written, imported, acknowledged), a second run that
// finds nothing to send, and while following, how long a line appended to a session takes to be a
// turn on the server.
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { migrateDatabase } from "../../../lib/db/engine/migrate";
import { importedThreadId } from "../../../lib/importers/stable-id";
import { writeClaudeCodeFolder } from "../../../lib/testing/claude-code-folder";
import { root } from "../../lib.mjs";
import { BENCH_DIR, CONFIG, KEEP_DB } from "../config";
import { summarize } from "../measure";
import { Bench, fmtBytes } from "../section";
import { startServer } from "../server";

const DIR = path.join(BENCH_DIR, "push");
const ADMIN = { email: "bench@threadline.test", password: "bench admin password" };
/** A laptop's environment: its home folder, nothing of the bench's (NODE_ENV unset, as in a shell). */
const laptop = (home: string) => ({ PATH: process.env.PATH, HOME: home }) as unknown as NodeJS.ProcessEnv;
const APPENDS = 10;

/** Runs `threadline push` from this clone with `home` as its home folder; its output and how long it took. */
function runPush(home: string, args: string[]): Promise<{ seconds: number; output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [path.join(root, "scripts", "push.mjs"), ...args], {
      cwd: root,
      env: laptop(home),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ seconds: (performance.now() - started) / 1000, output, code }));
  });
}

export async function sectionPush(bench: Bench): Promise<void> {
  rmSync(DIR, { recursive: true, force: true });
  const home = path.join(DIR, "home");
  const count = Math.max(20, Math.round(CONFIG.firstSyncSessions * CONFIG.scale));
  const folder = writeClaudeCodeFolder(path.join(home, ".claude", "projects"), count, { days: 60 });
  const url = `file:${path.join(DIR, "threadline.db")}`;
  mkdirSync(DIR, { recursive: true });
  migrateDatabase(url, root);
  const server = await startServer(url, {
    env: {
      THREADLINE_AUTH: "on",
      THREADLINE_ADMIN_EMAIL: ADMIN.email,
      THREADLINE_ADMIN_PASSWORD: ADMIN.password,
      THREADLINE_PUSH_DIR: path.join(DIR, "pushed"),
    },
    logFile: path.join(DIR, "server.log"),
    readyPath: "/login",
  });
  try {
    const origin = { origin: server.baseUrl, "content-type": "application/json" };
    const signIn = await fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: origin,
      body: JSON.stringify(ADMIN),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith("better-auth.session_token="))!
      .split(";")[0]!;
    const made = await fetch(`${server.baseUrl}/api/tokens`, { method: "POST", headers: { ...origin, cookie }, body: '{"name":"bench"}' });
    const { token } = (await made.json()) as { token: string };
    const args = ["--server", server.baseUrl, "--token", token, "--machine", "bench-laptop"];

    const first = await runPush(home, [...args, "--once"]);
    if (first.code !== 0 || !first.output.includes(`sent ${folder.files.length.toLocaleString("en-US")} files`))
      throw new Error(`push: the first push did not send every file:\n${first.output.slice(-2000)}`);
    bench.record({
      section: "push",
      name: `first push of ${folder.files.length} files (MB/s)`,
      value: folder.bytes / 1024 / 1024 / first.seconds,
      unit: "MB/s",
      note: `${fmtBytes(folder.bytes)} (${count} sessions and their sub-agent files) sent, redacted, written, imported and acknowledged in ${first.seconds.toFixed(1)} s`,
    });
    const again = await runPush(home, [...args, "--once"]);
    if (!again.output.includes("sent 0 files")) throw new Error(`push: the second run sent something:\n${again.output}`);
    bench.record({
      section: "push",
      name: `a second push, ${folder.files.length} files unchanged (s)`,
      value: again.seconds,
      unit: "s",
      note: "every file read and hashed on the laptop, one request to the server, nothing sent",
    });

    // Following: a line appended to the newest session, until the server's thread has it.
    const threadId = importedThreadId("claude-code", folder.newestSession);
    const session = folder.files.find((file) => file.endsWith(`${folder.newestSession}.jsonl`))!;
    const turns = async () =>
      (
        (await (
          await fetch(`${server.baseUrl}/api/threads/${threadId}/live`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as {
          turnCount: number;
        }
      ).turnCount;
    const following = spawn(process.execPath, [path.join(root, "scripts", "push.mjs"), ...args, "--interval", "1"], {
      cwd: root,
      env: laptop(home),
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      // Its first pass reads every file once and reports; the appends are timed after it.
      await new Promise<void>((resolve, reject) => {
        let said = "";
        following.stdout.on("data", (chunk: Buffer) => {
          said += chunk.toString();
          if (/unchanged/.test(said)) resolve();
        });
        following.on("exit", () => reject(new Error(`push: following stopped:\n${said}`)));
      });
      const samples: number[] = [];
      for (let i = 0; i < APPENDS; i++) {
        const before = await turns();
        const last = JSON.parse(readFileSync(session, "utf8").trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
        const line = {
          ...last,
          type: "user",
          uuid: crypto.randomUUID(),
          parentUuid: last.uuid,
          message: { role: "user", content: `ping ${i}` },
        };
        const started = performance.now();
        appendFileSync(session, `${JSON.stringify(line)}\n`);
        while ((await turns()) === before) {
          if (performance.now() - started > 60_000) throw new Error("push: an appended line did not reach the server within 60 s");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        samples.push(performance.now() - started);
      }
      const stats = summarize(samples);
      bench.record({
        section: "push",
        name: "a line appended to a session, until it is a turn on the server (ms)",
        value: stats.p50,
        unit: "ms",
        note: `p50 of ${APPENDS}, p95 ${stats.p95.toFixed(0)} ms, while following with --interval 1 (a pass at most every second)`,
      });
    } finally {
      following.kill();
    }
  } finally {
    await server.stop();
    if (!KEEP_DB) rmSync(DIR, { recursive: true, force: true });
  }
}

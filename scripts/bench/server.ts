import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { root } from "../lib.mjs";
import { CONFIG, SERVER_LOG } from "./config";
import { groupRss, sampleGroup } from "./process-group";

// ---------------------------------------------------------------------------------------------
// The production server
// ---------------------------------------------------------------------------------------------

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no server log)";
  }
}

export type Server = { baseUrl: string; child: ChildProcess; stop: () => Promise<void> };
/** The servers started and not stopped yet (the bench's own, and a section's second one). */
const runningServers = new Set<ChildProcess>();

/** Kills one server's whole process group (it was started detached, as its group leader). */
function killOne(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** Kills every server still running. */
export function killServer(signal: NodeJS.Signals): void {
  for (const child of runningServers) killOne(child, signal);
}

process.on("exit", () => killServer("SIGKILL"));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    killServer("SIGTERM");
    process.exit(130);
  });
}

/**
 * `next start` on `databaseUrl`. `env` adds to (or overrides) the server's environment, and
 * `logFile` is where its output goes (SERVER_LOG unless given): a section may start a second
 * server of its own, following a folder, say. It is ready when `readyPath` answers 200 (a server
 * with sign-in on answers /login).
 */
export async function startServer(
  databaseUrl: string,
  {
    env = {},
    logFile = SERVER_LOG,
    readyPath = "/api/threads?limit=1",
  }: { env?: Record<string, string>; logFile?: string; readyPath?: string } = {},
): Promise<Server> {
  const port = await freePort();
  const log = openSync(logFile, "w");
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const child = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: root,
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      MAX_CONVERSATION_TURNS: String(CONFIG.maxConversationTurns),
      CONVERSATION_TIMEOUT_HOURS: "0",
      // The bench's database holds the fill only: the user's own agent folders are not followed.
      THREADLINE_SOURCES: "off",
      ...env,
    },
  });
  closeSync(log);
  runningServers.add(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      killOne(child, "SIGTERM");
      const timer = setTimeout(() => killOne(child, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    runningServers.delete(child);
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`next start exited (${child.exitCode ?? child.signalCode}) before it was ready. Log:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(`${baseUrl}${readyPath}`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start was not ready within 90 s. Log:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, child, stop };
}

/** A running `npm start`: its process group (led by npm), where it listens, and its peak group RSS so far. */
export type NpmStart = {
  child: ChildProcess;
  baseUrl: string;
  /** performance.now() when npm was spawned. */
  startedAt: number;
  peakBytes: () => number;
  /** Whether npm (the group's leader) has ended. */
  exited: () => boolean;
  /** Stops sampling and ends the whole group (SIGTERM, SIGKILL after 10 s), waiting until none of it is left. */
  stop: () => Promise<void>;
};

/**
 * `npm start` as a person runs it, in a process group of its own so its memory and CPU can be
 * read as a whole, with output to `logFile`. `env` adds to the environment (DATABASE_URL, the
 * folders to follow, HOME).
 */
export async function startNpmStart(env: Record<string, string>, logFile: string): Promise<NpmStart> {
  const port = await freePort();
  const log = openSync(logFile, "a");
  const startedAt = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  closeSync(log);
  const sampler = sampleGroup(child.pid!);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group has ended
    }
  };
  const stop = async () => {
    sampler.stop();
    signalGroup("SIGTERM");
    // The group's last processes (Next.js after npm) may outlive npm by a moment.
    const killAt = Date.now() + 10_000;
    while (groupRss(child.pid!) > 0) {
      if (Date.now() > killAt) signalGroup("SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { child, baseUrl: `http://127.0.0.1:${port}`, startedAt, peakBytes: sampler.peakBytes, exited, stop };
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers
// ---------------------------------------------------------------------------------------------

export async function getJson<T>(baseUrl: string, pathname: string): Promise<T> {
  const res = await fetch(baseUrl + pathname);
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${pathname} -> ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Whether the server's scan for secrets has read every turn stored (GET /api/secrets's scan status). */
async function scanCaughtUp(baseUrl: string): Promise<boolean> {
  const { scan } = await getJson<{ scan: { scannedSeq: number; lastSeq: number; running: boolean } }>(baseUrl, "/api/secrets?limit=1");
  return !scan.running && scan.scannedSeq >= scan.lastSeq;
}

/**
 * Waits until a server has caught up with the database it started on: the secret scan over every
 * turn, and the usage sums (a report waits for them). A new database's catch-up is a one-time
 * cost; a section measured during it measured the catch-up instead. Answers the seconds waited.
 */
export async function caughtUp(baseUrl: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await scanCaughtUp(baseUrl))) {
    if (performance.now() - started > timeoutMs) throw new Error(`the server's secret scan had not caught up after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // A report waits for the sums; over a large new database that outlasts fetch's 300 s wait for
  // the answer's head (a million turns on PostgreSQL), so it is asked again (it joins the pass).
  for (;;) {
    try {
      await getBody(baseUrl, "/api/usage?groupBy=day");
      break;
    } catch (error) {
      if (performance.now() - started > timeoutMs) throw error;
      console.log(`[bench] the usage report did not answer (${(error as Error).message}); asking again`);
    }
  }
  return (performance.now() - started) / 1000;
}

/** GET that answers only the status (the body read and dropped). */
export async function getStatus(baseUrl: string, pathname: string): Promise<number> {
  const res = await fetch(baseUrl + pathname);
  await res.arrayBuffer();
  return res.status;
}

/** GET that reads the whole body (the time a client waits) and returns its size in bytes. */
export async function getBody(baseUrl: string, pathname: string): Promise<number> {
  const res = await fetch(baseUrl + pathname);
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${pathname} -> ${res.status}: ${Buffer.from(body).toString("utf8").slice(0, 300)}`);
  return body.byteLength;
}

export async function postJson<T>(baseUrl: string, pathname: string, body: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(baseUrl + pathname, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}

export type ApiThread = { id: string; turnCount: number; tokenEstimate: number };
export type ApiTurn = { id: string; index: number; content: string; tokenEstimate: number };

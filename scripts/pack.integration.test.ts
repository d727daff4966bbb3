/**
 * The package `npm run pack` makes (scripts/pack.mjs), as a user gets it: `npx <tarball> serve` in
 * an empty folder, with an empty HOME and XDG_DATA_HOME and npm offline, until GET /api/threads
 * answers 200; and what the tarball must not hold. It packs the production build that `npm test`
 * makes for the end-to-end suite before this runs (scripts/test.mjs); run alone with no current
 * build, packing builds first (a few minutes).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/testing/built-server";
import { ON_POSTGRES } from "@/lib/testing/source-sync";

const ROOT = path.resolve(import.meta.dirname, "..");
/** The brief's bound for a first start from the tarball, install included. */
const SERVES_WITHIN_MS = 60_000;

let work = "";
let tarball = "";
let entries: string[] = [];
let server: ChildProcess | null = null;
let output = "";
let servedPort = 0;

/** The environment of someone who has nothing: no HOME contents, no data folder, npm offline. */
function emptyEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: path.join(work, "home"),
    XDG_DATA_HOME: path.join(work, "data"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    ...extra,
  };
  // NODE_ENV unset, as in a shell: Next.js's types declare it always set.
  return env as NodeJS.ProcessEnv;
}

/** GET /api/threads with the Host header a browser would send; the status, or 0 when nothing answers. */
function threadsStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/api/threads?limit=1", headers: { Host: `127.0.0.1:${port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on("error", () => resolve(0));
    request.setTimeout(5_000, () => request.destroy());
  });
}

/** The installed package's folder, under npx's cache in the empty HOME (which also holds the push package's install). */
function installed(): string {
  const npx = path.join(work, "home", ".npm", "_npx");
  const hash = readdirSync(npx).find((entry) => existsSync(path.join(npx, entry, "node_modules", "threadline", "package.json")))!;
  return path.join(npx, hash, "node_modules", "threadline");
}

// The package serves SQLite: the PostgreSQL pass would pack it again for nothing.
describe.skipIf(ON_POSTGRES)("the package", () => {
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), "threadline-pack-"));
    const env = { ...process.env };
    // Vitest's test settings are not a user's: the build runs as `npm run pack` would.
    for (const name of ["NODE_ENV", "DATABASE_URL", "VITEST", "VITEST_MODE", "VITEST_POOL_ID", "VITEST_WORKER_ID"]) delete env[name];
    const started = Date.now();
    const said = execFileSync(process.execPath, [path.join(ROOT, "scripts", "pack.mjs"), "--destination", work], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
    console.log(`${said.trim().split("\n").at(-1)} [npm run pack: ${((Date.now() - started) / 1000).toFixed(1)} s]`);
    tarball = path.join(
      work,
      readdirSync(work).find((name) => /^threadline-\d.*\.tgz$/.test(name))!,
    );
    entries = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
      .trim()
      .split("\n");
  }, 900_000);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      process.kill(-server.pid, "SIGTERM"); // npx, its shell and the server: the group started below
      await exited;
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("holds the build and what runs it, and no sources, tests, fixtures, development packages or secrets", () => {
    expect(entries).toContain("package/dist/.next/BUILD_ID");
    expect(entries).toContain("package/dist/build/workers/parse-worker.cjs");
    expect(entries).toContain("package/dist/build/workers/push.cjs");
    expect(entries).toContain("package/dist/node_modules/better-sqlite3/build/Release/better_sqlite3.node");
    expect(entries).toContain("package/dist/prisma/migrations/20261122000000_init/migration.sql");
    const wrong = entries.filter((entry) =>
      /(^|\/)(fixtures|e2e|\.git)\/|\.(test|spec)\.[cm]?[jt]sx?$|\.tsx?$|\.map$|(^|\/)\.env|(^|\/)\.npmrc$|\.(pem|key)$|id_(rsa|ed25519)/.test(
        entry,
      ),
    );
    expect(wrong).toEqual([]);
    const own = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    const devPackages = Object.keys(own.devDependencies).filter((name) =>
      entries.some((entry) => entry.startsWith(`package/dist/node_modules/${name}/`)),
    );
    expect(devPackages).toEqual([]);
    const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as Record<
      string,
      unknown
    >;
    // Nothing for npm to fetch or build on install.
    expect(manifest).not.toHaveProperty("dependencies");
    expect(manifest).not.toHaveProperty("scripts");
    expect(manifest.bin).toEqual({ threadline: "dist/scripts/threadline.mjs" });
  });

  it(
    "serves from an empty folder with npx, its database in XDG_DATA_HOME/threadline",
    async () => {
      const port = await freePort();
      servedPort = port;
      const folder = path.join(work, "empty");
      mkdirSync(folder);
      const started = Date.now();
      const child = spawn("npx", ["--yes", `file:${tarball}`, "serve"], {
        cwd: folder,
        env: emptyEnvironment({ PORT: String(port) }),
        detached: true, // its own process group, ended whole in afterAll
        stdio: ["ignore", "pipe", "pipe"],
      });
      server = child;
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      let status = 0;
      while (status !== 200 && child.exitCode === null && Date.now() - started < SERVES_WITHIN_MS) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        status = await threadsStatus(port);
      }
      expect(status, output).toBe(200);
      console.log(`npx <tarball> serve: 200 after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const database = path.join(work, "data", "threadline", "threadline.db");
      expect(existsSync(database), output).toBe(true);
      expect(statSync(path.dirname(database)).mode & 0o777).toBe(0o700);
      expect(output).toContain(`[threadline] database: ${database}`);
    },
    SERVES_WITHIN_MS + 30_000,
  );

  it("packs threadline push alone for a laptop of any system: no addon, no platform, and it runs with npx", () => {
    const pushTarball = path.join(
      work,
      readdirSync(work).find((name) => /^threadline-push-.*\.tgz$/.test(name))!,
    );
    const listed = execFileSync("tar", ["-tzf", pushTarball], { encoding: "utf8" }).trim().split("\n").sort();
    expect(listed).toEqual(["package/package.json", "package/push.cjs", "package/threadline-push.cjs"]);
    const manifest = JSON.parse(execFileSync("tar", ["-xzOf", pushTarball, "package/package.json"], { encoding: "utf8" })) as Record<
      string,
      unknown
    >;
    expect(manifest).not.toHaveProperty("os");
    expect(manifest).not.toHaveProperty("cpu");
    expect(manifest).not.toHaveProperty("dependencies");
    const folder = path.join(work, "laptop");
    mkdirSync(folder);
    const help = spawnSync("npx", ["--yes", `file:${pushTarball}`, "--help"], { cwd: folder, env: emptyEnvironment({}), encoding: "utf8" });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain("usage: threadline push --server URL --token TOKEN");
  });

  it("answers --help, pushes to a server, and refuses a machine it was not packed for", () => {
    const bin = path.join(installed(), "dist", "scripts", "threadline.mjs");
    const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { env: emptyEnvironment({ PORT: "1" }), encoding: "utf8" });
    expect(run(["--help"]).stdout).toMatch(/usage: threadline <command>[\s\S]*serve[\s\S]*push/);
    expect(run(["push", "--help"]).stdout).toContain("usage: threadline push --server URL --token TOKEN");
    // The package's server above has sign-in off: the push reaches it, and says why it may not push there.
    const home = path.join(work, "home");
    mkdirSync(path.join(home, ".claude", "projects", "p"), { recursive: true });
    writeFileSync(path.join(home, ".claude", "projects", "p", "s.jsonl"), '{"type":"user"}\n');
    const push = run(["push", "--server", `http://127.0.0.1:${servedPort}`, "--token", "tl_none", "--once"]);
    expect(push.status, push.stdout + push.stderr).toBe(1);
    expect(push.stdout).toContain("Pushing needs sign-in");
    const platform = path.join(installed(), "dist", "platform.json");
    const packed = JSON.parse(readFileSync(platform, "utf8")) as Record<string, string>;
    writeFileSync(platform, JSON.stringify({ ...packed, arch: "arm64", abi: "127", node: "22.0.0" }));
    const refused = run(["serve"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/This package of Threadline is for Linux arm64 \(glibc\) with Node.js 22 .*This machine is Linux x64/);
  });
});

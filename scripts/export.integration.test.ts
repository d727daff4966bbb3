/**
 * `npm run export` on this test file's database (SQLite, or PostgreSQL in the PostgreSQL pass): as
 * users run it (a child process: npm, tsx) where the case is about the process (stdout, --out, exit
 * codes), else its main function in this process (exportMain, all scripts/export.ts runs). It writes the bytes GET /api/threads/:id/export answers for
 * the same options (the route called in this process, on the same database), to stdout or --out;
 * with --password-file, an encrypted page; bad usage is refused naming the option with exit code 2,
 * an unknown thread with 1.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { api, newThread, newTurn } from "@/lib/testing/integration";
import { exportMain } from "./export-main";

const exec = promisify(execFile);
const work = mkdtempSync(path.join(os.tmpdir(), "threadline-export-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const sample = secretSamples(43).find((s) => s.rule === "github-pat")!;

type Run = { code: number; stdout: string; stderr: string };

/** `npm run export -- ...args` as users run it, in a child process. */
async function exportProcess(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await exec("npm", ["run", "--silent", "export", "--", ...args], {
      cwd: process.cwd(),
      env: { ...process.env, NODE_OPTIONS: "" },
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === "number" ? failed.code : -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** The same command in this process: exportMain with the streams collected. */
async function exportCli(...args: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await exportMain(args, { out: (text) => (stdout += text), err: (line) => (stderr += `${line}\n`) });
  return { code, stdout, stderr };
}

async function apiBytes(id: string, query: string): Promise<string> {
  const response = await api.exportThread(id, query);
  expect(response.status).toBe(200);
  return response.text();
}

let root: string;
let leaf: string;

beforeAll(async () => {
  root = (await newThread({ toolName: "chat", title: "CLI first part" })).id;
  await newTurn(root, { role: "user", content: "The first part of the work" });
  leaf = (await newThread({ toolName: "chat", title: "CLI export", parentThreadId: root })).id;
  await newTurn(leaf, { role: "user", content: `Use ${sample.value} to deploy` });
  await newTurn(leaf, { role: "assistant", content: "Deployed with `make release`.", modelName: "claude-sonnet-4-5" });
});

describe("npm run export", () => {
  it("writes the API's bytes: json lossless by default, html and md redacted, to stdout or --out", async () => {
    const cases: [string[], string][] = [
      [[], ""],
      [["--format", "html"], "?format=html"],
      [["--format", "md", "--chain"], "?format=md&chain=1"],
      [["--format", "md", "--no-redact"], "?format=md&redact=0"],
      [["--format", "json", "--redact", "--chain"], "?redact=1&chain=1"],
    ];
    for (const [index, [args, query]] of cases.entries()) {
      const run = await (index === 0 ? exportProcess : exportCli)(leaf, ...args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout, args.join(" ")).toBe(await apiBytes(leaf, query));
    }
    const out = path.join(work, "thread.html");
    const run = await exportProcess(leaf, "--format", "html", "--subagents", "--out", out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    expect(readFileSync(out, "utf8")).toBe(await apiBytes(leaf, "?format=html&subagents=1"));
    expect(readFileSync(out, "utf8")).not.toContain(sample.value);
  }, 120_000);

  it("encrypts the HTML with the password in --password-file", async () => {
    const passwordFile = path.join(work, "password");
    writeFileSync(passwordFile, "a long shared passphrase\n");
    const run = await exportCli(leaf, "--format", "html", "--password-file", passwordFile);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^<!doctype html>/i);
    expect(run.stdout).toContain("PBKDF2-SHA256");
    for (const plain of ["CLI export", "Deployed", "a long shared passphrase"]) expect(run.stdout).not.toContain(plain);
  }, 60_000);

  it("refuses bad usage naming the option (exit 2), and an unknown thread with a sentence (exit 1)", async () => {
    const shortFile = path.join(work, "short");
    writeFileSync(shortFile, "short\n");
    const refusals: [string[], RegExp][] = [
      [[], /<threadId>: give the id/],
      [[leaf, "--colour"], /Unknown option '--colour'/],
      [[leaf, "--format", "pdf"], /--format: must be json, html or md/],
      [[leaf, "--format", "md", "--password-file", shortFile], /--password-file: only --format html/],
      [[leaf, "--password-file", shortFile], /--password-file: only --format html is encrypted, not json/],
      [[leaf, "--format", "html", "--password-file", path.join(work, "missing")], /--password-file: cannot read/],
      [[leaf, "--format", "html", "--password-file", shortFile], /--password-file: the password .* must be 8 to 1024 characters/],
      [[leaf, "--subagents"], /--subagents: applies to --format html and md only/],
      [["not-an-id"], /<threadId>: "not-an-id" is not a thread id/],
    ];
    for (const [index, [args, message]] of refusals.entries()) {
      const run = await (index === 1 ? exportProcess : exportCli)(...args);
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe("");
    }
    const unknown = await exportProcess("00000000-0000-4000-8000-000000000000", "--format", "md");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^export: Thread 00000000-0000-4000-8000-000000000000 not found/m);
    expect(unknown.stdout).toBe("");
  }, 120_000);
});

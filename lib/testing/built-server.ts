/**
 * The production build served as `npm start` serves it (scripts/server.mjs), in a child process on
 * a free port, on the test file's own database: for tests whose other side is a separate program
 * (threadline push). `npm test` builds before Vitest runs; run alone, this builds when the build is
 * missing or older than the sources (minutes).
 */
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export type BuiltServer = {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
  /** Kills it at once (SIGKILL), as a crash or a power cut would stop it. */
  crash: () => Promise<void>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** Starts the build with `env` added to a user's environment (Vitest's own settings left out); resolves once /login answers. */
export async function startBuiltServer(env: Record<string, string>): Promise<BuiltServer> {
  const { ensureBuild } = (await import(path.join(ROOT, "scripts", "lib.mjs"))) as { ensureBuild: () => void };
  ensureBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const base = { ...process.env };
  for (const name of ["NODE_ENV", "VITEST", "VITEST_MODE", "VITEST_POOL_ID", "VITEST_WORKER_ID"]) delete base[name];
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const { serve } = await import("./scripts/server.mjs"); await serve({ dev: false, host: "127.0.0.1", port: ${port} });`,
    ],
    { cwd: ROOT, env: { ...base, NEXT_TELEMETRY_DISABLED: "1", THREADLINE_DEMO_DATA: "off", ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stopWith = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  const stop = () => stopWith("SIGTERM");
  for (const started = Date.now(); ;) {
    if (child.exitCode !== null) throw new Error(`the server stopped (exit ${child.exitCode}):\n${output}`);
    const status = await fetch(`${url}/login`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() - started > 60_000) {
      await stop();
      throw new Error(`the server did not answer within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, output: () => output, stop, crash: () => stopWith("SIGKILL") };
}

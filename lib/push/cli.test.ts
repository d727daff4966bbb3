import { describe, expect, it } from "vitest";
import { describeReport, parsePushArgs } from "./cli";

const parse = (args: string[], env: Record<string, string | undefined> = {}) => parsePushArgs(args, env, "mia-laptop");

describe("threadline push's arguments", () => {
  it("reads the server, token and flags, with the host name as machine and redaction on", () => {
    expect(parse(["--server", "https://team.example", "--token=tl_x", "--once"])).toMatchObject({
      server: new URL("https://team.example"),
      token: "tl_x",
      machine: "mia-laptop",
      once: true,
      redact: true,
      dryRun: false,
      intervalMs: 5000,
    });
    expect(
      parse(["--no-redact", "--dry-run", "--machine", "desk"], { THREADLINE_SERVER: "http://h:3000", THREADLINE_TOKEN: "t" }),
    ).toMatchObject({ machine: "desk", redact: false, dryRun: true });
  });

  it("says which argument is wrong and why", () => {
    expect(parse(["--token", "t"])).toEqual({ error: expect.stringContaining("--server is missing") });
    expect(parse(["--server", "https://h"])).toEqual({ error: expect.stringContaining("--token is missing") });
    expect(parse(["--server", "ftp://h", "--token", "t"])).toEqual({ error: "--server must be an http:// or https:// address" });
    expect(parse(["--server", "not a url", "--token", "t"])).toEqual({ error: expect.stringContaining("is not an address") });
    expect(parse(["--server", "https://h", "--token", "t", "--machine", "a b"])).toEqual({ error: expect.stringContaining("--machine") });
    expect(parse(["--server", "https://h", "--token"])).toEqual({ error: "--token needs a value" });
    expect(parse(["--server", "https://h", "--token", "t", "--interval", "0"])).toEqual({ error: expect.stringContaining("--interval") });
    expect(parse(["--once=yes"])).toEqual({ error: "--once takes no value" });
    expect(parse(["--verbose"])).toEqual({ error: 'unknown argument "--verbose"' });
    expect(parse(["--help"])).toBe("help");
  });

  it("reports counts, then each failure and each file left out", () => {
    const lines = describeReport(
      {
        sent: ["/h/a.jsonl"],
        bytesSent: 2048,
        unchanged: 1200,
        failed: [{ path: "/h/b.jsonl", reason: "not a Claude Code session" }],
        notImported: [],
        leftOut: [{ path: "/h/.local/share/opencode/opencode.db", reason: "not pushed yet" }],
      },
      { dryRun: false, machine: "desk", redact: true },
      "https://team.example",
    );
    expect(lines).toEqual([
      "sent 1 file (2 KB, secrets redacted), 1,200 files unchanged, 1 failed: https://team.example as desk",
      "  failed: /h/b.jsonl: not a Claude Code session",
      "  left out: /h/.local/share/opencode/opencode.db: not pushed yet",
    ]);
  });
});

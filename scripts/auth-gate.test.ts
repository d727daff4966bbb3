import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { authGate } from "./auth-gate.mjs";

describe("npm start's THREADLINE_AUTH check", () => {
  it("lets a loopback server start with sign-in unset, on or off", () => {
    for (const host of ["127.0.0.1", "localhost", "::1"]) {
      for (const auth of [undefined, "on", "off"]) expect(authGate({ host, auth })).toEqual({ ok: true });
    }
  });

  it("refuses a non-loopback address without THREADLINE_AUTH, naming it and both choices", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "threadline.lan"]) {
      const gate = authGate({ host, auth: undefined });
      expect(gate.ok).toBe(false);
      const message = (gate as { message: string }).message;
      expect(message).toContain("THREADLINE_AUTH=on");
      expect(message).toContain("THREADLINE_AUTH=off");
      expect(message).toContain(host);
    }
  });

  it("starts a non-loopback server with THREADLINE_AUTH=on, and with =off set explicitly but with a warning", () => {
    expect(authGate({ host: "0.0.0.0", auth: "on" })).toEqual({ ok: true });
    expect(authGate({ host: "0.0.0.0", auth: "OFF" })).toMatchObject({ ok: true, warning: expect.stringContaining("THREADLINE_AUTH=off") });
  });

  it("refuses a value that is neither on nor off", () => {
    expect(authGate({ host: "127.0.0.1", auth: "yes" })).toMatchObject({ ok: false, message: expect.stringContaining("neither") });
  });

  it("npm start exits with the message before doing any work", () => {
    const result = spawnSync(process.execPath, [path.join("scripts", "start.mjs")], {
      env: { ...process.env, HOST: "0.0.0.0", THREADLINE_AUTH: "" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("THREADLINE_AUTH is not set: refusing to start");
    expect(result.stdout).not.toContain("serving");
  });
});

/**
 * Who may see a secret's value and send a thread's secrets to models, with sign-in on
 * (THREADLINE_AUTH=on): admins. A member (session or API token) gets 403 from the reveal endpoint
 * and from the thread's secret setting, and sees masks only; nothing of a value is logged.
 */
import { db } from "@/lib/db/engine/client";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { GET as exportRoute, POST as encryptedExport } from "@/app/api/threads/[id]/export/route";
import { GET as getSetting, PUT as putSetting } from "@/app/api/threads/[id]/secret-settings/route";
import { POST as createToken } from "@/app/api/tokens/route";
import { POST as redact } from "./redact/route";
import { POST as reveal } from "./reveal/route";
import { authFor, resetAuthForTests } from "@/lib/auth/server";
import { fingerprintOf } from "@/lib/domain/secrets/detect";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { scanForSecrets } from "@/lib/secrets/scan";
import { params } from "@/lib/testing/api";
import { expectError, newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";

const ADMIN = { email: "ada@example.com", password: "correct horse battery staple" };
const MEMBER = { email: "bob@example.com", password: "member password 1" };
const ORIGIN = "http://127.0.0.1:3000";
const logged: string[] = [];
const sample = secretSamples(31).find((s) => s.rule === "github-pat")!;

function request(method: string, pathname: string, headers: Record<string, string> = {}, body?: unknown): NextRequest {
  return new NextRequest(`${ORIGIN}${pathname}`, {
    method,
    headers: { host: "127.0.0.1:3000", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function signIn(person: { email: string; password: string }, ip: string): Promise<string> {
  const response = await authPost(request("POST", "/api/auth/sign-in/email", { "x-threadline-peer": ip }, person));
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))!
    .split(";")[0]!;
}

let admin: string;
let member: string;
let memberToken: string;
let threadId: string;
let turnId: string;

beforeAll(async () => {
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  }
  setServerEnv({
    THREADLINE_AUTH: "on",
    THREADLINE_ADMIN_EMAIL: ADMIN.email,
    THREADLINE_ADMIN_PASSWORD: ADMIN.password,
    THREADLINE_SOURCES: "off",
    THREADLINE_PEER_HEADER: "1",
  });
  resetAuthForTests();
  admin = await signIn(ADMIN, "10.4.0.1");
  await (
    await authFor(false)
  ).api.createUser({
    body: { email: MEMBER.email, password: MEMBER.password, name: "Bob", role: "member" },
    headers: new Headers({ cookie: admin }),
  });
  member = await signIn(MEMBER, "10.4.0.2");
  memberToken = (await (await createToken(request("POST", "/api/tokens", { cookie: member }, { name: "bob's agent" }))).json())
    .token as string;
  // The member's thread; the proxy lets its owner through, and the routes do not ask who appends.
  const thread = await newThread({ toolName: "claude-code" }, { cookie: member });
  threadId = thread.id;
  turnId = (await newTurn(threadId, { role: "user", content: sample.line(sample.value) })).id;
});
afterAll(() => {
  restoreServerEnv();
  resetAuthForTests();
  vi.restoreAllMocks();
});

const revealAs = (headers: Record<string, string>) =>
  reveal(request("POST", "/api/secrets/reveal", headers, { threadId, turnId, fingerprint: fingerprintOf(sample.value).slice(-4) }));
const setAs = (headers: Record<string, string>, body: unknown) =>
  putSetting(request("PUT", `/api/threads/${threadId}/secret-settings`, headers, body), params({ id: threadId }));

describe("secrets with sign-in on", () => {
  it("reveals a value to an admin only: a member's session or token gets 403, and no value is logged", async () => {
    const refused = await expectError(await revealAs({ cookie: member }), 403, "forbidden");
    expect(refused.message).toMatch(/admin/);
    await expectError(await revealAs({ authorization: `Bearer ${memberToken}` }), 403, "forbidden");
    // A value is the thread's text: while the member's thread is private, an admin may not read it either.
    await expectError(await revealAs({ cookie: admin }), 404, "not_found");
    await (await db()).thread.update({ where: { id: threadId }, data: { visibility: "team" } });
    const answered = await revealAs({ cookie: admin });
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as { value: string }).value).toBe(sample.value);
    expect(logged.join("\n")).not.toContain(sample.value);
  });

  it("exports losslessly to an admin only; a member gets the redacted copy with ?redact=1", async () => {
    const exportAs = (headers: Record<string, string>, query = "") =>
      exportRoute(request("GET", `/api/threads/${threadId}/export${query}`, headers), params({ id: threadId }));
    const refused = await expectError(await exportAs({ cookie: member }), 403, "forbidden");
    expect(refused.message).toContain("redact=1");
    await expectError(await exportAs({ authorization: `Bearer ${memberToken}` }, "?chain=1"), 403, "forbidden");
    const redacted = await exportAs({ cookie: member }, "?redact=1");
    expect(redacted.status).toBe(200);
    expect(await redacted.text()).not.toContain(sample.value);
    expect(await (await exportAs({ cookie: admin })).text()).toContain(sample.value);
  });

  it("writes the readable exports redacted for members; their stored text (redact=0, or redact: false encrypted) for an admin only", async () => {
    const exportAs = (headers: Record<string, string>, query: string) =>
      exportRoute(request("GET", `/api/threads/${threadId}/export${query}`, headers), params({ id: threadId }));
    const encryptAs = (headers: Record<string, string>, body: object) =>
      encryptedExport(request("POST", `/api/threads/${threadId}/export`, headers, body), params({ id: threadId }));
    for (const format of ["html", "md"]) {
      const redacted = await exportAs({ cookie: member }, `?format=${format}`);
      expect(redacted.status).toBe(200);
      expect(await redacted.text()).not.toContain(sample.value);
      await expectError(await exportAs({ cookie: member }, `?format=${format}&redact=0`), 403, "forbidden");
      await expectError(await exportAs({ authorization: `Bearer ${memberToken}` }, `?format=${format}&redact=0`), 403, "forbidden");
      expect(await (await exportAs({ cookie: admin }, `?format=${format}&redact=0`)).text()).toContain(sample.value);
    }
    const password = "a member's long passphrase";
    await expectError(await encryptAs({ cookie: member }, { format: "html", password, redact: false }), 403, "forbidden");
    expect((await encryptAs({ cookie: member }, { format: "html", password })).status).toBe(200);
    expect((await encryptAs({ cookie: admin }, { format: "html", password, redact: false })).status).toBe(200);
    // The password is used once and logged nowhere.
    expect(logged.join("\n")).not.toContain(password);
  });

  it("lets an admin only send a thread's secrets to models, after confirming; everyone sees the setting", async () => {
    await expectError(await setAs({ cookie: member }, { sendToModels: true, confirm: true }), 403, "forbidden");
    await expectError(await setAs({ authorization: `Bearer ${memberToken}` }, { sendToModels: true, confirm: true }), 403, "forbidden");
    const setting = async (headers: Record<string, string>) =>
      (
        (await (
          await getSetting(request("GET", `/api/threads/${threadId}/secret-settings`, headers), params({ id: threadId }))
        ).json()) as { sendToModels: boolean }
      ).sendToModels;
    expect(await setting({ cookie: member })).toBe(false);
    const unconfirmed = await expectError(await setAs({ cookie: admin }, { sendToModels: true }), 400, "validation_failed");
    expect(unconfirmed.message).toMatch(/confirm/);
    expect(await setting({ cookie: admin })).toBe(false);
    expect((await setAs({ cookie: admin }, { sendToModels: true, confirm: true })).status).toBe(200);
    expect(await setting({ cookie: member })).toBe(true);
    await expectError(await setAs({ cookie: member }, { sendToModels: false }), 403, "forbidden");
    expect((await setAs({ cookie: admin }, { sendToModels: false })).status).toBe(200);
    expect(await setting({ cookie: admin })).toBe(false);
  });

  it("redacts in place for an admin only: a member's session or token gets 403 and the turn keeps its text", async () => {
    await scanForSecrets(); // redaction works on the scan's findings
    const redactAs = (headers: Record<string, string>) =>
      redact(request("POST", "/api/secrets/redact", headers, { threadId, confirm: true }));
    const refused = await expectError(await redactAs({ cookie: member }), 403, "forbidden");
    expect(refused.message).toMatch(/admin/);
    await expectError(await redactAs({ authorization: `Bearer ${memberToken}` }), 403, "forbidden");
    expect((await revealAs({ cookie: admin })).status).toBe(200); // still there
    expect((await redactAs({ cookie: admin })).status).toBe(200);
    await expectError(await revealAs({ cookie: admin }), 404, "not_found");
  });
});

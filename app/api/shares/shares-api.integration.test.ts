/**
 * Share links with sign-in off (one local user, who may do everything): POST /api/threads/:id/shares,
 * GET /api/shares, DELETE /api/shares/:id and the shared page /s/<token>, on the test file's real
 * database.
 */
import { createHash } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DELETE as revokeRoute } from "@/app/api/shares/[id]/route";
import { GET as listRoute } from "@/app/api/shares/route";
import { POST as createRoute } from "@/app/api/threads/[id]/shares/route";
import { GET as sharedPage } from "@/app/s/[token]/route";
import { db } from "@/lib/db/engine/client";
import { secretSamples } from "@/lib/domain/testing/secret-samples";
import { json, jsonRequest, params } from "@/lib/testing/api";
import { expectError, expireThread, newThread, newTurn, restoreServerEnv, setServerEnv } from "@/lib/testing/integration";

const sample = secretSamples(41).find((s) => s.rule === "github-pat")!;
const TITLE = "Deploy the billing service";
const TURN_TEXT = "Roll the billing service out to the canary hosts first";
let threadId: string;

type Created = { id: string; url: string; token: string; expiresAt: string };

const create = (id: string, body?: unknown) => createRoute(jsonRequest("POST", `/api/threads/${id}/shares`, body), params({ id }));
const list = (query = "") => listRoute(jsonRequest("GET", `/api/shares${query}`));
const revoke = (id: string) => revokeRoute(jsonRequest("DELETE", `/api/shares/${id}`), params({ id }));
const open = (token: string) => sharedPage(jsonRequest("GET", `/s/${token}`), params({ token }));

async function share(body: unknown = {}): Promise<Created> {
  const response = await create(threadId, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return json<Created>(response);
}

function expectSharedHeaders(response: Response): void {
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; img-src data:/);
}

beforeAll(async () => {
  threadId = (await newThread({ toolName: "claude-code", title: TITLE })).id;
  await newTurn(threadId, { role: "user", content: TURN_TEXT });
  await newTurn(threadId, { role: "assistant", content: `Using the token\n${sample.line(sample.value)}` });
});
afterEach(() => restoreServerEnv());

describe("share links with sign-in off", () => {
  it("makes a link: 201 {id, url, token, expiresAt}, a 256-bit token, 7 days by default, on the request's own origin", async () => {
    const before = Date.now();
    const response = await create(threadId, {});
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const created = await json<Created>(response);
    expect(Object.keys(created).sort()).toEqual(["expiresAt", "id", "token", "url"]);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.token, "base64url")).toHaveLength(32);
    expect(created.url).toBe(`http://threadline.test/s/${created.token}`);
    const week = Date.parse(created.expiresAt) - before;
    expect(week).toBeGreaterThanOrEqual(168 * 3_600_000);
    expect(week).toBeLessThan(168 * 3_600_000 + 60_000);
    // An empty body takes the defaults too.
    const bare = await createRoute(
      new Request(`http://threadline.test/api/threads/${threadId}/shares`, { method: "POST" }),
      params({ id: threadId }),
    );
    expect(bare.status).toBe(201);
  });

  it("writes the link on THREADLINE_URL when it is set", async () => {
    setServerEnv({ THREADLINE_URL: "https://threads.example.com/" });
    const created = await share({ expiresInHours: 1 });
    expect(created.url).toBe(`https://threads.example.com/s/${created.token}`);
  });

  it("stores the token's SHA-256, never the token", async () => {
    const created = await share({ expiresInHours: 24, subagents: true });
    const row = await (await db()).shareLink.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.tokenHash).toBe(createHash("sha256").update(created.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(row).toMatchObject({ threadId, subagents: true, views: 0, lastViewedAt: null, createdById: null, createdByName: null });
  });

  it("lists links without their tokens or hashes, all of them or one thread's", async () => {
    const created = await share({ expiresInHours: 720 });
    const other = (await newThread({ toolName: "chat", title: "Another thread" })).id;
    const elsewhere = await json<Created>(await create(other, {}));
    const text = await (await list()).text();
    expect(text).not.toContain(created.token);
    expect(text).not.toContain(createHash("sha256").update(created.token).digest("hex"));
    const { items } = JSON.parse(text) as { items: Record<string, unknown>[] };
    const item = items.find((i) => i.id === created.id)!;
    expect(Object.keys(item).sort()).toEqual(
      ["createdAt", "createdBy", "expired", "expiresAt", "id", "subagents", "threadId", "threadTitle", "views"].sort(),
    );
    expect(item).toMatchObject({ threadId, threadTitle: TITLE, createdBy: null, expired: false, views: 0, subagents: false });
    expect(items.some((i) => i.id === elsewhere.id)).toBe(true);
    const { items: mine } = await json<{ items: { id: string; threadId: string }[] }>(await list(`?threadId=${threadId}`));
    expect(mine.map((i) => i.threadId)).toEqual(mine.map(() => threadId));
    expect(mine.some((i) => i.id === created.id)).toBe(true);
    await expectError(await list("?threadId=nope"), 400, "validation_failed");
  });

  it("shows the thread to anyone holding the link, secrets redacted, and counts each view", async () => {
    const created = await share();
    const response = await open(created.token);
    expect(response.status).toBe(200);
    expectSharedHeaders(response);
    const html = await response.text();
    expect(html).toContain(TITLE);
    expect(html).toContain(TURN_TEXT);
    expect(html).toContain("[REDACTED:");
    expect(html).not.toContain(sample.value);
    await open(created.token);
    const row = await (await db()).shareLink.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.views).toBe(2);
    expect(row.lastViewedAt).not.toBeNull();
    const { items } = await json<{ items: { id: string; views: number }[] }>(await list());
    expect(items.find((i) => i.id === created.id)!.views).toBe(2);
  });

  it("revokes at once: DELETE answers 204, then the page 404 and a second DELETE 404", async () => {
    const created = await share();
    expect((await open(created.token)).status).toBe(200);
    const revoked = await revoke(created.id);
    expect(revoked.status).toBe(204);
    const gone = await open(created.token);
    expect(gone.status).toBe(404);
    expectSharedHeaders(gone);
    expect(await gone.text()).toContain("This link was taken back or never existed.");
    await expectError(await revoke(created.id), 404, "not_found");
  });

  it("answers 410 for an expired link, with the date it expired", async () => {
    const created = await share();
    await (await db()).shareLink.update({ where: { id: created.id }, data: { expiresAt: new Date("2026-01-02T03:04:00Z") } });
    const response = await open(created.token);
    expect(response.status).toBe(410);
    expectSharedHeaders(response);
    const html = await response.text();
    expect(html).toContain("This link expired on 2 January 2026");
    expect(html).not.toContain(TURN_TEXT);
    const { items } = await json<{ items: { id: string; expired: boolean }[] }>(await list());
    expect(items.find((i) => i.id === created.id)!.expired).toBe(true);
    const row = await (await db()).shareLink.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.views).toBe(0);
  });

  it("answers 404 for a malformed or unknown token, without reading the database for a malformed one", async () => {
    const created = await share();
    const client = await db();
    const findUnique = client.shareLink.findUnique;
    let reads = 0;
    (client.shareLink as { findUnique: unknown }).findUnique = (...args: Parameters<typeof findUnique>) => {
      reads++;
      return findUnique(...args);
    };
    try {
      for (const token of ["short", `${created.token}x`, `${created.token.slice(0, 42)}.`, "%2e%2e", ""]) {
        const response = await open(token);
        expect(response.status, token).toBe(404);
        expectSharedHeaders(response);
      }
      expect(reads).toBe(0);
      // Well formed but unknown: one read, then 404.
      const unknown = created.token.startsWith("A") ? `B${created.token.slice(1)}` : `A${created.token.slice(1)}`;
      expect((await open(unknown)).status).toBe(404);
      expect(reads).toBe(1);
    } finally {
      (client.shareLink as { findUnique: unknown }).findUnique = findUnique;
    }
  });

  it("refuses bad bodies with 400 naming the field, and an unknown thread with 404", async () => {
    for (const [body, field] of [
      [{ expiresInHours: 0 }, "expiresInHours"],
      [{ expiresInHours: 8761 }, "expiresInHours"],
      [{ expiresInHours: 1.5 }, "expiresInHours"],
      [{ expiresInHours: "24" }, "expiresInHours"],
      [{ subagents: "yes" }, "subagents"],
      [{ token: "mine" }, "(body)"],
    ] as const) {
      const error = await expectError(await create(threadId, body), 400, "validation_failed");
      expect(error.message, JSON.stringify(body)).toMatch(new RegExp(`^${field.replace(/[()]/g, "\\$&")}: `));
    }
    expect((await create(threadId, { expiresInHours: 8760 })).status).toBe(201);
    await expectError(await create(threadId, "{not json"), 400, "invalid_json");
    await expectError(await create("0b3f4c56-1d2e-4f00-8a9b-123456789abc", {}), 404, "not_found");
    await expectError(await create("not-a-uuid", {}), 404, "not_found");
  });

  it("shows nothing once the thread has expired, and deletes the links with a purged thread", async () => {
    const doomed = (await newThread({ toolName: "chat", title: "Short-lived" })).id;
    await newTurn(doomed, { role: "user", content: "soon gone" });
    const created = await json<Created>(await create(doomed, {}));
    await expireThread(doomed);
    expect((await open(created.token)).status).toBe(404);
    await (await db()).thread.delete({ where: { id: doomed } });
    expect(await (await db()).shareLink.count({ where: { id: created.id } })).toBe(0);
  });
});

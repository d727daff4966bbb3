/**
 * The one-time setup page's action: with sign-in on and no THREADLINE_ADMIN_EMAIL, the first
 * person to finish it becomes the admin; afterwards, and for whoever loses a race with them, it
 * sends to /login and creates nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupFirstAdminAction } from "@/lib/actions/setup";
import { ensureFirstAdmin, noUserYet } from "@/lib/auth/first-admin";
import { authFor, resetAuthForTests } from "@/lib/auth/server";
import { db } from "@/lib/db/engine/client";
import { createFirstAdmin } from "@/lib/db/people/first-admin";
import { restoreServerEnv, setServerEnv } from "@/lib/testing/integration";

/** Where an action's redirect goes (Next.js's redirect throws an error whose digest names it), or its result. */
async function outcome(run: Promise<unknown>): Promise<string | unknown> {
  try {
    return await run;
  } catch (error) {
    const digest = (error as { digest?: unknown }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT;")) return digest.split(";")[2];
    throw error;
  }
}

async function forgetEveryone(): Promise<void> {
  const database = await db();
  await database.account.deleteMany();
  await database.session.deleteMany();
  await database.user.deleteMany();
}

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

beforeAll(() => {
  setServerEnv({ THREADLINE_AUTH: "on", THREADLINE_ADMIN_EMAIL: undefined, THREADLINE_ADMIN_PASSWORD: undefined });
  resetAuthForTests();
});
afterAll(() => {
  restoreServerEnv();
  resetAuthForTests();
});

describe("the setup page", () => {
  it("creates the first admin once, then refuses", async () => {
    expect(await noUserYet()).toBe(true);
    const short = await setupFirstAdminAction(null, form({ name: "Ada", email: "ada@example.com", password: "short" }));
    expect(short).toMatchObject({
      ok: false,
      error: { fieldErrors: { password: expect.any(String) }, values: { email: "ada@example.com" } },
    });
    expect(JSON.stringify(short)).not.toContain('short"');

    // Success redirects to /login (Next.js's redirect throws).
    expect(await outcome(setupFirstAdminAction(null, form({ name: "Ada", email: "Ada@Example.com", password: "a long password" })))).toBe(
      "/login?setup=done",
    );
    const users = await (await db()).user.findMany({ include: { accounts: true } });
    expect(users).toMatchObject([{ email: "ada@example.com", role: "admin", accounts: [{ providerId: "credential" }] }]);
    expect(users[0]!.accounts[0]!.password).toMatch(/^[0-9a-f]+:[0-9a-f]+$/); // Better Auth's scrypt

    expect(await outcome(setupFirstAdminAction(null, form({ name: "Eve", email: "eve@example.com", password: "another password" })))).toBe(
      "/login?setup=taken",
    );
    expect(await (await db()).user.count()).toBe(1);
  });

  it("makes exactly one admin of many setups submitted at once; the others go to /login, told it was taken", async () => {
    await forgetEveryone();
    const people = Array.from({ length: 6 }, (_, i) => ({
      name: `Person ${i}`,
      email: `person${i}@example.com`,
      password: `password number ${i}`,
    }));
    const outcomes = await Promise.all(people.map((person) => outcome(setupFirstAdminAction(null, form(person)))));
    expect(outcomes.filter((o) => o === "/login?setup=done")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "/login?setup=taken")).toHaveLength(people.length - 1);
    const users = await (await db()).user.findMany({ include: { accounts: true } });
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ role: "admin", email: people[outcomes.indexOf("/login?setup=done")]!.email });
    expect(await (await db()).account.count()).toBe(1);
  });

  it("creates the first admin's rows once in a transaction that checks nobody exists, however many try at the same moment", async () => {
    await forgetEveryone();
    // The rows straight away (no password hashing to spread the attempts out): the transactions overlap.
    const attempts = Array.from({ length: 10 }, (_, i) => ({
      userId: `user-${i}`,
      accountId: `account-${i}`,
      email: `racer${i}@example.com`,
      name: `Racer ${i}`,
      passwordHash: "00:00",
    }));
    const database = await db();
    const created = await Promise.all(attempts.map((row) => createFirstAdmin(row)));
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(await database.user.count()).toBe(1);
    expect(await database.account.count()).toBe(1);
  });

  it("creates one first admin from THREADLINE_ADMIN_EMAIL while a setup is submitted at the same moment", async () => {
    await forgetEveryone();
    const auth = await authFor(false);
    const [, setup] = await Promise.all([
      ensureFirstAdmin(auth, { email: "env@example.com", password: "environment password" }),
      outcome(setupFirstAdminAction(null, form({ name: "Eve", email: "eve@example.com", password: "another password" }))),
    ]);
    const users = await (await db()).user.findMany();
    expect(users).toHaveLength(1);
    expect(users[0]!.role).toBe("admin");
    expect(setup).toBe(users[0]!.email === "eve@example.com" ? "/login?setup=done" : "/login?setup=taken");
  });

  it("does nothing with sign-in off", async () => {
    setServerEnv({ THREADLINE_AUTH: undefined });
    expect(await setupFirstAdminAction(null, form({ name: "Eve", email: "eve@example.com", password: "another password" }))).toMatchObject({
      ok: false,
    });
    setServerEnv({ THREADLINE_AUTH: "on" });
  });
});

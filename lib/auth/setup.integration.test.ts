/**
 * The one-time setup page's action: with sign-in on and no THREADLINE_ADMIN_EMAIL, the first
 * person to finish it becomes the admin; afterwards it refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupFirstAdminAction } from "@/lib/actions/setup";
import { noUserYet } from "@/lib/auth/first-admin";
import { resetAuthForTests } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { restoreServerEnv, setServerEnv } from "@/lib/testing/integration";

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
    expect(await noUserYet(await db())).toBe(true);
    const short = await setupFirstAdminAction(null, form({ name: "Ada", email: "ada@example.com", password: "short" }));
    expect(short).toMatchObject({ ok: false, error: { fieldErrors: { password: expect.any(String) }, values: { email: "ada@example.com" } } });
    expect(JSON.stringify(short)).not.toContain("short\"");

    // Success redirects to /login (Next.js's redirect throws).
    await expect(setupFirstAdminAction(null, form({ name: "Ada", email: "Ada@Example.com", password: "a long password" }))).rejects.toThrow(/NEXT_REDIRECT/);
    const users = await (await db()).user.findMany();
    expect(users).toMatchObject([{ email: "ada@example.com", role: "admin" }]);

    const again = await setupFirstAdminAction(null, form({ name: "Eve", email: "eve@example.com", password: "another password" }));
    expect(again).toMatchObject({ ok: false, error: { code: "conflict" } });
    expect(await (await db()).user.count()).toBe(1);
  });

  it("does nothing with sign-in off", async () => {
    setServerEnv({ THREADLINE_AUTH: undefined });
    expect(await setupFirstAdminAction(null, form({ name: "Eve", email: "eve@example.com", password: "another password" }))).toMatchObject({ ok: false });
    setServerEnv({ THREADLINE_AUTH: "on" });
  });
});

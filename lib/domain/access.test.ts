import { describe, expect, it } from "vitest";
import { mayChangeVisibility, mayRead, mayWrite, roleOf, visibilityOfNewThread, type Reader } from "./access";

const member = (userId: string, ownsUnowned = false): Reader => ({ userId, role: "member", ownsUnowned });
const admin = (userId: string, ownsUnowned: boolean): Reader => ({ userId, role: "admin", ownsUnowned });
const viewer: Reader = { userId: "v", role: "viewer", ownsUnowned: false };

describe("who may read and change threads", () => {
  it("reads roles as Better Auth stores them, the strongest first", () => {
    expect(roleOf("admin")).toBe("admin");
    expect(roleOf("member,admin")).toBe("admin");
    expect(roleOf("viewer")).toBe("viewer");
    expect(roleOf("viewer,member")).toBe("member");
    expect(roleOf(null)).toBe("member");
    expect(roleOf("")).toBe("member");
  });

  it("lets an owner read their private thread, nobody else but through sharing", () => {
    const bobs = { ownerId: "bob", visibility: "private" };
    expect(mayRead(member("bob"), bobs)).toBe(true);
    expect(mayRead(member("cy"), bobs)).toBe(false);
    expect(mayRead(admin("ada", true), bobs)).toBe(false);
    expect(mayRead(viewer, bobs)).toBe(false);
    const shared = { ownerId: "bob", visibility: "team" };
    for (const reader of [member("cy"), admin("ada", true), viewer]) expect(mayRead(reader, shared)).toBe(true);
    // No reader: sign-in off, or the server's own work.
    expect(mayRead(null, bobs)).toBe(true);
  });

  it("gives the threads nobody owns to the first admin only", () => {
    const unowned = { ownerId: null, visibility: "private" };
    expect(mayRead(admin("ada", true), unowned)).toBe(true);
    expect(mayRead(admin("eve", false), unowned)).toBe(false);
    expect(mayRead(member("bob"), unowned)).toBe(false);
  });

  it("lets the owner or an admin change a thread; a viewer owns nothing and writes nothing", () => {
    const bobs = { ownerId: "bob", visibility: "team" };
    expect(mayChangeVisibility(member("bob"), bobs)).toBe(true);
    expect(mayChangeVisibility(member("cy"), bobs)).toBe(false);
    expect(mayChangeVisibility(admin("eve", false), bobs)).toBe(true);
    expect(mayChangeVisibility({ userId: "bob", role: "viewer", ownsUnowned: false }, bobs)).toBe(false);
    expect(mayWrite(viewer)).toBe(false);
    expect(mayWrite(member("bob"))).toBe(true);
    expect(mayWrite(null)).toBe(true);
  });

  it("gives a new thread its project's visibility, else the owner's default", () => {
    const rules = { defaultVisibility: "private" as const, projects: new Map([["/work/shared", "team" as const]]) };
    expect(visibilityOfNewThread(rules, "/work/shared")).toBe("team");
    expect(visibilityOfNewThread(rules, "/work/other")).toBe("private");
    expect(visibilityOfNewThread(rules, null)).toBe("private");
    expect(visibilityOfNewThread({ defaultVisibility: "team", projects: new Map([["/x", "private" as const]]) }, "/x")).toBe("private");
  });
});

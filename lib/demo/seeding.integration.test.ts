/**
 * The demo threads a server seeds as it starts (seedDemoOnce), on real databases: once, on a new
 * database, for someone without threads or sessions of their own, unless THREADLINE_DEMO_DATA
 * decides otherwise; never again on that database.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/engine/client";
import { DEMO_SOURCE } from "@/lib/demo/demo-data";
import { newThread, restoreServerEnv, setServerEnv, switchToFreshDatabase } from "@/lib/testing/integration";
import { seedDemoOnce } from "./seeding";

const savedDemoData = process.env.THREADLINE_DEMO_DATA;
function demoData(value: string | undefined): void {
  if (value === undefined) delete process.env.THREADLINE_DEMO_DATA;
  else process.env.THREADLINE_DEMO_DATA = value;
}
afterEach(() => demoData(savedDemoData));
afterAll(() => restoreServerEnv());

const demoThreads = async () => (await db()).thread.count({ where: { source: DEMO_SOURCE } });

describe("seedDemoOnce", () => {
  it("seeds a new database once, for someone without sessions of their own", async () => {
    await switchToFreshDatabase();
    setServerEnv({ THREADLINE_SOURCES: "off" });
    demoData(undefined);
    const first = await seedDemoOnce();
    expect(first.said.at(-1)).toMatch(/^seeded demo data: 5 threads, \d+ turns$/);
    expect(await demoThreads()).toBe(5);
    // Seeded already: nothing is looked at or said, whatever THREADLINE_DEMO_DATA says now.
    demoData("on");
    expect(await seedDemoOnce()).toEqual({ said: [], warnings: [] });
    expect(await demoThreads()).toBe(5);
  });

  it("leaves a database holding a thread as it is, silently, unless THREADLINE_DEMO_DATA=on", async () => {
    await switchToFreshDatabase();
    setServerEnv({ THREADLINE_SOURCES: "off" });
    await newThread({ toolName: "chat", title: "mine" });
    // Nothing to say either: a restart of a server with sessions of its own says nothing about demo threads.
    demoData(undefined);
    expect(await seedDemoOnce()).toEqual({ said: [], warnings: [] });
    demoData("off");
    expect(await seedDemoOnce()).toEqual({ said: [], warnings: [] });
    expect(await demoThreads()).toBe(0);
    demoData(" On ");
    expect((await seedDemoOnce()).said.at(-1)).toMatch(/^seeded demo data: 5 threads/);
    expect(await demoThreads()).toBe(5);
  });

  it("seeds nothing with THREADLINE_DEMO_DATA=off, and warns about a value it does not know", async () => {
    await switchToFreshDatabase();
    setServerEnv({ THREADLINE_SOURCES: "off" });
    demoData("off");
    expect((await seedDemoOnce()).said).toEqual(["not seeding the demo threads: THREADLINE_DEMO_DATA=off"]);
    expect(await demoThreads()).toBe(0);
    demoData("yes");
    const odd = await seedDemoOnce();
    expect(odd.warnings).toEqual([expect.stringMatching(/THREADLINE_DEMO_DATA: ignored "yes"/)]);
    // Unknown is automatic: a new database with no thread and no session gets them.
    expect(await demoThreads()).toBe(5);
  });
});

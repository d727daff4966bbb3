/**
 * Whether a server seeds the demo threads into a new database as it starts (lib/demo/seeding.ts
 * seedDemoOnce). They are for someone trying Threadline with nothing of their own yet: with
 * THREADLINE_DEMO_DATA unset they are seeded only when no followed folder (THREADLINE_SOURCES, by
 * default the agents' own folders) holds a session and the database has no thread. `on` seeds
 * them anyway, `off` never. Pure: lib/demo/seeding.ts looks in the folders.
 */
export type DemoDataSetting = "on" | "off" | "auto";

/** THREADLINE_DEMO_DATA: `on`, `off`, or unset (auto); anything else is auto, with a warning. */
export function parseDemoDataSetting(raw: string | undefined): { setting: DemoDataSetting; warning: string | null } {
  const text = raw?.trim().toLowerCase() ?? "";
  if (text === "") return { setting: "auto", warning: null };
  if (text === "on" || text === "off") return { setting: text, warning: null };
  return {
    setting: "auto",
    warning: `THREADLINE_DEMO_DATA: ignored ${JSON.stringify(raw)} (on or off; unset seeds the demo threads only for someone without sessions)`,
  };
}

export type DemoSeeding = { seed: boolean; reason: string };

/**
 * The decision, from the setting, the first session found in a followed folder (null: none), and
 * how many threads the database holds.
 */
export function demoSeeding({
  setting,
  session,
  threads,
}: {
  setting: DemoDataSetting;
  session: string | null;
  threads: number;
}): DemoSeeding {
  if (setting === "off") return { seed: false, reason: "not seeding the demo threads: THREADLINE_DEMO_DATA=off" };
  if (setting === "on") return { seed: true, reason: "seeding the demo threads: THREADLINE_DEMO_DATA=on" };
  if (session !== null)
    return {
      seed: false,
      reason: `not seeding the demo threads: a followed folder holds sessions (${session}); THREADLINE_DEMO_DATA=on seeds them anyway`,
    };
  if (threads > 0)
    return { seed: false, reason: `not seeding the demo threads: the database already holds ${threads} thread${threads === 1 ? "" : "s"}` };
  return { seed: true, reason: "seeding the demo threads: no followed folder holds a session (THREADLINE_DEMO_DATA=off leaves them out)" };
}

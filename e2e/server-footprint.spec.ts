/**
 * What the production server keeps loaded (scripts/server.mjs in front of the build), read from
 * Linux's /proc: the process is found by the port it listens on. SWC's native library is a
 * build-time tool; a TypeScript Next.js config made the server load it at every start and keep it
 * (about 23 MB resident, and two threads of its runtime) for as long as it ran.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { SEEDED_URL } from "../playwright.config";
import { expect, test } from "./fixtures";

/** The pid of the process listening on `port` on 127.0.0.1 (its socket's inode, found among the processes' descriptors). */
function listeningPid(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inode = readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    // local address, state 0A (LISTEN), inode
    .find((fields) => fields[1]?.endsWith(`:${hexPort}`) && fields[3] === "0A")?.[9];
  if (!inode) throw new Error(`nothing listens on port ${port}`);
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return Number(pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  throw new Error(`no process holds the socket listening on port ${port}`);
}

test("the production server does not load SWC, the build's compiler", async ({ request }) => {
  test.skip(process.platform !== "linux", "reads Linux's /proc");
  // Served at least once, so the server has loaded what serving loads.
  expect((await request.get("/api/threads?limit=1")).status()).toBe(200);
  const pid = listeningPid(Number(new URL(SEEDED_URL).port));
  const maps = readFileSync(`/proc/${pid}/maps`, "utf8");
  expect(maps, "the server's memory maps hold better-sqlite3's library").toContain("better_sqlite3.node");
  expect(maps.split("\n").filter((line) => line.includes("next-swc"))).toEqual([]);
});

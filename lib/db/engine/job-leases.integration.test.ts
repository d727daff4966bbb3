// A lease whose holder died without releasing it (Ctrl-C mid-sync, a kill, a crash) must not keep
// the next server on the same machine waiting for it to run out.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterEach, expect, it } from "vitest";
import { db } from "./client";
import { claimJobLease, newLeaseOwner, releaseJobLease } from "./job-leases";

const LEASE = "job-leases-test";
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await (await db()).jobLease.deleteMany({ where: { name: LEASE } });
});

/** This machine's owner name for the process `pid`, as that process would have made it. */
function ownerOf(pid: number): string {
  const [host, namespace, , random] = newLeaseOwner().split(" ");
  return [host, namespace, pid, random].join(" ");
}

async function child(): Promise<ChildProcess> {
  const started = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
  children.push(started);
  await once(started, "spawn");
  return started;
}

it("claims at once a lease whose holder was a process of this machine that has exited", async () => {
  const dead = await child();
  const owner = ownerOf(dead.pid!);
  expect(await claimJobLease(LEASE, owner, 60_000)).toBe(true);
  dead.kill("SIGKILL");
  await once(dead, "exit");
  expect(await claimJobLease(LEASE, newLeaseOwner(), 60_000)).toBe(true);
});

it("leaves the lease to a holder of this machine that still runs, and to one of another machine", async () => {
  const alive = await child();
  const owner = ownerOf(alive.pid!);
  expect(await claimJobLease(LEASE, owner, 60_000)).toBe(true);
  expect(await claimJobLease(LEASE, newLeaseOwner(), 60_000)).toBe(false);
  await releaseJobLease(LEASE, owner);

  // Another machine's pid means nothing here, even one that is free on this one.
  const dead = await child();
  dead.kill("SIGKILL");
  await once(dead, "exit");
  const elsewhere = ["another-host", "pid:[1]", dead.pid, "x"].join(" ");
  expect(await claimJobLease(LEASE, elsewhere, 60_000)).toBe(true);
  expect(await claimJobLease(LEASE, newLeaseOwner(), 60_000)).toBe(false);
  await releaseJobLease(LEASE, elsewhere);
});

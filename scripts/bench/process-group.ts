// A process group's memory and CPU, read from /proc (Linux only): what `npm start` leaves running
// is a group (npm, the start script, Next.js, and for a while the seed script's child).
import { readdirSync, readFileSync } from "node:fs";

/** Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat. */
const TICKS_PER_SECOND = 100;

type Member = { pid: number; rssBytes: number; cpuTicks: number };

/** The live processes of process group `pgid`, each with its resident memory and the CPU it used. */
function members(pgid: number): Member[] {
  const found: Member[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The fields after the command name, which may hold spaces: state, ppid, pgrp, ...
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(rest[2]) !== pgid) continue;
      const rssKb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      found.push({ pid: Number(entry), rssBytes: rssKb ? Number(rssKb[1]) * 1024 : 0, cpuTicks: Number(rest[11]) + Number(rest[12]) });
    } catch {
      // exited while being read
    }
  }
  return found;
}

/** The resident memory of the whole group now, summed over its processes (bytes). */
export function groupRss(pgid: number): number {
  return members(pgid).reduce((sum, member) => sum + member.rssBytes, 0);
}

/** The CPU the group's live processes have used so far (seconds). */
export function groupCpuSeconds(pgid: number): number {
  return members(pgid).reduce((sum, member) => sum + member.cpuTicks, 0) / TICKS_PER_SECOND;
}

/** Samples the group's summed RSS every `everyMs` until stopped, keeping the peak. */
export function sampleGroup(pgid: number, everyMs = 100): { peakBytes: () => number; stop: () => void } {
  let peak = groupRss(pgid);
  const timer = setInterval(() => (peak = Math.max(peak, groupRss(pgid))), everyMs);
  return { peakBytes: () => peak, stop: () => clearInterval(timer) };
}

/**
 * The share of one core the group's processes used over `seconds` (those alive at both ends; a
 * process started and ended meanwhile is not counted), and its RSS at the end.
 */
export async function groupAtRest(pgid: number, seconds: number): Promise<{ cpuShareOfCore: number; rssBytes: number; pssBytes: number }> {
  const ticks = (list: Member[]) => new Map(list.map((member) => [member.pid, member.cpuTicks]));
  const before = ticks(members(pgid));
  const started = process.hrtime.bigint();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = members(pgid);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const used = after.reduce((sum, member) => sum + (before.has(member.pid) ? member.cpuTicks - before.get(member.pid)! : 0), 0);
  return {
    cpuShareOfCore: used / TICKS_PER_SECOND / elapsed,
    rssBytes: after.reduce((sum, member) => sum + member.rssBytes, 0),
    pssBytes: after.reduce((sum, member) => sum + pssBytes(member.pid), 0),
  };
}

/**
 * A process's proportional set size: its resident pages, each shared one divided among the
 * processes sharing it. Summed RSS counts the node binary's pages once for npm and once for the
 * server; summed PSS is what the group takes from the machine.
 */
function pssBytes(pid: number): number {
  try {
    const pssKb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return pssKb ? Number(pssKb[1]) * 1024 : 0;
  } catch {
    return 0; // exited while being read
  }
}

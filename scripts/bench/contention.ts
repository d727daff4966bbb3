import { existsSync, readdirSync, readFileSync } from "node:fs";

// ---------------------------------------------------------------------------------------------
// Contention: how much CPU other processes took while we measured (Linux /proc only)
// ---------------------------------------------------------------------------------------------

type CpuSnapshot = { total: number; busy: number; ours: number };

/** This process's process group (its tokenizer children share it); null off Linux. */
function ownProcessGroup(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
  } catch {
    return null;
  }
}

/**
 * Machine-wide CPU ticks and the ticks of this process, of its process group (the bench's own
 * child processes) and of the server's process group.
 */
export function cpuSnapshot(serverPgid: number | undefined): CpuSnapshot | null {
  if (!existsSync("/proc/stat")) return null;
  const ownPgid = ownProcessGroup();
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const busy = total - fields[3]! - fields[4]!;
    let ours = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue;
      }
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pgrp = Number(rest[2]);
      // Our own process also counts the children it has reaped (cutime, cstime): the tokenizer
      // children leave /proc when they exit.
      if (Number(entry) === process.pid) ours += Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14]);
      else if (pgrp === ownPgid || (serverPgid !== undefined && pgrp === serverPgid)) ours += Number(rest[11]) + Number(rest[12]);
    }
    return { total, busy, ours };
  } catch {
    return null;
  }
}

/** Percent of the whole machine's CPU used by processes other than the bench and its server. */
export function otherCpuPercent(before: CpuSnapshot | null, after: CpuSnapshot | null): number | null {
  if (!before || !after || after.total <= before.total) return null;
  const other = after.busy - before.busy - (after.ours - before.ours);
  return Math.max(0, Math.round((100 * other) / (after.total - before.total)));
}

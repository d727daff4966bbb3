import type { Timers } from "@/lib/domain/event-bus";

/** Timers on a clock a test moves by hand (advance runs what falls due, in order). */
export function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const waiting = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = nextId++;
      waiting.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (id) => void waiting.delete(id as number),
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...waiting.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      waiting.delete(due[0]);
      now = due[1].at;
      due[1].run();
    }
    now = until;
  };
  return { timers, advance, pending: () => waiting.size };
}

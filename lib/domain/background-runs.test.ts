import { describe, expect, it } from "vitest";
import { runOrRepeat, wakeAfterQuiet, type Clock, type RerunState, type WakeState } from "./background-runs";

describe("runOrRepeat", () => {
  it("goes round once more for any number of calls during a round, and every caller waits for that round", async () => {
    const state: RerunState = { running: null, again: false };
    const rounds: (() => void)[] = [];
    const work = () => new Promise<void>((resolve) => rounds.push(resolve));

    const first = runOrRepeat(state, work);
    const second = runOrRepeat(state, work);
    const third = runOrRepeat(state, work);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(rounds).toHaveLength(1);

    rounds[0]!();
    await Promise.resolve();
    await Promise.resolve();
    expect(rounds).toHaveLength(2); // the calls during the first round: one more, not two
    let settled = false;
    void first.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    rounds[1]!();
    await first;
    expect(rounds).toHaveLength(2);
    expect(state.running).toBeNull();

    // Afterwards a call starts a run of its own.
    const later = runOrRepeat(state, work);
    expect(later).not.toBe(first);
    rounds[2]!();
    await later;
  });

  it("ends the run when a round throws, and the next call starts again", async () => {
    const state: RerunState = { running: null, again: false };
    await expect(runOrRepeat(state, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(state.running).toBeNull();
    let ran = 0;
    await runOrRepeat(state, async () => void ran++);
    expect(ran).toBe(1);
  });
});

/** A clock whose time the test moves. */
function fakeClock(): Clock & { advance(ms: number): void } {
  let time = 0;
  let timers: { at: number; fire: () => void }[] = [];
  return {
    now: () => time,
    schedule(fire, ms) {
      const timer = { at: time + ms, fire };
      timers.push(timer);
      return () => void (timers = timers.filter((t) => t !== timer));
    },
    advance(ms) {
      time += ms;
      const due = timers.filter((t) => t.at <= time);
      timers = timers.filter((t) => t.at > time);
      for (const timer of due) timer.fire();
    },
  };
}

describe("wakeAfterQuiet", () => {
  const delays = { delayMs: 250, maxDelayMs: 2_000 };

  it("fires once, delayMs after the last of a run of calls", () => {
    const clock = fakeClock();
    const state: WakeState = { wake: null };
    let fired = 0;
    for (let i = 0; i < 4; i++) {
      wakeAfterQuiet(state, delays, () => fired++, clock);
      clock.advance(100);
    }
    expect(fired).toBe(0);
    clock.advance(150);
    expect(fired).toBe(1);
    expect(state.wake).toBeNull();
    clock.advance(1_000);
    expect(fired).toBe(1);
  });

  it("fires maxDelayMs after the first call of a steady run, and starts counting again after that", () => {
    const clock = fakeClock();
    const state: WakeState = { wake: null };
    const firedAt: number[] = [];
    for (let t = 0; t < 5_000; t += 100) {
      wakeAfterQuiet(state, delays, () => firedAt.push(clock.now()), clock);
      clock.advance(100);
    }
    expect(firedAt).toEqual([2_000, 4_000]);
  });
});

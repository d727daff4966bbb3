import { afterEach, describe, expect, it, vi } from "vitest";
import type { OwnedThread } from "@/lib/domain/access";
import { threadsWritten } from "@/lib/db/threads/thread-writes";
import type { LiveEvent, ThreadLiveState } from "@/lib/domain/threads/live";
import { emptyFolderStatus, type SourcesStatus } from "@/lib/domain/sources/sources";
import { fakeTimers } from "@/lib/testing/fake-timers";
import { createLiveHub, SOURCES_PROGRESS_MS } from "./hub";

const hubs: { close(): void }[] = [];
afterEach(() => hubs.splice(0).forEach((hub) => hub.close()));

/** A hub whose thread reads answer from `states` (a missing id is a purged thread), recording what was asked. */
function hubWith(states: Record<string, number>) {
  const asked: string[][] = [];
  let release: () => void = () => {};
  let gate: Promise<void> | null = null;
  const readStates = vi.fn(async (ids: string[]): Promise<{ state: ThreadLiveState; access: OwnedThread | null }[]> => {
    asked.push(ids);
    if (gate) await gate;
    return ids.map((id) =>
      id in states
        ? {
            state: { id, turnCount: states[id]!, lastUpdatedAt: "2026-11-25T10:00:00.000Z" },
            access: { ownerId: "u1", visibility: "private" },
          }
        : { state: { id, turnCount: 0, lastUpdatedAt: null }, access: null },
    );
  });
  const clock = fakeTimers();
  const hub = createLiveHub({ timers: clock.timers, readStates });
  hubs.push(hub);
  const hold = () => (gate = new Promise((resolve) => (release = () => ((gate = null), resolve()))));
  return { hub, asked, readStates, clock, hold, release: () => release() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the live hub", () => {
  it("reads nothing while no one listens", async () => {
    const { readStates } = hubWith({ a: 1 });
    threadsWritten(["a"]);
    await settle();
    expect(readStates).not.toHaveBeenCalled();
  });

  it("reads written threads back and sends each one's state to every listener; a purged thread is sent as gone", async () => {
    const { hub } = hubWith({ a: 3 });
    const first: LiveEvent[] = [];
    const second: LiveEvent[] = [];
    hub.subscribe((event) => first.push(event));
    hub.subscribe((event) => second.push(event));
    threadsWritten(["a", "gone"]);
    await settle();
    expect(first).toEqual([
      {
        type: "thread",
        thread: { id: "a", turnCount: 3, lastUpdatedAt: "2026-11-25T10:00:00.000Z" },
        access: { ownerId: "u1", visibility: "private" },
      },
      { type: "thread", thread: { id: "gone", turnCount: 0, lastUpdatedAt: null } },
    ]);
    expect(second).toEqual(first);
  });

  it("reads one batch at a time: writes made during a read wait for the next, merged", async () => {
    const { hub, asked, hold, release } = hubWith({ a: 1, b: 2, c: 3 });
    hub.subscribe(() => {});
    hold();
    threadsWritten(["a"]);
    threadsWritten(["b"]);
    threadsWritten(["c", "b"]);
    release();
    await settle();
    await settle();
    expect(asked).toEqual([["a"], ["b", "c"]]);
  });

  it("stops telling a listener that unsubscribed", async () => {
    const { hub } = hubWith({ a: 1 });
    const seen: LiveEvent[] = [];
    const stop = hub.subscribe((event) => seen.push(event));
    stop();
    hub.subscribe(() => {});
    threadsWritten(["a"]);
    await settle();
    expect(seen).toEqual([]);
  });

  it("sends a sync's start and end at once, and its progress at most every SOURCES_PROGRESS_MS, the latest status each time", () => {
    const { hub, clock } = hubWith({});
    const sent: SourcesStatus[] = [];
    hub.subscribe((event) => event.type === "sources" && sent.push(event.status));
    let status: SourcesStatus = {
      origin: "setting",
      syncing: true,
      heldElsewhere: false,
      folders: [{ ...emptyFolderStatus("/f"), state: "syncing" }],
    };
    const read = () => structuredClone(status);
    hub.sourcesChanged(read, true);
    expect(sent).toHaveLength(1);
    for (let file = 1; file <= 10; file++) {
      status = { ...status, folders: [{ ...status.folders[0]!, filesSeen: file }] };
      hub.sourcesChanged(read, false);
      clock.advance(10);
    }
    expect(sent).toHaveLength(1); // 100 ms of progress: none sent yet
    clock.advance(SOURCES_PROGRESS_MS);
    expect(sent.map((s) => s.folders[0]!.filesSeen)).toEqual([0, 10]);
    status = { ...status, syncing: false, folders: [{ ...status.folders[0]!, state: "watching" }] };
    hub.sourcesChanged(read, true);
    expect(sent.at(-1)).toMatchObject({ syncing: false, folders: [{ state: "watching", filesSeen: 10 }] });
  });
});

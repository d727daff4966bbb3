/**
 * What GET /api/events streams to open pages, and the schemas the browser checks each event
 * against before it acts on it (the stream is a boundary like any other).
 */
import type { OwnedThread } from "../access";
import { z } from "zod";
import type { SourcesStatus } from "../sources/sources";

/**
 * A thread as an open page follows it: how many turns it holds and when it was last written.
 * `lastUpdatedAt` is null when the thread is gone (purged), and turnCount is then 0.
 */
export type ThreadLiveState = { id: string; turnCount: number; lastUpdatedAt: string | null };

/** The stream's events: a thread was written (turns appended, imported, compacted, purged), or the followed sources' status changed. */
/** `access`: whose the thread is, for the stream to send it only to those who may read it (never sent itself). */
export type LiveEvent = { type: "thread"; thread: ThreadLiveState; access?: OwnedThread } | { type: "sources"; status: SourcesStatus };

/** The SSE event names, one per LiveEvent type. */
export const LIVE_EVENT_TYPES = ["thread", "sources"] as const;

const threadLiveStateSchema = z.object({
  id: z.string().min(1),
  turnCount: z.number().int().min(0),
  lastUpdatedAt: z.string().nullable(),
});

const folderStatusSchema = z.object({
  path: z.string(),
  state: z.enum(["found", "missing", "syncing", "watching", "error"]),
  error: z.string().nullable(),
  filesFound: z.number().int().min(0).nullable(),
  filesSeen: z.number().int().min(0),
  imported: z.number().int().min(0),
  unchanged: z.number().int().min(0),
  failed: z.number().int().min(0),
  failures: z.array(z.object({ file: z.string(), reason: z.string() })),
  skipped: z.number().int().min(0),
  skippedEntries: z.array(z.object({ file: z.string(), reason: z.string() })),
  warnings: z.array(z.object({ file: z.string(), reason: z.string() })),
  lastSyncAt: z.string().nullable(),
  lastChangeAt: z.string().nullable(),
  watchMode: z.enum(["events", "polling"]).nullable(),
  watchNote: z.string().nullable(),
});

const sourcesStatusSchema = z.object({
  origin: z.enum(["default", "setting", "off"]),
  syncing: z.boolean(),
  heldElsewhere: z.boolean(),
  folders: z.array(folderStatusSchema),
}) satisfies z.ZodType<SourcesStatus>;

/** The LiveEvent an SSE event stands for, or null when its name is unknown or its data does not fit. */
export function parseLiveEvent(name: string, data: unknown): LiveEvent | null {
  if (name === "thread") {
    const parsed = threadLiveStateSchema.safeParse(data);
    return parsed.success ? { type: "thread", thread: parsed.data } : null;
  }
  if (name === "sources") {
    const parsed = sourcesStatusSchema.safeParse(data);
    return parsed.success ? { type: "sources", status: parsed.data } : null;
  }
  return null;
}

/** What a thread page does with a thread event: whether its thread now holds more turns than it shows. */
export function threadGrew(event: LiveEvent, threadId: string, shownTurns: number): boolean {
  return event.type === "thread" && event.thread.id === threadId && event.thread.turnCount > shownTurns;
}

// What crosses between the parse worker (parse-worker.ts) and the importing thread (parse-pool.ts):
// plain data, copied by structured clone.
import type { ImportLimits } from "@/lib/importers/long-lines";
import type { PreparedSession } from "./claude-code-lines";
import type { OpenedFile } from "./file-lines";

/** A file of a followed folder to read: `now` decides, as on the importing thread, whether it is live. */
export type ParseJob = { id: number; path: string; within: string; name: string; limits: ImportLimits; now: number };

/** The session prepared, or the file's bytes when it is anything else; null: the importing thread reads it itself. */
export type WorkerRead = { prepared: PreparedSession } | { bytes: Uint8Array; opened: OpenedFile } | null;

export type ParseAnswer = { id: number; read: WorkerRead };

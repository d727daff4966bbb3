import { z } from "zod";
import type { Thread, Turn } from "../types";
import {
  jsonObjectSchema,
  pathListSchema,
  roleSchema,
  turnPartsSchema,
  uuidSchema,
  checkSnapshotPaths,
  fileSnapshotsSchema,
  refuseProtoKeys,
} from "../schemas";

/**
 * "threadline/v1": Threadline's native, lossless JSON document. Export writes every stored field
 * in a fixed key order, so export -> import -> export is byte-identical. Derived values (turn
 * counts, token estimates, expiry state) are recomputed on import and are not part of it.
 */
export const NATIVE_FORMAT = "threadline/v1";

const isoDateTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" });
const nullableText = z.string().nullable();

const nativeTurnSchema = z.strictObject({
  id: uuidSchema,
  index: z.number().int().min(0).optional(),
  role: roleSchema,
  content: z.string(),
  timestamp: isoDateTime,
  files: pathListSchema.default([]),
  images: pathListSchema.default([]),
  toolName: nullableText.default(null),
  modelProvider: nullableText.default(null),
  modelName: nullableText.default(null),
  modelMetadata: jsonObjectSchema.nullable().default(null),
  parts: turnPartsSchema.nullable().default(null),
  fileSnapshots: fileSnapshotsSchema.default([]),
});

const nativeThreadSchema = z.strictObject({
  id: uuidSchema,
  parentThreadId: uuidSchema.nullable().default(null),
  title: z.string().max(500).nullable().default(null),
  toolName: z.string().min(1, "must not be empty").max(200),
  source: z.string().min(1).max(200).default("api"),
  project: z.string().max(4096).nullable().default(null),
  initialContext: jsonObjectSchema.default({}),
  metadata: jsonObjectSchema.nullable().default(null),
  createdAt: isoDateTime,
  lastUpdatedAt: isoDateTime,
  expiresAt: isoDateTime.nullable().default(null),
  turns: z.array(nativeTurnSchema),
});

export const nativeDocumentSchema = refuseProtoKeys(
  z
    .strictObject({
      format: z.literal(NATIVE_FORMAT, { error: `must be "${NATIVE_FORMAT}"` }),
      threads: z.array(nativeThreadSchema).min(1, "must hold at least one thread"),
    })
    .superRefine((doc, ctx) => {
      const threadIds = new Set<string>();
      const turnIds = new Set<string>();
      doc.threads.forEach((thread, t) => {
        if (threadIds.has(thread.id))
          ctx.addIssue({ code: "custom", path: ["threads", t, "id"], message: "appears twice in the document" });
        threadIds.add(thread.id);
        thread.turns.forEach((turn, i) => {
          if (turn.index !== undefined && turn.index !== i) {
            ctx.addIssue({
              code: "custom",
              path: ["threads", t, "turns", i, "index"],
              message: `must be ${i}: turns are 0-based and contiguous`,
            });
          }
          checkSnapshotPaths(turn, ctx, ["threads", t, "turns", i]);
          if (turnIds.has(turn.id))
            ctx.addIssue({ code: "custom", path: ["threads", t, "turns", i, "id"], message: "appears twice in the document" });
          turnIds.add(turn.id);
        });
      });
    }),
);

export type NativeDocument = z.output<typeof nativeDocumentSchema>;
export type NativeThread = z.output<typeof nativeThreadSchema>;

/** The document for threads as stored, keys in the documented order. */
export function toNativeDocument(threads: { thread: Thread; turns: Turn[] }[]) {
  return {
    format: NATIVE_FORMAT,
    threads: threads.map(({ thread, turns }) => ({
      id: thread.id,
      parentThreadId: thread.parentThreadId,
      title: thread.title,
      toolName: thread.toolName,
      source: thread.source,
      project: thread.project,
      initialContext: thread.initialContext,
      metadata: thread.metadata,
      createdAt: thread.createdAt,
      lastUpdatedAt: thread.lastUpdatedAt,
      expiresAt: thread.expiresAt,
      turns: turns.map((turn) => ({
        id: turn.id,
        index: turn.index,
        role: turn.role,
        content: turn.content,
        timestamp: turn.timestamp,
        files: turn.files,
        images: turn.images,
        toolName: turn.toolName,
        modelProvider: turn.modelProvider,
        modelName: turn.modelName,
        modelMetadata: turn.modelMetadata,
        parts: turn.parts,
        // Only when there are some: documents without snapshots keep their v1 shape.
        ...(turn.fileSnapshots.length > 0 ? { fileSnapshots: turn.fileSnapshots } : {}),
      })),
    })),
  };
}

/** Two-space indented JSON with a trailing newline: the exact bytes of an export. */
export function serializeNativeDocument(doc: ReturnType<typeof toNativeDocument>): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * Orders threads so that a parent inside the document comes before its children (imports insert
 * in this order). Threads whose parent is outside the document keep their relative order.
 */
export function parentsFirst<T extends { id: string; parentThreadId: string | null }>(threads: T[]): T[] {
  const byId = new Map(threads.map((t) => [t.id, t]));
  const placed = new Set<string>();
  const out: T[] = [];
  const visiting = new Set<string>();
  const place = (thread: T) => {
    if (placed.has(thread.id) || visiting.has(thread.id)) return;
    visiting.add(thread.id);
    const parent = thread.parentThreadId ? byId.get(thread.parentThreadId) : undefined;
    if (parent) place(parent);
    visiting.delete(thread.id);
    placed.add(thread.id);
    out.push(thread);
  };
  threads.forEach(place);
  return out;
}

import { z } from "zod";
import {
  jsonObjectSchema,
  modelFieldSchema,
  pathListSchema,
  roleSchema,
  toolNameSchema,
  turnPartsSchema,
  uuidSchema,
  checkSnapshotPaths,
  fileSnapshotsSchema,
} from "./common";

export const createThreadSchema = z.strictObject({
  toolName: toolNameSchema,
  title: z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters").optional(),
  initialContext: jsonObjectSchema.optional(),
  parentThreadId: uuidSchema.optional(),
});
export type CreateThreadInput = z.output<typeof createThreadSchema>;

export const appendTurnSchema = z.strictObject({
  role: roleSchema,
  content: z.string(),
  files: pathListSchema.optional(),
  images: pathListSchema.optional(),
  toolName: toolNameSchema.optional(),
  modelProvider: modelFieldSchema.optional(),
  modelName: modelFieldSchema.optional(),
  modelMetadata: jsonObjectSchema.optional(),
  parts: turnPartsSchema.optional(),
  /** Contents of some of `files`, as the turn saw them: what budget previews embed. */
  fileSnapshots: fileSnapshotsSchema.optional(),
}).superRefine((turn, ctx) => checkSnapshotPaths(turn, ctx));
export type AppendTurnInput = z.output<typeof appendTurnSchema>;

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

export const listThreadsQuerySchema = z.object({
  q: z.string().trim().max(500, "must be at most 500 characters").optional().transform((v) => v || undefined),
  tool: z.string().trim().max(200).optional().transform((v) => v || undefined),
  model: z.string().trim().max(200).optional().transform((v) => v || undefined),
  cursor: z.string().max(500).optional().transform((v) => v || undefined),
  limit: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
});
export type ListThreadsQuery = z.output<typeof listThreadsQuerySchema>;

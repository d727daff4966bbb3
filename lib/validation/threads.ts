import { z } from "zod";
import { searchTerms } from "@/lib/domain/threads/search";
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
  refuseProtoKeys,
} from "@/lib/domain/schemas";
import { decimalInteger } from "./numbers";
import { queryFlag } from "./query";

/**
 * An optional field that also takes null, as absent: the API itself answers with nulls
 * (`"parentThreadId": null`), so a client echoing them back must not be refused.
 */
function optional<S extends z.ZodType>(schema: S) {
  return schema.nullish().transform((value) => value ?? undefined);
}

export const createThreadSchema = refuseProtoKeys(
  z.strictObject({
    toolName: toolNameSchema,
    title: optional(z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters")),
    initialContext: optional(jsonObjectSchema),
    parentThreadId: optional(uuidSchema),
  }),
);
export type CreateThreadInput = z.output<typeof createThreadSchema>;

export const appendTurnSchema = refuseProtoKeys(
  z
    .strictObject({
      role: roleSchema,
      content: z.string(),
      files: optional(pathListSchema),
      images: optional(pathListSchema),
      toolName: optional(toolNameSchema),
      modelProvider: optional(modelFieldSchema),
      modelName: optional(modelFieldSchema),
      modelMetadata: optional(jsonObjectSchema),
      parts: optional(turnPartsSchema),
      /** Contents of some of `files`, as the turn saw them: what budget previews embed. */
      fileSnapshots: optional(fileSnapshotsSchema),
    })
    .superRefine((turn, ctx) => checkSnapshotPaths(turn, ctx)),
);
export type AppendTurnInput = z.output<typeof appendTurnSchema>;

/** A page's `limit` query parameter: a whole number from 1 to `max`, `fallback` when absent. */
function pageLimitSchema(max: number, fallback: number) {
  return decimalInteger(1, max).default(fallback);
}

export const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 25;

export const listThreadsQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(500, "must be at most 500 characters")
    .optional()
    .transform((v) => v || undefined),
  tool: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
  model: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
  /** Where threads came from: "api", "import:claude-code", ... */
  source: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => v || undefined),
  /** The working directory an imported session ran in. */
  project: z
    .string()
    .trim()
    .max(1000)
    .optional()
    .transform((v) => v || undefined),
  cursor: z
    .string()
    .max(500)
    .optional()
    .transform((v) => v || undefined),
  limit: pageLimitSchema(MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
});
export type ListThreadsQuery = z.output<typeof listThreadsQuerySchema>;

const MAX_TURN_PAGE_SIZE = 500;
const DEFAULT_TURN_PAGE_SIZE = 100;

/** `?includeExpired=1`: an expired thread is read as any other (the UI shows them); absent, it is not found. */
const includeExpiredSchema = queryFlag();

/** GET /api/threads/:id/turns: a page from a cursor, or from a turn index (0-based); neither is the start. */
export const listTurnsQuerySchema = z
  .object({
    includeExpired: includeExpiredSchema,
    cursor: z
      .string()
      .max(200)
      .optional()
      .transform((v) => v || undefined),
    from: decimalInteger(0).optional(),
    limit: pageLimitSchema(MAX_TURN_PAGE_SIZE, DEFAULT_TURN_PAGE_SIZE),
  })
  .refine((query) => query.cursor === undefined || query.from === undefined, { message: "give cursor or from, not both", path: ["from"] });

/** GET /api/threads/:id/outline and /turns/:index: only whether an expired thread is read. */
export const includeExpiredQuerySchema = z.object({ includeExpired: includeExpiredSchema });

/** GET /api/threads/:id/turns/:index when it is not a turn's id: the turn's 0-based index. */
export const turnIndexSchema = z.object({ index: decimalInteger(0) });

/**
 * GET /api/threads/:id/export: the format (json, the lossless document, by default; html and md
 * to read), the whole chain, sub-agents inlined (html and md), an expired thread, and whether
 * secrets are redacted: json keeps them unless asked, html and md redact them unless `redact=0`.
 */
export const exportQuerySchema = z
  .object({
    format: z.enum(["json", "html", "md"], { error: "must be json, html or md" }).default("json"),
    chain: queryFlag(),
    subagents: queryFlag(),
    redact: queryFlag(null),
    includeExpired: includeExpiredSchema,
  })
  .refine((query) => query.format !== "json" || !query.subagents, {
    message: "applies to format=html and format=md only (the json document holds each thread on its own)",
    path: ["subagents"],
  })
  .transform(({ redact, ...query }) => ({ ...query, redact: redact ?? query.format !== "json" }));

/** POST /api/threads/:id/export: an HTML export encrypted with a password, redacted unless `redact: false`. */
export const encryptedExportSchema = z.strictObject({
  format: z.literal("html", { error: 'must be "html" (only the HTML export is encrypted)' }),
  password: z.string({ error: "is required" }).min(8, "must be at least 8 characters").max(1024, "must be at most 1024 characters"),
  subagents: z.boolean().default(false),
  chain: z.boolean().default(false),
  redact: z.boolean().default(true),
  includeExpired: z.boolean().default(false),
});

const MAX_FIND_RESULTS = 1_000;

/** Words to find (find in thread, GET /api/search): required, at most 500 characters, one letter or digit at least. */
export const searchWordsSchema = z
  .string({ error: "is required" })
  .trim()
  .min(1, "is required")
  .max(500, "must be at most 500 characters")
  .refine((q) => searchTerms(q).length > 0, "must hold a letter or a digit");

/** GET /api/threads/:id/find: words to find in the thread's turns (as the thread list's search). */
export const findInThreadQuerySchema = z.object({
  q: searchWordsSchema,
  limit: decimalInteger(1, MAX_FIND_RESULTS).default(MAX_FIND_RESULTS),
  includeExpired: includeExpiredSchema,
});

/** A server action on one thread (purge; undo, where the thread is a compacted revision). */
export const threadRefSchema = z.strictObject({ threadId: uuidSchema });

import { z } from "zod";

/**
 * POST /api/import's query: `format` names a transcript format (the route checks it against the
 * importers it has), `mode=copy` imports Threadline documents under new ids, `name` is the file's
 * path (cut at 500 characters).
 */
export const importQuerySchema = z.object({
  format: z.string().optional(),
  mode: z.enum(["strict", "copy"], { error: 'must be "copy" or absent' }).default("strict"),
  name: z
    .string()
    .optional()
    .transform((name) => name?.slice(0, 500)),
});

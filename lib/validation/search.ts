import { z } from "zod";
import { searchTerms } from "@/lib/domain/search";
import { decimalInteger } from "./numbers";

export const MAX_SEARCH_PAGE = 100;
export const DEFAULT_SEARCH_PAGE = 20;

/** GET /api/search: the words to find (required), a page size and the cursor a page gave. */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: "is required" })
    .trim()
    .min(1, "is required")
    .max(500, "must be at most 500 characters")
    .refine((q) => searchTerms(q).length > 0, "must hold a letter or a digit"),
  cursor: z.string().max(200, "not a cursor returned by this API").optional().transform((v) => v || undefined),
  limit: decimalInteger(1, MAX_SEARCH_PAGE).default(DEFAULT_SEARCH_PAGE),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

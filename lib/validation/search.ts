import { z } from "zod";
import { decimalInteger } from "./numbers";
import { searchWordsSchema } from "./threads";

const MAX_SEARCH_PAGE = 100;
const DEFAULT_SEARCH_PAGE = 20;

/** GET /api/search: the words to find (required), a page size and the cursor a page gave. */
export const searchQuerySchema = z.object({
  q: searchWordsSchema,
  cursor: z
    .string()
    .max(200, "not a cursor returned by this API")
    .optional()
    .transform((v) => v || undefined),
  limit: decimalInteger(1, MAX_SEARCH_PAGE).default(DEFAULT_SEARCH_PAGE),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

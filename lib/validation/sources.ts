import { z } from "zod";

/** POST /api/sources/sync: no options yet; an empty body or `{}`. */
export const syncSourcesSchema = z.strictObject({});

import { z } from "zod";
import { VISIBILITIES } from "@/lib/domain/access";

const visibility = z.enum(VISIBILITIES, { error: 'must be "private" or "team"' });

/** PUT /api/threads/:id/visibility and PUT /api/visibility/default. */
export const setVisibilitySchema = z.strictObject({ visibility });

/** PUT /api/visibility/projects: "share all of project X with the team" (or make it private again). */
export const setProjectVisibilitySchema = z.strictObject({
  project: z
    .string({ error: "must be a project path, as the thread list's Project filter shows it" })
    .min(1, "must not be empty")
    .max(4096),
  visibility,
});

import { z } from "zod";
import { refuseProtoKeys, uuidSchema } from "@/lib/domain/schemas";

/** POST /api/threads/:id/forks: the turn (0-based index, as the API numbers turns) the fork ends with. */
export const forkRequestSchema = refuseProtoKeys(
  z.strictObject({
    atTurn: z.number({ error: "must be a number" }).int("must be a whole number").min(0, "must be at least 0"),
  }),
);

/** The fork server action: the thread, and the same request the REST API takes. */
export const forkActionSchema = z.strictObject({ threadId: uuidSchema, request: forkRequestSchema });

import { z } from "zod";
import { refuseProtoKeys, uuidSchema } from "@/lib/domain/schemas";
import { wholeNumber } from "./numbers";

/** POST /api/threads/:id/forks: the turn (0-based index, as the API numbers turns) the fork ends with. */
export const forkRequestSchema = refuseProtoKeys(
  z.strictObject({
    atTurn: wholeNumber(0),
  }),
);

/** The fork server action: the thread, and the same request the REST API takes. */
export const forkActionSchema = z.strictObject({ threadId: uuidSchema, request: forkRequestSchema });

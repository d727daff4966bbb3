import { z } from "zod";
import { decimalInteger } from "./numbers";

/** GET /api/secrets: `?threadId=` narrows to one thread; `?cursor=` (a finding id) goes on. */
export const listSecretsQuerySchema = z.object({
  threadId: z.string().uuid().optional(),
  cursor: decimalInteger(1).optional(),
  limit: decimalInteger(1, 500).default(100),
});

/** POST /api/secrets/reveal: the one secret of this turn with this fingerprint (or its end, as a mask shows it). */
export const revealSecretSchema = z.object({
  threadId: z.string().uuid(),
  turnId: z.string().min(1).max(200),
  fingerprint: z.string().regex(/^[0-9a-f]{4,12}$/),
});

/**
 * POST /api/secrets/redact: replaces secrets in the stored text for good. With `turnId` and
 * `fingerprint`, that one secret (every occurrence in the turn); with only `threadId`, every
 * secret found in the thread. `confirm` must be true: the old text cannot be brought back.
 */
export const redactSecretsSchema = z.object({
  threadId: z.string().uuid(),
  turnId: z.string().min(1).max(200).optional(),
  fingerprint: z
    .string()
    .regex(/^[0-9a-f]{12}$/)
    .optional(),
  confirm: z.literal(true),
});

/**
 * PUT /api/threads/:id/secret-settings: whether the thread's chat history goes to models as stored
 * (`sendToModels: true`) or with every secret redacted (false, the default). Turning it on needs
 * `confirm: true`: the secrets then leave for the model's provider.
 */
export const secretSettingsSchema = z
  .strictObject({ sendToModels: z.boolean({ error: "must be true or false" }), confirm: z.literal(true).optional() })
  .refine((body) => !body.sendToModels || body.confirm === true, {
    path: ["confirm"],
    message: "must be true to send this thread's secrets to models",
  });

import { z } from "zod";

/** POST /api/tokens and the Settings form: a name, and optionally when the token stops working. */
export const createTokenSchema = z.strictObject({
  name: z.string().trim().min(1, "Name the token (what uses it)").max(100, "At most 100 characters"),
  expiresAt: z.iso
    .datetime({ offset: true, message: "An ISO date and time, such as 2027-01-31T00:00:00Z" })
    .nullish()
    .transform((value) => (value ? new Date(value) : null))
    .refine((value) => value === null || value.getTime() > Date.now(), "The expiry must be in the future"),
});

import { z } from "zod";
import { ROLES } from "@/lib/domain/access";

const email = z.string().trim().toLowerCase().pipe(z.email("An email address, such as ada@example.com"));
const password = z.string().min(8, "At least 8 characters").max(256, "At most 256 characters");

/** The setup page's first admin, and an admin adding a person in Settings. */
export const newPersonSchema = z.strictObject({
  name: z.string().trim().min(1, "A name").max(100, "At most 100 characters"),
  email,
  password,
  role: z.enum(ROLES).default("member"),
});

export const personRefSchema = z.strictObject({ userId: z.string().min(1).max(200) });

export const resetPasswordSchema = z.strictObject({ userId: z.string().min(1).max(200), password });

export const setRoleSchema = z.strictObject({ userId: z.string().min(1).max(200), role: z.enum(ROLES) });

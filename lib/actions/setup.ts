"use server";

import { redirect } from "next/navigation";
import { createFirstPasswordAdmin } from "@/lib/auth/first-admin";
import { authFor } from "@/lib/auth/server";
import { AppError } from "@/lib/domain/errors";
import { serverSettings } from "@/lib/env";
import { newPersonSchema } from "@/lib/validation/people";
import { defineFormAction } from "./define-action";

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/**
 * The setup page's one action: the first admin, while nobody exists (the page is public, so this
 * checks again here, in the transaction that creates them). Whoever loses a race with another
 * setup, or comes after it, goes to /login, told so.
 */
export const setupFirstAdminAction = defineFormAction<typeof newPersonSchema, { message: string }>(
  "setup",
  {
    schema: newPersonSchema,
    read: (form) => ({ name: text(form, "name"), email: text(form, "email"), password: text(form, "password"), role: "admin" }),
    echo: (form) => ({ name: text(form, "name"), email: text(form, "email") }),
    public: true,
  },
  async (input) => {
    if (!serverSettings().auth.enabled) throw new AppError("conflict", "Sign-in is off (THREADLINE_AUTH).");
    const created = await createFirstPasswordAdmin(await authFor(false), input);
    redirect(created ? "/login?setup=done" : "/login?setup=taken");
  },
);

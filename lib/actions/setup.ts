"use server";

import { redirect } from "next/navigation";
import { createFirstPasswordAdmin } from "@/lib/auth/first-admin";
import { authFor } from "@/lib/auth/server";
import { AppError } from "@/lib/domain/errors";
import { parseOrThrow } from "@/lib/domain/parse";
import { serverSettings } from "@/lib/env";
import { newPersonSchema } from "@/lib/validation/people";
import type { FormState } from "./result";

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/**
 * The setup page's one action: the first admin, while nobody exists (the page is public, so this
 * checks again here, in the transaction that creates them). Whoever loses a race with another
 * setup, or comes after it, goes to /login, told so. Not defineFormAction: nobody is signed in yet.
 */
export async function setupFirstAdminAction(_previous: FormState, form: FormData): Promise<FormState> {
  if (!serverSettings().auth.enabled) return { ok: false, error: { code: "conflict", message: "Sign-in is off (THREADLINE_AUTH)." } };
  let created: boolean;
  try {
    const input = parseOrThrow(newPersonSchema, {
      name: text(form, "name"),
      email: text(form, "email"),
      password: text(form, "password"),
      role: "admin",
    });
    const auth = await authFor(false);
    created = await createFirstPasswordAdmin(auth, input);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const fieldErrors = Array.isArray(error.details)
      ? Object.fromEntries((error.details as { field: string; message: string }[]).map((d) => [d.field, d.message]))
      : undefined;
    return {
      ok: false,
      error: {
        code: error.code,
        message: fieldErrors ? "Check the highlighted fields." : error.message,
        ...(fieldErrors ? { fieldErrors } : {}),
        values: { name: text(form, "name"), email: text(form, "email") },
      },
    };
  }
  redirect(created ? "/login?setup=done" : "/login?setup=taken");
}

"use client";

import { useActionState } from "react";
import { FieldError } from "@/components/ui/form-parts";
import { formMessage, type FormState } from "@/lib/actions/result";
import { setupFirstAdminAction } from "@/lib/actions/setup";

/** The first admin's name, email and password (the setup page, once). */
export function SetupForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(setupFirstAdminAction, null);
  const values = state && !state.ok ? state.error.values : undefined;
  const field = (name: string, label: string, type: string, autoComplete: string) => (
    <label className="flex flex-col text-sm">
      <span className="mb-1 text-zinc-600">{label}</span>
      <input
        name={name}
        type={type}
        required
        autoComplete={autoComplete}
        defaultValue={values?.[name]}
        className="rounded border border-zinc-300 px-3 py-2"
      />
      <FieldError state={state} field={name} />
    </label>
  );
  return (
    <form action={action} className="space-y-3" aria-label="Create the first admin">
      {field("name", "Name", "text", "name")}
      {field("email", "Email", "email", "username")}
      {field("password", "Password (8 characters or more)", "password", "new-password")}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded bg-indigo-600 px-3 py-2 text-sm font-medium text-white disabled:opacity-60"
      >
        {pending ? "Creating…" : "Create the admin"}
      </button>
      {state && !state.ok && (
        <p role="alert" className="text-sm text-red-700">
          {formMessage(state)}
        </p>
      )}
    </form>
  );
}

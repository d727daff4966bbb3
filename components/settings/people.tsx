"use client";

import { useActionState, useState, useTransition } from "react";
import { addPersonAction, removePersonAction, resetPasswordAction, setRoleAction } from "@/lib/actions/people";
import type { FormState } from "@/lib/actions/result";
import { ROLES, type Role } from "@/lib/domain/access";
import { FieldError, FormSubmitRow } from "@/components/ui/form-parts";

export type PersonView = { id: string; name: string; email: string; role: Role; signsInWith: string };

/** Settings -> People (admins): who may sign in, adding, removing and resetting passwords. */
export function People({ people, selfId }: Readonly<{ people: PersonView[]; selfId: string }>) {
  return (
    <div className="mt-3 space-y-4">
      <table className="stack-on-phone w-full text-left text-sm">
        <thead className="text-zinc-500">
          <tr>
            <th className="py-1 font-normal">Name</th>
            <th className="py-1 font-normal">Email</th>
            <th className="py-1 font-normal">Role</th>
            <th className="py-1 font-normal">Signs in with</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {people.map((person) => (
            <PersonRow key={person.id} person={person} self={person.id === selfId} />
          ))}
        </tbody>
      </table>
      <AddPersonForm />
    </div>
  );
}

function PersonRow({ person, self }: Readonly<{ person: PersonView; self: boolean }>) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const run = (action: () => Promise<{ ok: true; data: { message: string } } | { ok: false; error: { message: string } }>) =>
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? result.data.message : result.error.message);
    });
  return (
    <tr className="border-t border-zinc-100 align-top" data-testid="person-row">
      <td className="py-1 max-sm:font-medium">{person.name}</td>
      <td className="py-1 break-all" data-label="Email">
        {person.email}
      </td>
      <td className="py-1" data-label="Role">
        {person.role}
      </td>
      <td className="py-1" data-label="Signs in with">
        {person.signsInWith}
      </td>
      <td className="space-y-1 py-1 text-right">
        <form
          className="flex flex-wrap justify-end gap-2 max-sm:justify-start"
          aria-label={`Reset ${person.email}'s password`}
          action={(form) => run(() => resetPasswordAction({ userId: person.id, password: String(form.get("password") ?? "") }))}
        >
          <input
            name="password"
            type="password"
            required
            minLength={8}
            placeholder="new password"
            autoComplete="new-password"
            className="w-36 min-w-0 rounded border border-zinc-300 px-2 py-1"
          />
          <button type="submit" disabled={pending} className="text-indigo-700 hover:underline disabled:opacity-60">
            Reset
          </button>
        </form>
        {!self && (
          <div className="flex flex-wrap justify-end gap-3 max-sm:justify-start">
            <label className="flex items-center gap-1">
              <span className="sr-only">Role of {person.email}</span>
              <select
                value={person.role}
                disabled={pending}
                onChange={(event) => {
                  const role = event.target.value as Role;
                  run(() => setRoleAction({ userId: person.id, role }));
                }}
                className="rounded border border-zinc-300 bg-white px-1 py-0.5 disabled:opacity-60"
              >
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              disabled={pending}
              aria-label={`Remove ${person.email}`}
              onClick={() => run(() => removePersonAction({ userId: person.id }))}
              className="text-red-700 hover:underline disabled:opacity-60"
            >
              Remove
            </button>
          </div>
        )}
        {message && (
          <p role="status" className="text-xs text-zinc-600">
            {message}
          </p>
        )}
      </td>
    </tr>
  );
}

function AddPersonForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(addPersonAction, null);
  const values = state && !state.ok ? state.error.values : undefined;
  return (
    <form action={action} className="grid grid-cols-1 gap-3 sm:grid-cols-4" aria-label="Add a person">
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Name</span>
        <input name="name" required defaultValue={values?.name} className="rounded border border-zinc-300 px-3 py-2" />
        <FieldError state={state} field="name" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Email</span>
        <input name="email" type="email" required defaultValue={values?.email} className="rounded border border-zinc-300 px-3 py-2" />
        <FieldError state={state} field="email" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Password</span>
        <input
          name="password"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
          className="rounded border border-zinc-300 px-3 py-2"
        />
        <FieldError state={state} field="password" />
      </label>
      <label className="flex flex-col text-sm">
        <span className="mb-1 text-zinc-600">Role</span>
        <select name="role" defaultValue={values?.role ?? "member"} className="rounded border border-zinc-300 bg-white px-2 py-2">
          <option value="member">member</option>
          <option value="viewer">viewer (reads what the team shares)</option>
          <option value="admin">admin</option>
        </select>
      </label>
      <FormSubmitRow state={state} pending={pending} label="Add person" busyLabel="Adding…" className="sm:col-span-4" />
    </form>
  );
}

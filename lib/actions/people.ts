"use server";

import { APIError } from "better-auth/api";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { requirePrincipal } from "@/lib/auth/principal";
import { authFor, isSecureRequest } from "@/lib/auth/server";
import { AppError } from "@/lib/domain/errors";
import { newPersonSchema, personRefSchema, resetPasswordSchema, setRoleSchema } from "@/lib/validation/people";
import { adminOnly, defineAction, defineFormAction } from "./define-action";

/** Better Auth's admin plugin for the signed-in admin (it checks the role itself as well). */
async function adminApi() {
  const requestHeaders = await headers();
  return { auth: await authFor(isSecureRequest(requestHeaders)), headers: requestHeaders };
}

/** Better Auth's refusals (an email already taken, removing oneself) as the app's errors. */
async function asAppError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof APIError)
      throw new AppError(error.statusCode === 403 ? "forbidden" : "conflict", error.body?.message ?? error.message);
    throw error;
  }
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** Settings -> People: an admin adds someone who signs in with a password. */
export const addPersonAction = defineFormAction(
  "adding",
  {
    schema: newPersonSchema,
    read: (form) => ({
      name: text(form, "name"),
      email: text(form, "email"),
      password: text(form, "password"),
      role: text(form, "role") || "member",
    }),
    echo: (form) => ({ name: text(form, "name"), email: text(form, "email"), role: text(form, "role") }),
  },
  async (input) => {
    await adminOnly("add people");
    const { auth, headers } = await adminApi();
    await asAppError(() =>
      auth.api.createUser({ body: { name: input.name, email: input.email, password: input.password, role: input.role }, headers }),
    );
    revalidatePath("/settings");
    return { message: `Added ${input.email}.` };
  },
);

/** Removes a person, their sessions and their API tokens, at once. */
export const removePersonAction = defineAction("removing", personRefSchema, async ({ userId }) => {
  await adminOnly("remove people");
  const { auth, headers } = await adminApi();
  await asAppError(() => auth.api.removeUser({ body: { userId }, headers }));
  revalidatePath("/settings");
  return { message: "Removed." };
});

/** Sets a new password for someone (they are signed out everywhere: Better Auth revokes their sessions). */
export const resetPasswordAction = defineAction("resetting", resetPasswordSchema, async ({ userId, password }) => {
  await adminOnly("reset passwords");
  const { auth, headers } = await adminApi();
  await asAppError(() => auth.api.setUserPassword({ body: { userId, newPassword: password }, headers }));
  await asAppError(() => auth.api.revokeUserSessions({ body: { userId }, headers }));
  revalidatePath("/settings");
  return { message: "Password reset; their sessions were ended." };
});

/** Makes someone an admin, a member or a viewer (a person who signed in with single sign-on starts as a member). Not oneself: an admin cannot demote the last admin by accident. */
export const setRoleAction = defineAction("changing the role", setRoleSchema, async ({ userId, role }) => {
  await adminOnly("change roles");
  const { auth, headers } = await adminApi();
  if ((await requirePrincipal(headers))?.userId === userId)
    throw new AppError("conflict", "You cannot change your own role; another admin can.");
  await asAppError(() => auth.api.setRole({ body: { userId, role }, headers }));
  revalidatePath("/settings");
  return { message: `Now ${role === "admin" ? "an admin" : `a ${role}`}.` };
});

import "server-only";
import type { Database } from "@/lib/db/create-client";
import { AppError } from "@/lib/domain/errors";

type AuthLike = { $context: Promise<{ password: { hash(password: string): Promise<string> }; internalAdapter: InternalAdapter }> };
type InternalAdapter = {
  createUser(user: { email: string; name: string; emailVerified: boolean; role: string }, source: { method: "admin" }): Promise<{ id: string }>;
  linkAccount(account: { userId: string; providerId: string; accountId: string; password: string }): Promise<unknown>;
};

/** Whether nobody can sign in yet (the setup page's question). */
export async function noUserYet(database: Database): Promise<boolean> {
  return (await database.user.count()) === 0;
}

/**
 * Creates an admin who signs in with a password, through Better Auth's own hashing (scrypt) and
 * adapter. Used for the first admin (from the environment or the setup page) only.
 */
export async function createPasswordAdmin(auth: AuthLike, person: { email: string; name: string; password: string }): Promise<void> {
  const context = await auth.$context;
  const hash = await context.password.hash(person.password);
  const user = await context.internalAdapter.createUser({ email: person.email.toLowerCase(), name: person.name, emailVerified: true, role: "admin" }, { method: "admin" });
  await context.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
}

/**
 * THREADLINE_ADMIN_EMAIL and THREADLINE_ADMIN_PASSWORD make the first admin when no user exists
 * yet; once anyone exists they are not read again (change the password in Settings).
 */
export async function ensureFirstAdmin(auth: AuthLike, database: Database, admin: { email: string; password: string } | null): Promise<void> {
  if (!admin || !(await noUserYet(database))) return;
  if (admin.password.length < 8) throw new AppError("validation_failed", "THREADLINE_ADMIN_PASSWORD must be at least 8 characters");
  try {
    await createPasswordAdmin(auth, { email: admin.email, name: admin.email.split("@")[0] || "admin", password: admin.password });
    console.log(`[threadline] created the first admin, ${admin.email}, from THREADLINE_ADMIN_EMAIL`);
  } catch (error) {
    // Another instance created them at the same moment (the email is unique).
    if (await noUserYet(database)) throw error;
  }
}

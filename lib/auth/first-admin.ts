import "server-only";
import { createFirstAdmin, noUserYet } from "@/lib/db/people/first-admin";
import { AppError } from "@/lib/domain/errors";

export { noUserYet };

type AuthLike = {
  $context: Promise<{
    password: { hash(password: string): Promise<string> };
    generateId(options: { model: string; size?: number }): string | false;
  }>;
};

/**
 * Creates the first admin, who signs in with a password, when nobody exists yet: the password
 * hashed by Better Auth (scrypt), ids made as Better Auth makes them, and the rows written by
 * lib/db/people/first-admin.ts in one transaction that first checks nobody exists. False when somebody
 * does (another setup or instance was first): exactly one first admin, however many try at once.
 */
export async function createFirstPasswordAdmin(
  auth: AuthLike,
  person: { email: string; name: string; password: string },
): Promise<boolean> {
  if (!(await noUserYet())) return false;
  const context = await auth.$context;
  const passwordHash = await context.password.hash(person.password); // slow on purpose: outside the transaction
  const [userId, accountId] = [context.generateId({ model: "user" }), context.generateId({ model: "account" })];
  if (!userId || !accountId) throw new Error("Better Auth is configured to let the database make ids; Threadline makes them");
  return createFirstAdmin({ userId, accountId, email: person.email.toLowerCase(), name: person.name, passwordHash });
}

/**
 * THREADLINE_ADMIN_EMAIL and THREADLINE_ADMIN_PASSWORD make the first admin when no user exists
 * yet; once anyone exists they are not read again (change the password in Settings).
 */
export async function ensureFirstAdmin(auth: AuthLike, admin: { email: string; password: string } | null): Promise<void> {
  if (!admin || !(await noUserYet())) return;
  if (admin.password.length < 8) throw new AppError("validation_failed", "THREADLINE_ADMIN_PASSWORD must be at least 8 characters");
  const created = await createFirstPasswordAdmin(auth, {
    email: admin.email,
    name: admin.email.split("@")[0] || "admin",
    password: admin.password,
  });
  // Not created: another instance on this database made the first admin at the same moment.
  if (created) console.log(`[threadline] created the first admin, ${admin.email}, from THREADLINE_ADMIN_EMAIL`);
}

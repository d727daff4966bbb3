import { db } from "../engine/client";
import { databaseKind } from "../engine/create-client";
import { lockForWrite } from "../engine/dialect";
import { WRITE_TRANSACTION } from "../engine/transactions";

export type FirstAdminRow = {
  userId: string;
  accountId: string;
  email: string;
  name: string;
  /** Better Auth's scrypt hash of the password ("salt:key"), made before the transaction. */
  passwordHash: string;
};

/** Whether nobody can sign in yet (the setup page's question). */
export async function noUserYet(): Promise<boolean> {
  const client = await db();
  return (await client.user.count()) === 0;
}

/**
 * Creates the first admin and their password account only while no user exists, atomically: the
 * check and the inserts are one transaction under the write lock (PostgreSQL's advisory lock,
 * SQLite's write lock taken by the first statement), so of two concurrent setups, or two instances
 * starting with THREADLINE_ADMIN_EMAIL, exactly one creates anyone. False when someone exists.
 */
export async function createFirstAdmin(row: FirstAdminRow): Promise<boolean> {
  const client = await db();
  return client.$transaction(async (tx) => {
    await lockForWrite(tx, databaseKind(client)); // read, then write: two setups must not both see nobody
    if ((await tx.user.count()) > 0) return false;
    await tx.user.create({ data: { id: row.userId, email: row.email, name: row.name, emailVerified: true, role: "admin" } });
    await tx.account.create({
      data: { id: row.accountId, userId: row.userId, accountId: row.userId, providerId: "credential", password: row.passwordHash },
    });
    return true;
  }, WRITE_TRANSACTION);
}

/**
 * The first admin: the admin who has been one longest (earliest made). The threads nobody owns
 * are theirs (lib/domain/access). Null when there is no admin.
 */
export async function firstAdminId(): Promise<string | null> {
  const client = await db();
  const admins = await client.user.findMany({
    where: { role: { contains: "admin" } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, role: true },
  });
  return admins.find((user) => user.role?.split(",").includes("admin"))?.id ?? null;
}

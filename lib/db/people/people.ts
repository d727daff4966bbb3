import { roleOf, type Role } from "@/lib/domain/access";
import { db } from "../engine/client";

export type PersonRow = { id: string; name: string; email: string; role: Role; signsInWith: string };

/** Everyone who may sign in, with how (password, single sign-on), for Settings -> People. */
export async function listPeople(): Promise<PersonRow[]> {
  const client = await db();
  const users = await client.user.findMany({ orderBy: { email: "asc" }, include: { accounts: { select: { providerId: true } } } });
  return users.map((user) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    role: roleOf(user.role),
    signsInWith: user.accounts.map((a) => (a.providerId === "credential" ? "password" : "single sign-on")).join(", ") || "nothing yet",
  }));
}

import type { Database } from "./create-client";

export type PersonRow = { id: string; name: string; email: string; role: string; signsInWith: string };

/** Everyone who may sign in, with how (password, single sign-on), for Settings -> People. */
export async function listPeople(db: Database): Promise<PersonRow[]> {
  const users = await db.user.findMany({ orderBy: { email: "asc" }, include: { accounts: { select: { providerId: true } } } });
  return users.map((user) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role?.split(",").includes("admin") ? "admin" : "member",
    signsInWith: user.accounts.map((a) => (a.providerId === "credential" ? "password" : "single sign-on")).join(", ") || "nothing yet",
  }));
}

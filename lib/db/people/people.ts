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

/**
 * The name each of some people's ids shows under in the team figures (By person on /usage and
 * /insights): the person's name; "" (the threads nobody owns, with no admin to own them) and the
 * id of someone since removed read as what they are.
 */
export async function personNames(ids: string[]): Promise<(id: string) => string> {
  const client = await db();
  const people = ids.length > 0 ? await client.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }) : [];
  const names = new Map(people.map((person) => [person.id, person.name]));
  return (id) => names.get(id) ?? (id === "" ? "The server's own threads" : "A removed person");
}

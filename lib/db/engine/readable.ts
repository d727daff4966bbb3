import type { Reader } from "@/lib/domain/access";
import type { Prisma } from "../generated/client";

/** A condition with `?` placeholders and its parameters. */
type Condition = { sql: string; params: unknown[] };

/**
 * The threads `reader` may read (lib/domain/access mayRead), as SQL on the Thread row aliased
 * `alias`; null when there is no limit (sign-in off, or the server's own work).
 */
export function readableCondition(reader: Reader, alias: string): Condition | null {
  if (reader === null) return null;
  const team = `${alias}."visibility" = 'team'`;
  if (reader.role === "viewer") return { sql: `(${team})`, params: [] };
  const unowned = reader.ownsUnowned ? ` OR ${alias}."ownerId" IS NULL` : "";
  return { sql: `(${team} OR ${alias}."ownerId" = ?${unowned})`, params: [reader.userId] };
}

/** readableCondition for Prisma's query builder. */
export function readableWhere(reader: Reader): Prisma.ThreadWhereInput {
  if (reader === null) return {};
  if (reader.role === "viewer") return { visibility: "team" };
  return { OR: [{ visibility: "team" }, ...ownedBy(reader).OR] };
}

/** A person's threads for Prisma's query builder (lib/domain/access isOwner): theirs, and the unowned ones when they are the first admin. */
export function ownedBy(person: { userId: string; ownsUnowned: boolean }): { OR: Prisma.ThreadWhereInput[] } {
  return { OR: [{ ownerId: person.userId }, ...(person.ownsUnowned ? [{ ownerId: null }] : [])] };
}

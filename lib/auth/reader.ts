import "server-only";
import { firstAdminId } from "@/lib/db/people/first-admin";
import type { Reader } from "@/lib/domain/access";
import { authEnabled, requirePrincipal, type Principal } from "./principal";

/** The reader a principal is: whether they are the first admin decides whose the unowned threads are. */
export async function readerOf(principal: Principal | null): Promise<Reader> {
  if (!principal) return null;
  const ownsUnowned = principal.role === "admin" && (await firstAdminId()) === principal.userId;
  return { userId: principal.userId, role: principal.role, ownsUnowned };
}

/**
 * Whose reading a request is (lib/domain/access): null with sign-in off (everything is readable);
 * with it on, the signed-in person or the token's (unauthorized without either).
 */
export async function readerFrom(headers: Headers): Promise<Reader> {
  if (!authEnabled()) return null;
  return readerOf(await requirePrincipal(headers));
}

import { createHash, randomBytes, randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/errors";
import { db } from "../engine/client";
import { quoteInput } from "@/lib/domain/secrets/quote";

/**
 * Agents' API tokens: `tl_` and 43 characters of base64url (32 random bytes), so secret scanners
 * can recognise them. Only the SHA-256 of a token is stored: a token is random and 256 bits
 * long, so a fast hash cannot be brute-forced (a slow, salted hash is for passwords people
 * choose), and a lookup by hash finds it with one indexed read on every request.
 */
const TOKEN_PREFIX = "tl_";
const TOKEN_PATTERN = /^tl_[A-Za-z0-9_-]{43}$/;
/** How long a token's last use may be out of date: at most one write a minute per token. */
const LAST_USE_PRECISION_MS = 60_000;

export type ApiTokenView = {
  id: string;
  name: string;
  prefix: string;
  userId: string;
  userEmail: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
};
export type TokenOwner = { userId: string };

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Creates a token for a person; the plain token is returned here only, never stored. */
export async function createApiToken(input: {
  userId: string;
  name: string;
  expiresAt?: Date | null;
}): Promise<{ id: string; token: string }> {
  const client = await db();
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const id = randomUUID();
  await client.apiToken.create({
    data: {
      id,
      name: input.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, 7),
      userId: input.userId,
      expiresAt: input.expiresAt ?? null,
    },
  });
  return { id, token };
}

/** A person's tokens, or everyone's (an admin's list), newest first. */
export async function listApiTokens(userId: string | null): Promise<ApiTokenView[]> {
  const client = await db();
  const rows = await client.apiToken.findMany({
    where: userId === null ? {} : { userId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    include: { user: { select: { email: true } } },
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    userId: row.userId,
    userEmail: row.user.email,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }));
}

/**
 * Revokes (deletes) a token at once. `owner` null: any token (an admin); otherwise only the
 * person's own, and another's answers not found, as if it did not exist.
 */
export async function revokeApiToken(id: string, owner: TokenOwner | null): Promise<void> {
  const client = await db();
  const { count } = await client.apiToken.deleteMany({ where: owner === null ? { id } : { id, userId: owner.userId } });
  if (count === 0) throw new AppError("not_found", `API token ${quoteInput(id)} not found`);
}

/** The person a bearer token acts as, or null when it is unknown, revoked, expired or its person is banned. */
export async function userOfApiToken(
  token: string,
  now = new Date(),
): Promise<{ id: string; email: string; name: string; role: string | null } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const client = await db();
  const row = await client.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  if (!row || (row.expiresAt && row.expiresAt <= now) || row.user.banned) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USE_PRECISION_MS) {
    await client.apiToken.updateMany({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { id: row.user.id, email: row.user.email, name: row.user.name, role: row.user.role };
}

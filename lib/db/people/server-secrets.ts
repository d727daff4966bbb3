import { randomBytes } from "node:crypto";
import { db } from "../engine/client";

/**
 * A secret the server generates once and keeps in the database (ServerSecret), so a single-host
 * install needs no configuration and several instances on one database share it. It is never
 * logged or shown. The first writer wins: a concurrent instance reads what it wrote.
 */
export async function serverSecret(name: string): Promise<string> {
  const client = await db();
  const existing = await client.serverSecret.findUnique({ where: { name } });
  if (existing) return existing.value;
  try {
    await client.serverSecret.create({ data: { name, value: randomBytes(32).toString("base64url") } });
  } catch {
    // Another instance created it first (unique name): read theirs below.
  }
  const row = await client.serverSecret.findUniqueOrThrow({ where: { name } });
  return row.value;
}

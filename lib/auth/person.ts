import "server-only";
import { mayWrite } from "@/lib/domain/access";
import { AppError } from "@/lib/domain/errors";
import { authEnabled } from "./principal";
import { readerFrom } from "./reader";

/** The signed-in person a setting of their own is for; with sign-in off there is nobody to set it for. */
export async function signedInPerson(headers: Headers): Promise<{ userId: string; ownsUnowned: boolean }> {
  if (!authEnabled()) throw new AppError("conflict", "Visibility is per person: start the server with THREADLINE_AUTH=on.");
  const reader = (await readerFrom(headers))!;
  return { userId: reader.userId, ownsUnowned: reader.ownsUnowned };
}

/**
 * The person a push is from (`threadline push`, with their API token): a member or an admin. A
 * push needs sign-in, since each pushed thread is its pusher's; a viewer only reads.
 */
export async function pushingPerson(headers: Headers): Promise<{ userId: string; ownsUnowned: boolean }> {
  if (!authEnabled())
    throw new AppError(
      "conflict",
      "Pushing needs sign-in: start the server with THREADLINE_AUTH=on, and push with an API token made in Settings.",
    );
  const reader = (await readerFrom(headers))!;
  if (!mayWrite(reader)) throw new AppError("forbidden", "A viewer cannot push: an admin can make you a member (Settings, People).");
  return { userId: reader.userId, ownsUnowned: reader.ownsUnowned };
}

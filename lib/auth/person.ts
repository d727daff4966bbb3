import "server-only";
import { AppError } from "@/lib/domain/errors";
import { authEnabled } from "./principal";
import { readerFrom } from "./reader";

/** The signed-in person a setting of their own is for; with sign-in off there is nobody to set it for. */
export async function signedInPerson(headers: Headers): Promise<{ userId: string; ownsUnowned: boolean }> {
  if (!authEnabled()) throw new AppError("conflict", "Visibility is per person: start the server with THREADLINE_AUTH=on.");
  const reader = (await readerFrom(headers))!;
  return { userId: reader.userId, ownsUnowned: reader.ownsUnowned };
}

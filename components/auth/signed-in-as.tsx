import { headers } from "next/headers";
import { connection } from "next/server";
import { authEnabled, principalFrom } from "@/lib/auth/principal";
import { SignOutButton } from "./sign-out-button";

/** The header's "who am I" and sign-out, with sign-in on. */
export async function SignedInAs() {
  await connection();
  if (!authEnabled()) return null;
  const principal = await principalFrom(await headers());
  if (!principal) return null;
  return (
    <span className="ml-auto flex items-center gap-3 text-sm text-zinc-600">
      <span data-testid="signed-in-as">
        {principal.email}
        {principal.role === "admin" ? " (admin)" : ""}
      </span>
      <SignOutButton />
    </span>
  );
}

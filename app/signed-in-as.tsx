import { headers } from "next/headers";
import { connection } from "next/server";
import { SignedInAs } from "@/components/auth/signed-in-as";
import { authEnabled, principalFrom } from "@/lib/auth/principal";

/** Who is signed in, for the header (nothing with sign-in off). Reading the principal opens the database: app/ does that, components render. */
export async function SignedInPerson() {
  await connection();
  if (!authEnabled()) return null;
  const principal = await principalFrom(await headers());
  if (!principal) return null;
  return <SignedInAs email={principal.email} admin={principal.role === "admin"} />;
}

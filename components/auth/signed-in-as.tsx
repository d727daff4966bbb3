import { SignOutButton } from "./sign-out-button";

/** The header's "who am I" and sign-out: app/signed-in-as.tsx reads who is signed in. */
export function SignedInAs({ email, admin }: { email: string; admin: boolean }) {
  return (
    <span className="ml-auto flex items-center gap-3 text-sm text-zinc-600">
      <span data-testid="signed-in-as">
        {email}
        {admin ? " (admin)" : ""}
      </span>
      <SignOutButton />
    </span>
  );
}

"use client";

import { useState } from "react";
import { signOut as endSession } from "@/lib/queries/sign-in";

/** Ends the session (Better Auth's POST /api/auth/sign-out) and goes to the login page. */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  async function signOut() {
    setPending(true);
    await endSession();
    // A full load: nothing cached for the person who left stays in the page.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign("/login");
  }
  return (
    <button type="button" onClick={signOut} disabled={pending} className="text-sm text-zinc-700 hover:text-zinc-950 disabled:opacity-60">
      Sign out
    </button>
  );
}

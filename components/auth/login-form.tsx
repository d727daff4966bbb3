"use client";

import { useState } from "react";
import { signInFailure, signInWithPassword, startSingleSignOn } from "@/lib/queries/sign-in";

/**
 * Email and password sign-in through Better Auth's endpoint (POST /api/auth/sign-in/email, limited
 * per address and per account: a 429 says how long to wait); on success the browser goes where it was headed. Single sign-on, when configured,
 * starts at the provider.
 */
export function LoginForm({ next, sso }: Readonly<{ next: string; sso: string | null }>) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  // onSubmit, not a form action: React resets a form after its action, and a wrong password should keep the email.
  async function signIn(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      await signInWithPassword(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
      window.location.assign(next);
      return;
    } catch (failure) {
      setError(signInFailure(failure));
    }
    setPending(false);
  }

  async function singleSignOn() {
    setPending(true);
    // Better Auth 1.7's generic OAuth providers start at the social sign-in endpoint (callback /api/auth/callback/oidc).
    try {
      window.location.assign(await startSingleSignOn(next));
    } catch (failure) {
      setError(signInFailure(failure, { sso: true }));
      setPending(false);
    }
  }

  return (
    <div className="space-y-4">
      <form onSubmit={signIn} className="space-y-3" aria-label="Sign in">
        <label className="flex flex-col text-sm">
          <span className="mb-1 text-zinc-600">Email</span>
          <input name="email" type="email" required autoComplete="username" className="rounded border border-zinc-300 px-3 py-2" />
        </label>
        <label className="flex flex-col text-sm">
          <span className="mb-1 text-zinc-600">Password</span>
          <input
            name="password"
            type="password"
            required
            autoComplete="current-password"
            className="rounded border border-zinc-300 px-3 py-2"
          />
        </label>
        <button
          type="submit"
          disabled={pending}
          className="w-full rounded bg-indigo-600 px-3 py-2 text-sm font-medium text-white disabled:opacity-60"
        >
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {sso && (
        <button
          type="button"
          onClick={singleSignOn}
          disabled={pending}
          className="w-full rounded border border-zinc-300 bg-white px-3 py-2 text-sm font-medium"
        >
          Sign in with {sso}
        </button>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

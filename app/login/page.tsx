import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { LoginForm } from "@/components/auth/login-form";
import { noUserYet } from "@/lib/auth/first-admin";
import { authFor } from "@/lib/auth/server";
import { safeNextPath } from "@/lib/domain/requests/sign-in";
import { serverSettings } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ next?: string | string[]; setup?: string; error?: string }> };

export default async function LoginPage({ searchParams }: Props) {
  await connection();
  const settings = serverSettings().auth;
  if (!settings.enabled) redirect("/threads");
  await authFor(false); // creates the first admin from the environment, when nobody exists yet
  if (await noUserYet()) redirect("/setup");
  const query = await searchParams;
  const next = safeNextPath(typeof query.next === "string" ? query.next : null);
  return (
    <div className="mx-auto max-w-sm space-y-4 rounded-lg border border-zinc-200 bg-white p-6">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      {query.setup === "done" && <p className="text-sm text-emerald-700">The admin is created: sign in.</p>}
      {query.setup === "taken" && (
        <p role="alert" className="text-sm text-red-700">
          Threadline was set up already (someone finished first), so nobody was created: sign in, or ask an admin to add you.
        </p>
      )}
      {query.error && <p className="text-sm text-red-700">Single sign-on failed: {String(query.error).slice(0, 100)}</p>}
      <LoginForm next={next === "/" ? "/threads" : next} sso={settings.oidc?.name ?? null} />
    </div>
  );
}

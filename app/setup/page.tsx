import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { SetupForm } from "@/components/auth/setup-form";
import { noUserYet } from "@/lib/auth/first-admin";
import { authFor } from "@/lib/auth/server";
import { serverSettings } from "@/lib/env";

export const metadata: Metadata = { title: "Set up" };

/** Once: with sign-in on and nobody to sign in as (no THREADLINE_ADMIN_EMAIL), the first admin. */
export default async function SetupPage() {
  await connection();
  if (!serverSettings().auth.enabled) redirect("/threads");
  await authFor(false);
  if (!(await noUserYet())) redirect("/login");
  return (
    <div className="mx-auto max-w-sm space-y-4 rounded-lg border border-zinc-200 bg-white p-6">
      <h1 className="text-2xl font-semibold tracking-tight">Set up Threadline</h1>
      <p className="text-sm text-zinc-600">Nobody can sign in yet. Create the first admin; they add everyone else in Settings.</p>
      <SetupForm />
    </div>
  );
}

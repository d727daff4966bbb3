import type { Metadata } from "next";
import Link from "next/link";
import { Suspense, type ReactNode } from "react";
import { SignedInPerson } from "./signed-in-as";
import { SearchKey } from "@/components/ui/search-key";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { default: "Threadline", template: "%s · Threadline" },
  description: "Inspect and govern AI conversations.",
};

export default function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  return (
    <html lang="en">
      <body className="min-h-screen">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2">
          Skip to content
        </a>
        <header className="border-b border-zinc-200 bg-white">
          <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 sm:gap-x-6">
            <Link href="/threads" className="text-lg font-semibold tracking-tight text-indigo-700">
              Threadline
            </Link>
            <Link href="/threads" className="text-sm text-zinc-700 hover:text-zinc-950">
              Threads
            </Link>
            <Link href="/search" className="text-sm text-zinc-700 hover:text-zinc-950" title="Search every thread (/)">
              Search
            </Link>
            <Link href="/import" className="text-sm text-zinc-700 hover:text-zinc-950">
              Import
            </Link>
            <Link href="/sources" className="text-sm text-zinc-700 hover:text-zinc-950">
              Sources
            </Link>
            <Link href="/usage" className="text-sm text-zinc-700 hover:text-zinc-950">
              Usage
            </Link>
            <Link href="/insights" className="text-sm text-zinc-700 hover:text-zinc-950">
              Insights
            </Link>
            <Link href="/secrets" className="text-sm text-zinc-700 hover:text-zinc-950">
              Secrets
            </Link>
            <Link href="/settings" className="text-sm text-zinc-700 hover:text-zinc-950">
              Settings
            </Link>
            <Suspense fallback={null}>
              <SignedInPerson />
            </Suspense>
          </nav>
        </header>
        <Providers>
          <SearchKey />
          <main id="main" className="mx-auto max-w-6xl px-4 py-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}

import { UsageSkeleton } from "@/components/usage/usage-skeleton";

export default function LoadingUsage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Usage</h1>
      <div className="h-28 animate-pulse rounded-lg border border-zinc-200 bg-white" />
      <UsageSkeleton />
    </div>
  );
}

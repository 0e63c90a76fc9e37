import { Skeleton } from "@/components/ui/skeleton";

export default function WorkspaceLoading() {
  return (
    <div className="grid gap-4" aria-busy="true" aria-label="Loading">
      <Skeleton className="h-8 w-full max-w-56" />
      <Skeleton className="h-4 w-full max-w-96" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

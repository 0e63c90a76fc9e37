"use client";

import { useQuery, type QueryKey } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * A live read of something that moves on its own (a campaign sending, an
 * import applying): polled while `moving` says so, and when its status
 * changes the page renders anew, since its actions change with it.
 */
export function usePolledStatus<T extends { status: string }>(options: {
  queryKey: QueryKey;
  read: (signal: AbortSignal) => Promise<T>;
  initial: T;
  moving: (status: T["status"]) => boolean;
  everyMs: number;
}): T {
  const router = useRouter();
  const query = useQuery({
    queryKey: options.queryKey,
    queryFn: ({ signal }) => options.read(signal),
    initialData: options.initial,
    refetchInterval: (current) => {
      const status = current.state.data?.status;
      return status !== undefined && options.moving(status) ? options.everyMs : false;
    },
  });
  const data = query.data ?? options.initial;
  const shown = useRef(options.initial.status);
  useEffect(() => {
    if (data.status === shown.current) return;
    shown.current = data.status;
    router.refresh();
  }, [data.status, router]);
  return data;
}

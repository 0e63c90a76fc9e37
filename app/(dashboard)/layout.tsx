import type { ReactNode } from "react";

import { QueryProvider } from "@/components/dashboard/query-provider";
import { Toaster } from "@/components/ui/sonner";
import { requireUser } from "@/lib/auth/current-user";

// Every page under this layout needs a signed-in user; signed-out visitors are sent to sign-in.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  await requireUser();
  return (
    <QueryProvider>
      {children}
      <Toaster />
    </QueryProvider>
  );
}

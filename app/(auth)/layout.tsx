import type { ReactNode } from "react";

// Sign-in, first run and invitations: one centred card, no dashboard shell.
export default function AuthLayout({ children }: { children: ReactNode }) {
  return <div className="flex min-h-screen items-center justify-center bg-muted/40 p-6">{children}</div>;
}
